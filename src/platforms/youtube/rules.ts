/**
 * YouTube's posting rules live in the shared rule table (src/shared/rules/youtube.ts, used by the
 * composer too); this module gives the adapter its names for them and adds the one rule that
 * needs the post's schedule (which the composer's rule check does not see): a future post can
 * only be scheduled public. Capabilities and limit constants are re-exported for callers.
 */
import type { PlatformCapabilities, PublishRequest, RuleViolation } from '../types.ts';
import {
  capabilitiesOf, YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES,
} from '../../shared/capabilities.ts';
import { fitYouTubeTagCount, isYouTubeShort, noAngles, privacyOf, str, titleOf, youtubeRules, youtubeTags } from '../../shared/rules/youtube.ts';
import type { YouTubeOptions } from './model.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer and the bulk CSV). */
export {
  YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES,
};
export { fitYouTubeTagCount, isYouTubeShort, noAngles, privacyOf, str, titleOf, youtubeTags };

export const YOUTUBE_CAPABILITIES: PlatformCapabilities = capabilitiesOf('youtube');

/**
 * True when `scheduledFor` is far enough ahead to hand to YouTube as publishAt (which must be in
 * the future). The posts service runs such targets at once when the time is over a minute ahead,
 * so the worker has 45 seconds of slack before this gives up and publishes directly.
 */
export const isAhead = (at: Date | undefined, now = Date.now()) => !!at && at.getTime() > now + 15_000;

/**
 * All rule violations of `req` for YouTube (no network call): the shared table with the
 * adapter's limits, and `youtube.schedule.public_only` (publishAt can only make a video public,
 * https://developers.google.com/youtube/v3/docs/videos#status.publishAt).
 */
export function validateYouTube(req: PublishRequest, opts: Pick<Required<YouTubeOptions>, 'maxVideoBytes' | 'shortMaxSeconds'>): RuleViolation[] {
  const out = youtubeRules.check(req, { maxVideoBytes: opts.maxVideoBytes, shortMaxSeconds: opts.shortMaxSeconds });
  if (isAhead(req.scheduledFor, Date.now() + 45_000) && privacyOf(req) === 'unlisted') {
    out.push({
      field: 'platformSpecificData.visibility', rule: 'youtube.schedule.public_only',
      message: 'YouTube can only schedule a video to become public (it is uploaded private with publishAt); publish an unlisted video now, or schedule it as public',
    });
  }
  return out;
}
