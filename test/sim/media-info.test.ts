/**
 * mediaInfo (sim/common/media-info.ts) on real files made by ffmpeg, and the test helper
 * makeImage (test/support/media.ts) that makes them: exact format, size and frame count, and
 * padding to `minBytes` that keeps the file valid (ffmpeg still decodes it).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gifFrames, mediaInfo, mp4DurationSeconds } from '../../sim/common/media-info.ts';
import { makeImage, makeVideo } from '../support/media.ts';

/** Runs ffmpeg on `bytes` (written to a temporary file named `name`) with `args` after the input; its output file's bytes, or decodes to null. */
function ffmpegOn(bytes: Buffer, name: string, args: string[], outName?: string): Buffer | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-mi-'));
  try {
    const input = path.join(dir, name);
    fs.writeFileSync(input, bytes);
    const out = outName ? path.join(dir, outName) : '-';
    execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', input, ...args, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    return outName ? fs.readFileSync(out) : null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Fails unless ffmpeg decodes every frame of `bytes` without an error. */
function assertDecodes(bytes: Buffer, name: string): void {
  expect(() => ffmpegOn(bytes, name, ['-f', 'null'])).not.toThrow();
}

/** Generates a file with ffmpeg from a lavfi source. */
function ffmpegGenerate(name: string, args: string[]): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-mi-'));
  try {
    const out = path.join(dir, name);
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/**
 * Checks what ffmpeg's decoders let through: every PNG chunk's CRC; a WebP's RIFF size and
 * chunk walk (ending exactly at the end, a VP8X chunk first when there are several chunks).
 */
function assertContainer(format: 'jpeg' | 'png' | 'webp' | 'gif', bytes: Buffer): void {
  if (format === 'png') {
    let at = 8;
    let last = '';
    while (at < bytes.length) {
      const len = bytes.readUInt32BE(at);
      last = bytes.toString('latin1', at + 4, at + 8);
      expect(bytes.readUInt32BE(at + 8 + len), `CRC of ${last}`).toBe(zlib.crc32(bytes.subarray(at + 4, at + 8 + len)));
      at += 12 + len;
    }
    expect([at, last]).toEqual([bytes.length, 'IEND']);
  }
  if (format === 'webp') {
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    const types: string[] = [];
    let at = 12;
    while (at < bytes.length) {
      types.push(bytes.toString('latin1', at, at + 4));
      const size = bytes.readUInt32LE(at + 4);
      at += 8 + size + (size & 1);
    }
    expect(at).toBe(bytes.length);
    if (types.length > 1) expect(types[0]).toBe('VP8X');
  }
}

const EXT = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif' } as const;

describe('makeImage -> mediaInfo', () => {
  for (const format of ['jpeg', 'png', 'webp', 'gif'] as const) {
    for (const [width, height] of [[64, 48], [33, 17], [1080, 1350]]) {
      it(`${format} ${width}x${height}: exact format and size`, () => {
        const info = mediaInfo(makeImage({ format, width, height }));
        expect(info).toEqual({ format, width, height, ...(format === 'gif' || format === 'webp' ? { frames: 1 } : {}) });
      });
    }

    it(`${format}: minBytes pads to at least that size and the file stays valid`, () => {
      const plain = makeImage({ format, width: 40, height: 30 });
      for (const minBytes of [plain.length + 1, plain.length + 5, 200_000, 1_000_001]) {
        const padded = makeImage({ format, width: 40, height: 30, minBytes });
        expect(padded.length).toBeGreaterThanOrEqual(minBytes);
        expect(padded.length).toBeLessThan(minBytes + 300);
        expect(mediaInfo(padded)).toEqual(mediaInfo(plain));
        assertDecodes(padded, `p.${EXT[format]}`);
        assertContainer(format, padded);
      }
      // Already big enough: unchanged.
      expect(makeImage({ format, width: 40, height: 30, minBytes: 10 }).equals(plain)).toBe(true);
    });
  }

  it('GIF frame counts are exact, on both sides of LinkedIn\'s 250-frame limit', () => {
    for (const frames of [2, 7, 250, 251]) {
      const gif = makeImage({ format: 'gif', width: 24, height: 16, frames });
      expect(mediaInfo(gif)).toEqual({ format: 'gif', width: 24, height: 16, frames });
      expect(mediaInfo(makeImage({ format: 'gif', width: 24, height: 16, frames, minBytes: gif.length + 70_000 })).frames).toBe(frames);
    }
  });

  it('counts GIF frames with local colour tables and extensions', () => {
    const gif = ffmpegGenerate('l.gif', [
      '-f', 'lavfi', '-i', 'testsrc=size=50x40:rate=10', '-frames:v', '9',
      '-filter_complex', 'split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1', '-loop', '0',
    ]);
    // paletteuse new=1 gives every frame its own local colour table (and the colour bytes hold many 0x2C, which a byte scan would count).
    expect(mediaInfo(gif)).toEqual({ format: 'gif', width: 50, height: 40, frames: 9 });
    // Truncated: the images before the damage.
    expect(gifFrames(gif.subarray(0, Math.floor(gif.length / 2)))).toBeLessThan(9);
  });

  it('caches per option set and hands out copies', () => {
    const a = makeImage({ format: 'png', width: 20, height: 20 });
    a.fill(0);
    const b = makeImage({ format: 'png', width: 20, height: 20 });
    expect(mediaInfo(b)).toEqual({ format: 'png', width: 20, height: 20 });
  });
});

describe('mediaInfo', () => {
  it('other still formats: bmp, tiff', () => {
    for (const [format, name] of [['bmp', 'x.bmp'], ['tiff', 'x.tiff']] as const) {
      const bytes = ffmpegGenerate(name, ['-f', 'lavfi', '-i', 'testsrc=size=70x50', '-frames:v', '1']);
      expect(mediaInfo(bytes)).toEqual({ format, width: 70, height: 50 });
    }
  });

  it('animated WebP: frames from its ANMF chunks', () => {
    const bytes = ffmpegGenerate('a.webp', ['-f', 'lavfi', '-i', 'testsrc=size=30x20:rate=10', '-frames:v', '6', '-c:v', 'libwebp_anim', '-loop', '0']);
    expect(mediaInfo(bytes)).toEqual({ format: 'webp', width: 30, height: 20, frames: 6 });
  });

  it('MP4: duration from mvhd, size from the video track', () => {
    const mp4 = makeVideo({ seconds: 3, width: 320, height: 240 });
    const info = mediaInfo(mp4);
    expect(info).toMatchObject({ format: 'mp4', width: 320, height: 240 });
    expect(info.durationSeconds).toBeCloseTo(3, 1);
    expect(mp4DurationSeconds(mp4)).toBe(info.durationSeconds);
    // No audio, other size.
    const silent = mediaInfo(makeVideo({ seconds: 1, width: 176, height: 144, audio: false }));
    expect(silent).toMatchObject({ format: 'mp4', width: 176, height: 144 });
    expect(silent.durationSeconds).toBeCloseTo(1, 1);
  });

  it('MOV by its qt brand; WebM by its EBML DocType', () => {
    const mov = ffmpegGenerate('v.mov', ['-f', 'lavfi', '-i', 'testsrc=duration=2:size=160x90:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']);
    const info = mediaInfo(mov);
    expect(info).toMatchObject({ format: 'mov', width: 160, height: 90 });
    expect(info.durationSeconds).toBeCloseTo(2, 1);
    expect(mediaInfo(makeVideo({ seconds: 1, format: 'webm', width: 64, height: 48 }))).toEqual({ format: 'webm' });
    // Matroska that is not WebM.
    const mkv = ffmpegGenerate('v.mkv', ['-f', 'lavfi', '-i', 'testsrc=duration=1:size=64x48:rate=5', '-c:v', 'mjpeg']);
    expect(mediaInfo(mkv)).toEqual({ format: 'unknown' });
  });

  it('mvhd version 1 (64-bit duration) and an unknown duration', () => {
    const ftyp = box('ftyp', Buffer.from('isom\0\0\0\0isom', 'latin1'));
    const v1 = Buffer.alloc(4 + 8 + 8 + 4 + 8);
    v1[0] = 1;
    v1.writeUInt32BE(1000, 20);
    v1.writeBigUInt64BE(90_500n, 24);
    expect(mediaInfo(Buffer.concat([ftyp, box('moov', box('mvhd', v1))]))).toEqual({ format: 'mp4', durationSeconds: 90.5 });
    const unknown = Buffer.alloc(20);
    unknown.writeUInt32BE(600, 12);
    unknown.writeUInt32BE(0xffffffff, 16);
    expect(mediaInfo(Buffer.concat([ftyp, box('moov', box('mvhd', unknown))]))).toEqual({ format: 'mp4' });
    // A header and nothing else.
    expect(mediaInfo(ftyp)).toEqual({ format: 'mp4' });
  });

  it('unknown and damaged input never throws', () => {
    expect(mediaInfo(Buffer.alloc(0))).toEqual({ format: 'unknown' });
    expect(mediaInfo(Buffer.from('hello, world'))).toEqual({ format: 'unknown' });
    expect(mediaInfo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'))).toEqual({ format: 'unknown' });
    const png = makeImage({ format: 'png', width: 10, height: 10 });
    expect(mediaInfo(png.subarray(0, 10))).toEqual({ format: 'unknown' });
    const mp4 = makeVideo({ seconds: 1 });
    for (const n of [12, 40, 1000]) expect(() => mediaInfo(mp4.subarray(0, n))).not.toThrow();
  });
});
