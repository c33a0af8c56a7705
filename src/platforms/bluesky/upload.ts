/**
 * Image uploads for Bluesky's `prepare`: fetches one image, checks its size and type, uploads
 * it with `com.atproto.repo.uploadBlob` and returns the `app.bsky.embed.images` entry.
 * Uploaded blobs are invisible until a record references them, so a retry is harmless.
 */
import { AdapterError, type AdapterContext, type MediaRef } from '../types.ts';
import type { BlobRefJson, BlueskyImagesEmbed } from './records.ts';
import { imageDimensions } from './media.ts';
import { MAX_IMAGE_BYTES } from './rules.ts';
import type { BlueskySession } from './session.ts';

/**
 * Fetches, checks and uploads one image (`field` names it in error messages).
 * @param timeoutMs the adapter's per-request timeout; the upload gets 4×.
 * @throws AdapterError('rejected') over the size limit or not image/*; 'transient' when the file cannot be read.
 */
export async function uploadImage(
  ctx: AdapterContext, session: BlueskySession, item: MediaRef, field: string, timeoutMs: number, maxBytes = MAX_IMAGE_BYTES,
): Promise<BlueskyImagesEmbed['images'][number]> {
  let media: { bytes: Buffer; mimeType: string };
  try {
    media = await ctx.fetchMedia(item, maxBytes);
  } catch (e) {
    if (e instanceof AdapterError) throw e;
    throw new AdapterError('transient', `Could not read ${field} (${item.url}): ${(e as Error)?.message ?? String(e)}`);
  }
  if (media.bytes.length > maxBytes) {
    throw new AdapterError(
      'rejected',
      `Bluesky images are limited to ${maxBytes.toLocaleString('en-US')} bytes (${field} has ${media.bytes.length.toLocaleString('en-US')})`,
      { platformCode: 'bluesky.image.max_bytes' },
    );
  }
  const mimeType = (media.mimeType || item.mimeType || '').toLowerCase();
  if (!mimeType.startsWith('image/')) {
    throw new AdapterError('rejected', `Bluesky images must be image/* (${field} is ${mimeType || 'of unknown type'})`, { platformCode: 'bluesky.media.type' });
  }
  const res = await session.call<{ blob: BlobRefJson }>('com.atproto.repo.uploadBlob', {
    bytes: media.bytes,
    contentType: mimeType,
    timeoutMs: timeoutMs * 4,
  });
  const dims = imageDimensions(media.bytes);
  return { image: res.blob, alt: item.altText ?? '', ...(dims ? { aspectRatio: dims } : {}) };
}
