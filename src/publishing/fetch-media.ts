/**
 * Media bytes for adapters: files Herald stores itself are read from storage directly;
 * any other URL goes through the SSRF guard. Errors never carry server paths (they are
 * shown to users as the target's error message).
 */
import { AdapterError, type MediaRef } from '../platforms/types.ts';
import { FetchBlockedError, guardedFetch } from '../infra/ssrf.ts';
import { MediaReadError, type MediaStorage } from '../storage/media-storage.ts';
import { MEDIA_DOWNLOAD_ERROR_CODE, MEDIA_ERROR_CODE } from './failure-reasons.ts';

/** Marks a media failure as Herald's own finding (failure reason media_unusable, decision 0063). */
const MEDIA = { platformCode: MEDIA_ERROR_CODE } as const;

export async function fetchGuarded(storage: MediaStorage, item: MediaRef, maxBytes: number, opts: { allowPrivate: boolean }): Promise<{ bytes: Buffer; mimeType: string }> {
  const local = await storage.readByUrl(item.url, maxBytes).catch((err: unknown) => {
    // The message becomes the post target's error, shown to users: only MediaReadError
    // messages are written for that (no server paths); anything else gets a generic one.
    if (err instanceof MediaReadError) throw new AdapterError('rejected', `Media ${item.url}: ${err.message}`, MEDIA);
    throw new AdapterError('rejected', `Media ${item.url} could not be read from Herald's media storage`, MEDIA);
  });
  if (local) return { bytes: local.bytes, mimeType: local.mimeType };
  try {
    const r = await guardedFetch(item.url, { maxBytes, allowPrivate: opts.allowPrivate });
    return { bytes: r.bytes, mimeType: item.mimeType ?? r.contentType };
  } catch (err) {
    if (err instanceof FetchBlockedError) throw new AdapterError('rejected', `Media ${item.url}: ${err.message}`, MEDIA);
    throw new AdapterError('transient', `Media ${item.url} could not be downloaded: ${(err as Error).message}`, { platformCode: MEDIA_DOWNLOAD_ERROR_CODE });
  }
}
