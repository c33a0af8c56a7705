/**
 * The shapes of Herald's platform rule table (docs/decisions/0026-one-rule-table.md): what a
 * post looks like to a rule, what a broken rule reports, and how a platform's rules are
 * documented. Pure: the server (adapters' `validate`, the API's 400s), the web composer, the
 * docs page and the tests all read the same table.
 */
import type { PlatformId } from '../platforms.ts';

/** Media item as stored on a post (`mediaItems[]`). `url` is absolute. */
export interface MediaRef {
  type: 'image' | 'video' | 'gif' | 'document';
  url: string;
  filename?: string;
  /** MIME type, e.g. `image/jpeg` (the stored file's, for Herald uploads). */
  mimeType?: string;
  /** Bytes. */
  size?: number;
  /** Alt text, when given. */
  altText?: string;
  thumbnail?: string;
  instagramThumbnail?: string;
  /** From ffprobe when the file was uploaded to Herald (or probed from its URL): seconds. */
  durationSeconds?: number;
  /** Displayed pixel size (rotation applied), when known. */
  width?: number;
  height?: number;
  /** Frames of an animated image (GIF), when known. */
  frames?: number;
  videoCodec?: string;
  audioCodec?: string;
}

/** One item of a thread (`platformSpecificData.threadItems[]`). Only the first item carries media. */
export interface ThreadItem {
  content: string;
  mediaItems?: MediaRef[];
}

/**
 * A post as one platform's rules see it: the target's text (customContent or the post's
 * content), media, thread items and platform options. Adapters get a `PublishRequest`, which
 * is a RulePost with more fields.
 */
export interface RulePost {
  text: string;
  mediaItems: MediaRef[];
  /** When non-empty, the post is a thread; item 0 is the root (its text replaces `text`). */
  threadItems: ThreadItem[];
  platformSpecificData: Record<string, unknown>;
  tags?: string[];
  visibility?: 'public' | 'private' | 'unlisted';
  /** The scheduled instant (UTC), when the post is scheduled (YouTube's publishAt rule reads it). */
  scheduledFor?: Date;
  /**
   * The connected account's settings (default subreddit, default board, cached creator or
   * subreddit rules, ...). Absent: rules that depend on them are not checked here.
   */
  accountSettings?: Record<string, unknown>;
}

/** One broken rule, found before publishing. `field` is relative to the target (e.g. `content`, `mediaItems.2`). */
export interface RuleViolation {
  field: string;
  /** The rule's id in its platform's table, e.g. `instagram.image.format`. */
  rule: string;
  message: string;
}

/**
 * One row of a platform's rule table, as the docs page lists it.
 * `source`: the platform's official page that states the rule (or, for a rule of Herald's own
 * making, the decision record under docs/decisions/ that explains it).
 */
export interface RuleDoc {
  id: string;
  /** One sentence a user reads: what is allowed, with the numbers. */
  summary: string;
  source: string;
}

/**
 * One platform's rules: the documented table and the check that enforces it. `check` takes the
 * limits an adapter may override (its options; defaults are the platform's documented figures)
 * and returns every violation, each naming a rule of `rules`.
 */
export interface PlatformRuleSet<L = Record<string, never>> {
  platform: PlatformId;
  rules: readonly RuleDoc[];
  /**
   * Keys of the account's settings the check reads that the platform stated about the account
   * (Mastodon's instance limits, `mastodonInstance`): the account view shows them as
   * `ruleSettings`, so the composer checks a post with them as the server does.
   */
  accountSettingKeys?: readonly string[];
  /**
   * How the platform counts the post's tags, where it keeps fewer than Herald's own tag rules
   * (decision 0023): `field`, the platformSpecificData key whose tags replace the post's on this
   * platform; `fit`, the tags the platform keeps (a prefix of the list); `why`, the platform's count
   * in words, for the warning that names the tags left out.
   */
  tags?: { field: string; fit(tags: string[]): string[]; why: string };
  check(post: RulePost, limits?: Partial<L>): RuleViolation[];
}
