/**
 * Media bytes for adapters: files Herald stores itself are read from storage directly;
 * any other URL goes through the SSRF guard.
 */
import { AdapterError, type MediaRef } from '../platforms/types.ts';
import { FetchBlockedError, guardedFetch } from '../net/ssrf.ts';
import type { MediaStorage } from '../storage/media-storage.ts';

export async function fetchGuarded(storage: MediaStorage, item: MediaRef, maxBytes: number, opts: { allowPrivate: boolean }): Promise<{ bytes: Buffer; mimeType: string }> {
  const local = await storage.readByUrl(item.url, maxBytes).catch((err: Error) => {
    throw new AdapterError('rejected', err.message);
  });
  if (local) return { bytes: local.bytes, mimeType: local.mimeType };
  try {
    const r = await guardedFetch(item.url, { maxBytes, allowPrivate: opts.allowPrivate });
    return { bytes: r.bytes, mimeType: item.mimeType ?? r.contentType };
  } catch (err) {
    if (err instanceof FetchBlockedError) throw new AdapterError('rejected', `Media ${item.url}: ${err.message}`);
    throw new AdapterError('transient', `Media ${item.url} could not be downloaded: ${(err as Error).message}`);
  }
}
