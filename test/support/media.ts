/**
 * Helpers for media tests: test videos generated with ffmpeg
 * (never committed), and the raw tus requests of the client-upload flow.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Generates a test video with ffmpeg's lavfi sources (testsrc picture, sine tone).
 * Returns its bytes. `audio: false` leaves the audio stream out.
 */
export function makeVideo(opts: { seconds?: number; width?: number; height?: number; rate?: number; audio?: boolean; format?: 'mp4' | 'webm' } = {}): Buffer {
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
