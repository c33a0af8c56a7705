/**
 * What a simulator needs to know about uploaded media to apply a platform's media rules
 * (format, pixel size, aspect ratio, GIF frame count, video duration), read from the bytes in
 * plain JavaScript: no ffprobe, no temporary file, never throws.
 *
 * `mediaInfo(bytes)` answers `{ format, width?, height?, frames?, durationSeconds? }`:
 * - `format`: sniffed from the content, never from a name or a declared type.
 *   Images (by the `image-size` package): 'jpeg' | 'png' | 'webp' | 'gif' | 'bmp' | 'tiff' |
 *   'heic' (HEIF brands heic/heix/hevc/hevx/mif1/msf1; AVIF is 'unknown').
 *   Videos: 'mp4' | 'mov' by the ISO BMFF `ftyp` box (major brand `qt  `: 'mov', any other
 *   non-HEIF brand: 'mp4'); 'webm' by the EBML magic 1A 45 DF A3 with DocType "webm".
 *   Anything else (including other formats image-size knows, like ICO, SVG, PSD): 'unknown',
 *   with no other field.
 * - `width`, `height`: pixels, integers. Images: the stored size (the JPEG EXIF orientation
 *   is not applied; for an animated WebP, the canvas). MP4/MOV: the first video track's `tkhd`
 *   width/height (16.16 fixed point, integer part; display size before its rotation matrix).
 *   Absent for WebM and whenever unreadable.
 * - `frames`: GIF: the number of images (Image Descriptor blocks, 0x2C, counted by walking the
 *   block structure, GIF89a section 20). WebP: the number of ANMF chunks of an animation, else 1.
 *   Absent for other formats.
 * - `durationSeconds`: MP4/MOV only: the movie header (`moov` -> `mvhd`: duration / timescale,
 *   versions 0 and 1, ISO/IEC 14496-12 8.2.2), seconds as a float. Absent when unreadable.
 */
import { imageSize } from 'image-size';
import { gifFrames } from '../../src/shared/media/gif.ts';

export type MediaFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'bmp' | 'tiff' | 'heic' | 'mp4' | 'mov' | 'webm' | 'unknown';

export interface MediaInfo {
  format: MediaFormat;
  /** Pixels. */
  width?: number;
  /** Pixels. */
  height?: number;
  /** GIF images / WebP animation frames. */
  frames?: number;
  /** Seconds (MP4/MOV movie header). */
  durationSeconds?: number;
}

/** ftyp major brands of HEIF still images (image-size reads these; anything else with an ftyp box is a video). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'avif']);

/** image-size's type names mapped to ours (its HEIF handler reports the ftyp brand as the type). */
const IMAGE_TYPES: Record<string, MediaFormat> = {
  jpg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif', bmp: 'bmp', tiff: 'tiff',
  heic: 'heic', heix: 'heic', hevc: 'heic', hevx: 'heic', mif1: 'heic', msf1: 'heic',
};

/** Format, pixel size, frame count and duration of an image or video; see the module comment. Never throws. */
export function mediaInfo(bytes: Buffer): MediaInfo {
  try {
    if (bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp') {
      const brand = bytes.toString('latin1', 8, 12);
      if (!HEIF_BRANDS.has(brand)) return isoVideoInfo(bytes, brand);
    }
    if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) {
      return { format: ebmlDocType(bytes) === 'webm' ? 'webm' : 'unknown' };
    }
    return imageInfo(bytes);
  } catch {
    return { format: 'unknown' };
  }
}

function imageInfo(bytes: Buffer): MediaInfo {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return { format: 'unknown' };
  }
  const format = IMAGE_TYPES[size.type ?? ''];
  if (!format) return { format: 'unknown' };
  const info: MediaInfo = { format, width: size.width, height: size.height };
  if (format === 'gif') info.frames = gifFrames(bytes);
  if (format === 'webp') info.frames = webpFrames(bytes);
  return info;
}

/** GIF frames: the block walk lives in src/shared/media/gif.ts (the upload probe uses it too). */
export { gifFrames };

/** The frames of a WebP: the ANMF chunks of an animation, else 1. */
function webpFrames(buf: Buffer): number {
  let anmf = 0;
  let at = 12;
  const end = Math.min(buf.length, 8 + buf.readUInt32LE(4));
  while (at + 8 <= end) {
    const type = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    if (type === 'ANMF') anmf++;
    at += 8 + size + (size & 1);
  }
  return anmf || 1;
}

/** The DocType of an EBML header ("webm", "matroska"), or null. */
function ebmlDocType(buf: Buffer): string | null {
  const header = readEbmlElement(buf, 0);
  if (!header || header.id !== 0x1a45dfa3) return null;
  let at = header.body;
  const end = Math.min(header.end, buf.length);
  while (at < end) {
    const el = readEbmlElement(buf, at);
    if (!el) return null;
    if (el.id === 0x4282) return buf.toString('latin1', el.body, Math.min(el.end, buf.length)).replace(/\0+$/, '');
    at = el.end;
  }
  return null;
}

/** An EBML element at `at`: its id (with the length marker bits), payload start and end. */
function readEbmlElement(buf: Buffer, at: number): { id: number; body: number; end: number } | null {
  const vint = (p: number, keepMarker: boolean): { value: number; length: number } | null => {
    if (p >= buf.length) return null;
    const first = buf[p];
    let length = 1;
    while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
    if (length > 8 || p + length > buf.length) return null;
    let value = keepMarker ? first : first & (0xff >> length);
    for (let i = 1; i < length; i++) value = value * 256 + buf[p + i];
    return { value, length };
  };
  const id = vint(at, true);
  if (!id) return null;
  const size = vint(at + id.length, false);
  if (!size) return null;
  const body = at + id.length + size.length;
  return { id: id.value, body, end: body + size.value };
}

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

function child(buf: Buffer, parent: { body: number; end: number }, type: string): { body: number; end: number } | null {
  for (const box of boxes(buf, parent.body, parent.end)) if (box.type === type) return box;
  return null;
}

/** The top-level `moov` box, or null. */
function moovBox(buf: Buffer): { body: number; end: number } | null {
  return child(buf, { body: 0, end: buf.length }, 'moov');
}

/** Seconds from the `mvhd` box (in `moov`) of an MP4/MOV file, or null. */
export function mp4DurationSeconds(buf: Buffer): number | null {
  const moov = moovBox(buf);
  const mvhd = moov && child(buf, moov, 'mvhd');
  if (!mvhd) return null;
  const version = buf[mvhd.body];
  const need = version === 1 ? 32 : 20;
  if (mvhd.body + need > mvhd.end) return null;
  const timescale = version === 1 ? buf.readUInt32BE(mvhd.body + 20) : buf.readUInt32BE(mvhd.body + 12);
  const duration = version === 1 ? buf.readBigUInt64BE(mvhd.body + 24) : BigInt(buf.readUInt32BE(mvhd.body + 16));
  // All ones: duration unknown.
  if (!timescale || duration === (version === 1 ? 0xffffffffffffffffn : 0xffffffffn)) return null;
  return Number(duration) / timescale;
}

/** Width and height (pixels) from the `tkhd` of the first track whose handler is `vide`, or null. */
function mp4VideoSize(buf: Buffer, moov: { body: number; end: number }): { width: number; height: number } | null {
  for (const trak of boxes(buf, moov.body, moov.end)) {
    if (trak.type !== 'trak') continue;
    const hdlr = child(buf, child(buf, trak, 'mdia') ?? { body: 0, end: 0 }, 'hdlr');
    // hdlr: version/flags (4), pre_defined (4), handler_type (4).
    if (!hdlr || hdlr.body + 12 > hdlr.end || buf.toString('latin1', hdlr.body + 8, hdlr.body + 12) !== 'vide') continue;
    const tkhd = child(buf, trak, 'tkhd');
    if (!tkhd) return null;
    // After the times/ids/duration (20 bytes in version 0, 32 in 1): reserved (8), layer, alternate
    // group, volume, reserved (2 each), matrix (36), then width and height as 16.16 fixed point.
    const at = tkhd.body + 4 + (buf[tkhd.body] === 1 ? 32 : 20) + 52;
    if (at + 8 > tkhd.end) return null;
    return { width: buf.readUInt32BE(at) >>> 16, height: buf.readUInt32BE(at + 4) >>> 16 };
  }
  return null;
}

function isoVideoInfo(buf: Buffer, brand: string): MediaInfo {
  const info: MediaInfo = { format: brand === 'qt  ' ? 'mov' : 'mp4' };
  const moov = moovBox(buf);
  if (!moov) return info;
  const duration = mp4DurationSeconds(buf);
  if (duration != null) info.durationSeconds = duration;
  const size = mp4VideoSize(buf, moov);
  if (size) { info.width = size.width; info.height = size.height; }
  return info;
}
