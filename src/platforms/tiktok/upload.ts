/**
 * TikTok's FILE_UPLOAD transfer (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide):
 * the chunk plan for a file and the `Content-Range` PUT of one chunk to the upload URL.
 */
import { AdapterError } from '../types.ts';
import type { TikTokPrepared } from './model.ts';
import { guardVisibleCall } from '../call-guard.ts';

/** TikTok's chunk limits (media transfer guide): 5-64 MB per chunk, the last up to 128 MB, 1-1000 chunks. */
export const TIKTOK_MIN_CHUNK_BYTES = 5 * 1024 * 1024;
export const TIKTOK_MAX_CHUNK_BYTES = 64 * 1024 * 1024;
export const TIKTOK_MAX_CHUNKS = 1000;

/**
 * Chunk plan for a file of `size` bytes, as the media transfer guide
 * (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide) requires:
 * - under `minChunkBytes` (5 MB): one chunk of the file's own size;
 * - otherwise chunk_size = `chunkBytes` clamped to 5-64 MB and never more than the file (a file
 *   smaller than the preferred chunk goes whole, in one chunk of its size), and
 *   total_chunk_count = floor(size / chunk_size): the last chunk takes the remainder, so it
 *   may be larger than chunk_size (less than twice it, so at most 128 MB);
 * - a file over 64 MB always goes in at least 2 chunks, and never in more than 1,000 (the chunk
 *   grows instead).
 */
export function chunkPlan(size: number, chunkBytes: number, minChunkBytes = TIKTOK_MIN_CHUNK_BYTES, maxChunkBytes = TIKTOK_MAX_CHUNK_BYTES): { chunkSize: number; chunkCount: number } {
  if (size < minChunkBytes) return { chunkSize: size, chunkCount: 1 };
  let chunk = Math.min(Math.max(chunkBytes, minChunkBytes), maxChunkBytes, size);
  if (size > maxChunkBytes && Math.floor(size / chunk) < 2) chunk = Math.floor(size / 2);
  if (Math.floor(size / chunk) > TIKTOK_MAX_CHUNKS) chunk = Math.min(maxChunkBytes, Math.ceil(size / TIKTOK_MAX_CHUNKS));
  return { chunkSize: chunk, chunkCount: Math.floor(size / chunk) };
}

/** PUTs chunk `i` (the last one takes the leftover bytes). @throws AdapterError (network/5xx transient, else rejected). */
export async function putChunk(p: TikTokPrepared, bytes: Buffer, i: number): Promise<void> {
  const first = i * p.chunkSize!;
  const last = i === p.chunkCount! - 1 ? bytes.length - 1 : first + p.chunkSize! - 1;
  let res: Response;
  const fence = await guardVisibleCall('PUT', 5 * 60_000);
  try {
    res = await fetch(p.uploadUrl!, { ...fence,
      method: 'PUT', body: bytes.subarray(first, last + 1),
      headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${first}-${last}/${bytes.length}` },
      signal: AbortSignal.timeout(5 * 60_000),
    });
  } catch (err) {
    throw new AdapterError('transient', `TikTok upload of chunk ${i + 1}/${p.chunkCount} failed: ${(err as Error).message}`);
  }
  const text = await res.text();
  if (res.status === 201 || res.status === 206 || res.ok) return;
  let e: { error?: { code?: string; message?: string } } = {};
  try { e = JSON.parse(text); } catch { /* not JSON */ }
  const msg = `TikTok refused chunk ${i + 1}/${p.chunkCount}: ${e.error?.message ?? text.slice(0, 200) ?? `HTTP ${res.status}`}${e.error?.code ? ` (${e.error.code})` : ''}`;
  throw new AdapterError(res.status >= 500 || res.status === 429 ? 'transient' : 'rejected', msg, { status: res.status, platformCode: e.error?.code });
}
