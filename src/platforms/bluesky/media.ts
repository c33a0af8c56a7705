/**
 * Image helpers for Bluesky uploads: reads pixel dimensions from PNG, GIF, JPEG and WebP headers,
 * so posts carry `aspectRatio` (optional in `app.bsky.embed.images`, but without it clients crop).
 */

/** `{ width, height }` in pixels, or `undefined` for an unknown/truncated format. */
export function imageDimensions(b: Uint8Array): { width: number; height: number } | undefined {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const ok = (w: number, h: number) => (w > 0 && h > 0 ? { width: w, height: h } : undefined);
  // PNG: signature + IHDR
  if (buf.length >= 24 && buf.readUInt32BE(0) === 0x89504e47 && buf.toString('latin1', 12, 16) === 'IHDR') {
    return ok(buf.readUInt32BE(16), buf.readUInt32BE(20));
  }
  // GIF87a / GIF89a
  if (buf.length >= 10 && buf.toString('latin1', 0, 3) === 'GIF') return ok(buf.readUInt16LE(6), buf.readUInt16LE(8));
  // WebP
  if (buf.length >= 30 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') {
    const chunk = buf.toString('latin1', 12, 16);
    if (chunk === 'VP8X') return ok(1 + buf.readUIntLE(24, 3), 1 + buf.readUIntLE(27, 3));
    if (chunk === 'VP8 ') return ok(buf.readUInt16LE(26) & 0x3fff, buf.readUInt16LE(28) & 0x3fff);
    if (chunk === 'VP8L') {
      const bits = buf.readUInt32LE(21);
      return ok((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
    }
    return undefined;
  }
  // JPEG: walk the segments to the first SOFn
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8) {
    let i = 2;
    while (i + 9 < buf.length) {
      if (buf[i] !== 0xff) return undefined;
      const marker = buf[i + 1];
      if (marker === 0xff) {
        i++;
        continue;
      }
      const len = buf.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return ok(buf.readUInt16BE(i + 7), buf.readUInt16BE(i + 5));
      }
      i += 2 + len;
    }
  }
  return undefined;
}
