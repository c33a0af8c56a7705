/**
 * The media work behind YouTube's `prepare` and `commit`: the video's duration, the thumbnail
 * (fetched and checked by its magic bytes), and the resumable upload session
 * (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol): chunk PUTs,
 * `bytes * /total` probes, and resuming from the offset the session reports.
 */
import { AdapterError, type AdapterContext } from '../types.ts';
import { mapGoogleError } from './google.ts';
import type { VideoResource, YouTubeApi, YouTubeOptions, YouTubePrepared } from './model.ts';
import { guardVisibleCall } from '../call-guard.ts';

/** Detects JPEG, PNG and GIF by their magic bytes. */
export function imageTypeOf(b: Buffer): 'image/jpeg' | 'image/png' | 'image/gif' | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  return null;
}

/** A video's duration and displayed pixel size from the publisher's ffprobe (AdapterContext.probeMedia), when it has one. */
export async function probeVideo(ctx: AdapterContext, bytes: Buffer, mimeType: string): Promise<{ durationSeconds?: number; width?: number; height?: number } | undefined> {
  return ctx.probeMedia?.(bytes, mimeType.startsWith('video/') ? mimeType : 'video/mp4');
}

/** One PUT to the session. Returns the video when done, else the next offset. @throws AdapterError (transient on network failure). */
export async function putSession(token: string, sessionUri: string, body: Buffer | null, from: number, total: number): Promise<{ done: VideoResource } | { next: number }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body) {
    headers['content-range'] = `bytes ${from}-${from + body.length - 1}/${total}`;
    headers['content-type'] = 'application/octet-stream';
  } else {
    headers['content-range'] = `bytes */${total}`;
  }
  let res: Response;
  const fence = await guardVisibleCall('PUT', 10 * 60_000);
  try {
    res = await fetch(sessionUri, { ...fence, method: 'PUT', headers, body: body ?? undefined, redirect: 'manual', signal: AbortSignal.timeout(10 * 60_000) });
  } catch (err) {
    throw new AdapterError('transient', `YouTube upload: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`);
  }
  const text = await res.text().catch(() => '');
  if (res.status === 308) {
    const range = /bytes=0-(\d+)/.exec(res.headers.get('range') ?? '');
    return { next: range ? Number(range[1]) + 1 : 0 };
  }
  let parsed: unknown;
  try { parsed = text ? JSON.parse(text) : {}; } catch { parsed = { error: { message: text.slice(0, 300) } }; }
  if (res.status === 200 || res.status === 201) return { done: parsed as VideoResource };
  if (res.status === 404 || res.status === 410) {
    throw new AdapterError('transient', 'YouTube upload session expired or not found', { status: res.status, platformCode: 'sessionExpired' });
  }
  throw mapGoogleError(res.status, parsed, res.headers, 'YouTube upload');
}

/**
 * Sends bytes [from, until) (until = total completes the upload), resuming from the session's
 * reported offset after a failed PUT.
 */
export async function sendBytes(ctx: AdapterContext, api: YouTubeApi, opts: Pick<Required<YouTubeOptions>, 'chunkBytes' | 'maxResumes'>, p: Pick<YouTubePrepared, 'sessionUri' | 'totalBytes'>, bytes: Buffer, from: number, until: number, probeFirst = false): Promise<VideoResource | null> {
  let offset = from;
  let failures = 0;
  let probe = probeFirst;
  for (;;) {
    if (!probe && offset >= until) return null;
    try {
      const r = await api.call((token) => (probe
        ? putSession(token, p.sessionUri, null, 0, p.totalBytes)
        : putSession(token, p.sessionUri, bytes.subarray(offset, Math.min(until, offset + opts.chunkBytes)), offset, p.totalBytes)));
      probe = false;
      if ('done' in r) return r.done;
      if (r.next > until) throw new AdapterError('transient', `YouTube upload session holds ${r.next} bytes, more than expected (${until})`);
      if (r.next > offset) failures = 0; // progress; a probe alone does not reset the count
      offset = r.next;
    } catch (err) {
      if (!(err instanceof AdapterError) || err.kind !== 'transient' || err.opts.platformCode === 'sessionExpired' || ++failures > opts.maxResumes) throw err;
      ctx.log('youtube: upload chunk failed; asking the session where to resume', { offset, error: err.message });
      probe = true;
    }
  }
}

/** Fetches and checks the thumbnail. @throws AdapterError rejected naming the rule. */
export async function fetchThumbnail(ctx: AdapterContext, url: string, max: number): Promise<{ bytes: Buffer; mimeType: 'image/jpeg' | 'image/png' }> {
  let got;
  try {
    got = await ctx.fetchMedia({ type: 'image', url }, max + 1);
  } catch (err) {
    if (err instanceof AdapterError && err.kind === 'rejected' && /large|exceed|limit|bytes/i.test(err.message)) {
      throw new AdapterError('rejected', `The YouTube thumbnail is larger than ${max / 1024 / 1024} MB [rule youtube.thumbnail.max_bytes]`);
    }
    throw err;
  }
  if (got.bytes.length > max) throw new AdapterError('rejected', `The YouTube thumbnail is ${got.bytes.length} bytes; the limit is ${max / 1024 / 1024} MB [rule youtube.thumbnail.max_bytes]`);
  const type = imageTypeOf(got.bytes);
  // thumbnails.set accepts image/jpeg and image/png (https://developers.google.com/youtube/v3/docs/thumbnails/set).
  if (type !== 'image/jpeg' && type !== 'image/png') throw new AdapterError('rejected', `The YouTube thumbnail is not a JPEG or PNG image${type ? ` (it is ${type})` : ''} [rule youtube.thumbnail.type]`);
  return { bytes: got.bytes, mimeType: type };
}
