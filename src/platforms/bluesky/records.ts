/**
 * The shapes the Bluesky adapter builds and stores: blob refs, embeds, `app.bsky.feed.post`
 * records and the prepared value handed from `prepare` to `commit`/`verify`.
 */
import type { Facet } from './richtext.ts';

/** The collection every post record lives in. */
export const POST_COLLECTION = 'app.bsky.feed.post';

/** A blob reference as returned by `com.atproto.repo.uploadBlob` (JSON form). */
export interface BlobRefJson {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  /** Bytes. */
  size: number;
}

export interface BlueskyImagesEmbed {
  $type: 'app.bsky.embed.images';
  images: Array<{ image: BlobRefJson; alt: string; aspectRatio?: { width: number; height: number } }>;
}

export interface BlueskyExternalEmbed {
  $type: 'app.bsky.embed.external';
  external: { uri: string; title: string; description: string };
}

/** An `app.bsky.feed.post` record as prepared (the `reply` ref is added at commit, once parent CIDs are known). */
export interface BlueskyPostRecord {
  $type: 'app.bsky.feed.post';
  text: string;
  /** ISO 8601 UTC; thread items are 1 ms apart so they sort in order. */
  createdAt: string;
  facets?: Facet[];
  embed?: BlueskyImagesEmbed | BlueskyExternalEmbed;
  langs?: string[];
}

/**
 * What `prepare` hands to `commit`/`verify` (JSON, stored on the attempt row).
 * - `did`/`handle`: the account the records belong to.
 * - `posts`: one per post, in thread order (index 0 = root); `rkey` is the pre-generated TID record
 *   key, `record` the full record minus `reply`. Images are already uploaded (blob refs inside).
 * - `thread`: whether the request was a thread (the result then lists every item).
 */
export interface BlueskyPrepared {
  version: 1;
  did: string;
  handle: string;
  thread: boolean;
  posts: Array<{ rkey: string; record: BlueskyPostRecord }>;
}

/** A record's `at://` URI and CID (`com.atproto.repo.strongRef`). */
export interface StrongRef {
  uri: string;
  cid: string;
}
