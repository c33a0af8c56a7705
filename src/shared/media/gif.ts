/**
 * Frames of a GIF, counted by walking its block structure (GIF89a specification,
 * https://www.w3.org/Graphics/GIF/spec-gif89a.txt): header and logical screen descriptor,
 * optional global colour table, then extensions (0x21) and image descriptors (0x2C, one per
 * frame) with their data sub-blocks, up to the trailer (0x3B). Scanning for 0x2C bytes would
 * also count colour and pixel data. Pure: used by the upload probe and the simulators.
 */

/** Image descriptors in `buf` (a truncated file counts the frames read before the cut). */
export function gifFrames(buf: Uint8Array): number {
  if (buf.length < 13) return 0;
  let at = 13;
  const screenFlags = buf[10];
  if (screenFlags & 0x80) at += 3 * (1 << ((screenFlags & 0x07) + 1));
  /** Skips data sub-blocks (length byte, then that many bytes) up to the zero-length terminator; -1 when truncated. */
  const skipSubBlocks = (p: number): number => {
    while (p < buf.length) {
      const n = buf[p];
      p += 1 + n;
      if (n === 0) return p;
    }
    return -1;
  };
  let frames = 0;
  while (at >= 0 && at < buf.length) {
    const introducer = buf[at];
    if (introducer === 0x3b) break;
    if (introducer === 0x21) {
      at = skipSubBlocks(at + 2);
    } else if (introducer === 0x2c) {
      if (at + 10 > buf.length) break;
      const flags = buf[at + 9];
      at += 10;
      if (flags & 0x80) at += 3 * (1 << ((flags & 0x07) + 1));
      at = skipSubBlocks(at + 1);
      if (at < 0) break;
      frames++;
    } else {
      break;
    }
  }
  return frames;
}
