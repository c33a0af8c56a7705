/**
 * YouTube's posting rules live in the shared rule table (src/shared/rules/youtube.ts, used by the
 * composer too); this module gives the adapter its names for them. Capabilities and limit
 * constants are re-exported for callers.
 */
import type { PlatformCapabilities, PublishRequest, RuleViolation } from '../types.ts';
import {
  capabilitiesOf, YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES,
} from '../../shared/capabilities.ts';
import { fitYouTubeTagCount, isAhead, isYouTubeShort, noAngles, privacyOf, str, titleOf, youtubeRules, youtubeTags } from '../../shared/rules/youtube.ts';
import type { YouTubeOptions } from './model.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer and the bulk CSV). */
export {
  YOUTUBE_DESCRIPTION_MAX_BYTES, YOUTUBE_FIRST_COMMENT_MAX, YOUTUBE_SHORT_MAX_SECONDS, YOUTUBE_TAG_MAX, YOUTUBE_TAGS_MAX_TOTAL,
  YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_TITLE_MAX, YOUTUBE_VIDEO_MAX_BYTES,
};
export { fitYouTubeTagCount, isAhead, isYouTubeShort, noAngles, privacyOf, str, titleOf, youtubeTags };

export const YOUTUBE_CAPABILITIES: PlatformCapabilities = capabilitiesOf('youtube');

/** All rule violations of `req` for YouTube (no network call): the shared table with the adapter's limits. */
export function validateYouTube(req: PublishRequest, opts: Pick<Required<YouTubeOptions>, 'maxVideoBytes' | 'shortMaxSeconds'>): RuleViolation[] {
  return youtubeRules.check(req, { maxVideoBytes: opts.maxVideoBytes, shortMaxSeconds: opts.shortMaxSeconds });
}
