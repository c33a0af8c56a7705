/**
 * TikTok's FILE_UPLOAD transfer (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide):
 * the chunk plan for a file and the `Content-Range` PUT of one chunk to the upload URL.
 */
import { AdapterError } from '../types.ts';
import type { TikTokPrepared } from './model.ts';

/** Chunk plan for a file of `size` bytes. */
export function chunkPlan(size: number, chunkBytes: number, minChunkBytes: number): { chunkSize: number; chunkCount: number } {
  if (size < minChunkBytes) return { chunkSize: size, chunkCount: 1 };
  return { chunkSize: chunkBytes, chunkCount: Math.max(1, Math.floor(size / chunkBytes)) };
}

/** PUTs chunk `i` (the last one takes the leftover bytes). @throws AdapterError (network/5xx transient, else rejected). */
export async function putChunk(p: TikTokPrepared, bytes: Buffer, i: number): Promise<void> {
  const first = i * p.chunkSize!;
  const last = i === p.chunkCount! - 1 ? bytes.length - 1 : first + p.chunkSize! - 1;
  let res: Response;
  try {
    res = await fetch(p.uploadUrl!, {
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
