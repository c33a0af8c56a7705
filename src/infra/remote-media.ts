/**
 * Reads what a platform's image rules need (format, pixel size) from an image Herald did not
 * store, when a post names it by URL: the first bytes are fetched through the SSRF guard with a
 * Range request and parsed with `image-size`, so rules such as Instagram's JPEG-only and 4:5 to
 * 1.91:1 are checked when the post is created instead of failing at publish time.
 */
import { imageSize } from 'image-size';
import { LRUCache } from 'lru-cache';
import { guardedFetch } from './ssrf.ts';

/** What a header probe found: the image's media type by its bytes and its displayed pixel size. */
export interface RemoteImageInfo {
  mimeType: string;
  width: number;
  height: number;
}

/** Enough for the headers of every common format (JPEG's SOF can follow a large EXIF block). */
const PREFIX_BYTES = 256 * 1024;

const MIME: Record<string, string> = {
  jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', bmp: 'image/bmp', tiff: 'image/tiff', heif: 'image/heic', avif: 'image/avif',
};

/**
 * Probes an image URL's format and pixel size from its first 256 KB. Never throws: null when the
 * URL is refused by the guard, cannot be read within `timeoutMs`, or is not an image it can parse.
 * Width and height are as displayed (EXIF orientations 5-8 swap them).
 */
export async function probeRemoteImage(url: string, opts: { allowPrivate?: boolean; timeoutMs?: number } = {}): Promise<RemoteImageInfo | null> {
  try {
    const { bytes } = await guardedFetch(url, { maxBytes: PREFIX_BYTES, prefix: true, timeoutMs: opts.timeoutMs ?? 5_000, allowPrivate: opts.allowPrivate });
    const size = imageSize(new Uint8Array(bytes));
    const mimeType = size.type ? MIME[size.type] : undefined;
    if (!mimeType || !size.width || !size.height) return null;
    const swap = size.orientation !== undefined && size.orientation >= 5;
    return { mimeType, width: swap ? size.height : size.width, height: swap ? size.width : size.height };
  } catch {
    return null;
  }
}

/**
 * A {@link probeRemoteImage} that remembers each URL's answer (null included, so a dead host is
 * asked once, not once per bulk-upload row) for `ttlMs` (default 10 minutes), at most `max` URLs
 * (default 5,000), and asks once for concurrent requests of the same URL.
 */
export function createRemoteImageProber(opts: { allowPrivate?: boolean; timeoutMs?: number; ttlMs?: number; max?: number } = {}): (url: string) => Promise<RemoteImageInfo | null> {
  const cache = new LRUCache<string, { info: RemoteImageInfo | null }>({
    max: opts.max ?? 5_000,
    ttl: opts.ttlMs ?? 10 * 60_000,
    fetchMethod: async (url) => ({ info: await probeRemoteImage(url, opts) }),
  });
  return async (url) => (await cache.fetch(url))?.info ?? null;
}
