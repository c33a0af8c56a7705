/**
 * The duration of an MP4/MOV file read from its movie header (`moov` -> `mvhd`: timescale and
 * duration, ISO/IEC 14496-12 8.2.2), in plain JavaScript, so that a simulator needs no ffprobe
 * for it. Null when the bytes have no readable movie header.
 */

/** Iterates the boxes in `buf[start, end)`: type and the payload's bounds. */
function* boxes(buf: Buffer, start: number, end: number): Generator<{ type: string; body: number; end: number }> {
  let at = start;
  while (at + 8 <= end) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) return;
      const big = buf.readBigUInt64BE(at + 8);
      if (big > BigInt(end - at)) return;
      size = Number(big);
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || at + size > end) return;
    yield { type, body: at + header, end: at + size };
    at += size;
  }
}

/** Seconds from the `mvhd` box of an MP4/MOV file, or null. */
export function mp4DurationSeconds(buf: Buffer): number | null {
  for (const top of boxes(buf, 0, buf.length)) {
    if (top.type !== 'moov') continue;
    for (const box of boxes(buf, top.body, top.end)) {
      if (box.type !== 'mvhd') continue;
      const version = buf[box.body];
      const need = version === 1 ? 32 : 20;
      if (box.body + need > box.end) return null;
      const timescale = version === 1 ? buf.readUInt32BE(box.body + 20) : buf.readUInt32BE(box.body + 12);
      const duration = version === 1 ? Number(buf.readBigUInt64BE(box.body + 24)) : buf.readUInt32BE(box.body + 16);
      if (!timescale || duration === 0xffffffff) return null;
      return duration / timescale;
    }
    return null;
  }
  return null;
}
