/**
 * Helpers for media tests: test videos generated with ffmpeg
 * (never committed), and the raw tus requests of the client-upload flow.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * Generates a test video with ffmpeg's lavfi sources (testsrc picture, sine tone).
 * Returns its bytes. `audio: false` leaves the audio stream out.
 */
export function makeVideo(opts: { seconds?: number; width?: number; height?: number; rate?: number; audio?: boolean; format?: 'mp4' | 'webm'; minBytes?: number } = {}): Buffer {
  const key = JSON.stringify(opts);
  const hit = videoCache.get(key);
  if (hit) return Buffer.from(hit);
  const bytes = padMp4(encodeVideo(opts), opts.format === 'webm' ? 0 : opts.minBytes ?? 0);
  videoCache.set(key, bytes);
  return Buffer.from(bytes);
}

const videoCache = new Map<string, Buffer>();

/**
 * An MP4 at least `minBytes` long: a top-level `free` box (8-byte header, then zeros; every
 * reader skips it) appended at the end, so the size is exact when the file is short of it.
 */
function padMp4(bytes: Buffer, minBytes: number): Buffer {
  const missing = minBytes - bytes.length;
  if (missing <= 0) return bytes;
  const box = Buffer.alloc(Math.max(8, missing));
  box.writeUInt32BE(box.length, 0);
  box.write('free', 4, 'latin1');
  return Buffer.concat([bytes, box]);
}

function encodeVideo(opts: { seconds?: number; width?: number; height?: number; rate?: number; audio?: boolean; format?: 'mp4' | 'webm' }): Buffer {
  const { seconds = 2, width = 320, height = 240, rate = 25, audio = true, format = 'mp4' } = opts;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-video-'));
  const out = path.join(dir, `v.${format}`);
  try {
    execFileSync('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${width}x${height}:rate=${rate}`,
      ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
      ...(format === 'mp4' ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...(audio ? ['-c:a', 'aac'] : []), '-movflags', '+faststart']
        : ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', ...(audio ? ['-c:a', 'libopus'] : [])]),
      '-shortest', out,
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface MakeImageOptions {
  format: 'jpeg' | 'png' | 'webp' | 'gif';
  width: number;
  height: number;
  /** GIF only: the number of frames (images), 1 by default. */
  frames?: number;
  /** Pads the file to at least this many bytes, keeping it a valid file of its format (see makeImage). */
  minBytes?: number;
}

const imageCache = new Map<string, Buffer>();

/**
 * Generates a test image with ffmpeg's lavfi `testsrc` source: one frame for JPEG (mjpeg),
 * PNG and WebP (libwebp, lossy), `frames` frames for GIF (a moving picture, so every frame
 * is its own image). Results are cached in memory per option set; each call returns a copy.
 *
 * `minBytes` pads with data every reader skips, so format, size and frame count are unchanged:
 * - JPEG: COM (comment, FF FE) segments of at most 65,533 bytes right after SOI;
 * - PNG: a `tEXt` chunk (keyword "Comment") right before IEND;
 * - GIF: a Comment Extension (21 FE, 255-byte sub-blocks) right before the trailer;
 * - WebP: the file becomes the extended format (a VP8X chunk first, flags copied from the
 *   image: alpha for VP8L with alpha) with an unknown `PADD` chunk after the image data,
 *   which readers ignore (WebP container spec, "Unknown Chunks").
 */
export function makeImage(opts: MakeImageOptions): Buffer {
  const key = JSON.stringify([opts.format, opts.width, opts.height, opts.frames ?? 1, opts.minBytes ?? 0]);
  let bytes = imageCache.get(key);
  if (!bytes) {
    bytes = padImage(opts.format, encodeImage(opts), opts.minBytes ?? 0);
    imageCache.set(key, bytes);
  }
  return Buffer.from(bytes);
}

function encodeImage(opts: MakeImageOptions): Buffer {
  const { format, width, height } = opts;
  const frames = format === 'gif' ? opts.frames ?? 1 : 1;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-image-'));
  const out = path.join(dir, `i.${format === 'jpeg' ? 'jpg' : format}`);
  const codec: Record<MakeImageOptions['format'], string[]> = {
    jpeg: ['-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-f', 'image2'],
    png: ['-c:v', 'png', '-pix_fmt', 'rgb24', '-f', 'image2'],
    webp: ['-c:v', 'libwebp', '-f', 'webp'],
    gif: ['-c:v', 'gif', '-loop', '0', '-f', 'gif'],
  };
  try {
    execFileSync('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=10`,
      '-frames:v', String(frames), ...codec[format], out,
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function padImage(format: MakeImageOptions['format'], bytes: Buffer, minBytes: number): Buffer {
  if (bytes.length >= minBytes) return bytes;
  switch (format) {
    case 'jpeg': return padJpeg(bytes, minBytes);
    case 'png': return padPng(bytes, minBytes);
    case 'gif': return padGif(bytes, minBytes);
    case 'webp': return padWebp(bytes, minBytes);
  }
}

/** COM segments after SOI: marker FF FE, a 16-bit length counting itself, up to 65,533 bytes of text. */
function padJpeg(bytes: Buffer, minBytes: number): Buffer {
  const segments: Buffer[] = [];
  let missing = minBytes - bytes.length;
  while (missing > 0) {
    const payload = Math.min(65_533, Math.max(1, missing - 4));
    const seg = Buffer.alloc(4 + payload, 0x20);
    seg.writeUInt16BE(0xfffe, 0);
    seg.writeUInt16BE(payload + 2, 2);
    segments.push(seg);
    missing -= seg.length;
  }
  return Buffer.concat([bytes.subarray(0, 2), ...segments, bytes.subarray(2)]);
}

/** A tEXt chunk ("Comment", NUL, spaces) before IEND (the last 12 bytes). */
function padPng(bytes: Buffer, minBytes: number): Buffer {
  const text = Math.max(0, minBytes - bytes.length - 12 - 8);
  const data = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(text, 0x20)]);
  const typeAndData = Buffer.concat([Buffer.from('tEXt', 'latin1'), data]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(zlib.crc32(typeAndData), 8 + data.length);
  const iend = bytes.length - 12;
  return Buffer.concat([bytes.subarray(0, iend), chunk, bytes.subarray(iend)]);
}

/** A Comment Extension (21 FE, sub-blocks of up to 255 bytes, a zero terminator) before the trailer (3B, the last byte). */
function padGif(bytes: Buffer, minBytes: number): Buffer {
  const text = Math.max(1, minBytes - bytes.length - 3);
  const blocks: Buffer[] = [Buffer.from([0x21, 0xfe])];
  // Each sub-block takes its length byte and 1 to 255 bytes; never leave 1 byte over (a sub-block cannot be empty).
  for (let left = text; left > 0;) {
    let n = left < 2 ? 1 : Math.min(255, left - 1);
    if (left - (n + 1) === 1) n -= 1;
    blocks.push(Buffer.from([n]), Buffer.alloc(n, 0x20));
    left -= n + 1;
  }
  blocks.push(Buffer.from([0]));
  return Buffer.concat([bytes.subarray(0, bytes.length - 1), ...blocks, bytes.subarray(bytes.length - 1)]);
}

/** RIFF chunk: FourCC, little-endian size, payload, a pad byte when the size is odd. */
function riffChunk(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(payload.length, 4);
  return Buffer.concat([head, payload, Buffer.alloc(payload.length & 1)]);
}

/** The extended WebP layout (VP8X, the image chunks, then an unknown PADD chunk) at least `minBytes` long. */
function padWebp(bytes: Buffer, minBytes: number): Buffer {
  let chunks = bytes.subarray(12);
  if (chunks.toString('latin1', 0, 4) !== 'VP8X') {
    const vp8x = Buffer.alloc(10);
    // Alpha flag (0x10) for a lossless image whose header says alpha is used (bit 28 after the 0x2F signature).
    if (chunks.toString('latin1', 0, 4) === 'VP8L' && chunks.readUInt32LE(9) & (1 << 28)) vp8x[0] = 0x10;
    const size = imageSizeOfWebp(chunks);
    vp8x.writeUIntLE(size.width - 1, 4, 3);
    vp8x.writeUIntLE(size.height - 1, 7, 3);
    chunks = Buffer.concat([riffChunk('VP8X', vp8x), chunks]);
  }
  const padding = riffChunk('PADD', Buffer.alloc(Math.max(0, minBytes - 12 - chunks.length - 8)));
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), chunks, padding]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** Width and height of a simple WebP's VP8 or VP8L chunk (at the start of `chunks`). */
function imageSizeOfWebp(chunks: Buffer): { width: number; height: number } {
  const type = chunks.toString('latin1', 0, 4);
  if (type === 'VP8 ') {
    // Frame tag (3), start code 9D 01 2A, then 14-bit width and height.
    return { width: chunks.readUInt16LE(14) & 0x3fff, height: chunks.readUInt16LE(16) & 0x3fff };
  }
  if (type === 'VP8L') {
    const bits = chunks.readUInt32LE(9);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  throw new Error(`makeImage: unexpected WebP chunk ${type}`);
}

/** An ISO BMFF header (ftyp box, brand mp42) followed by `size - 24` zero bytes: an "MP4" by its magic bytes. */
export function fakeMp4(size: number): Buffer {
  const b = Buffer.alloc(size);
  Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom')]).copy(b);
  return b;
}

/** Headers of a tus request authorised by an upload token. */
export function tusHeaders(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', ...extra };
}

/** PATCH `bytes` at `offset` to an upload URL over real HTTP. */
export function tusPatch(uploadUrl: string, token: string, offset: number, bytes: Buffer | Uint8Array): Promise<Response> {
  return fetch(uploadUrl, {
    method: 'PATCH',
    headers: tusHeaders(token, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }),
    body: bytes,
  });
}
