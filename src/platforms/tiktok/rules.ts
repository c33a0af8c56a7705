/**
 * TikTok's posting rules and settings: the rules themselves live in the shared rule table
 * (src/shared/rules/tiktok.ts, used by the composer too); this module gives the adapter its
 * names for them, the privacy level picked against the creator's options, capabilities and
 * limit constants (re-exported for callers).
 */
import { AdapterError, type PlatformCapabilities, type PublishRequest, type RuleViolation } from '../types.ts';
import type { TikTokCreatorInfo } from './oauth.ts';
import type { TikTokOptions } from './model.ts';
import {
  capabilitiesOf, TIKTOK_PHOTO_DESCRIPTION_MAX, TIKTOK_PHOTO_MAX_BYTES, TIKTOK_PHOTO_MAX_ITEMS, TIKTOK_VIDEO_CAPTION_MAX,
} from '../../shared/capabilities.ts';
import { TIKTOK_COMMERCIAL_TYPES, TIKTOK_PRIVACY_LEVELS, tiktokRules, tiktokSettingsOf } from '../../shared/rules/tiktok.ts';

export { TIKTOK_COMMERCIAL_TYPES, TIKTOK_PRIVACY_LEVELS, tiktokSettingsOf };

/** The limits live in src/shared/capabilities.ts (shared with the composer). */
export { TIKTOK_PHOTO_DESCRIPTION_MAX, TIKTOK_PHOTO_MAX_BYTES, TIKTOK_PHOTO_MAX_ITEMS, TIKTOK_VIDEO_CAPTION_MAX };
export const TIKTOK_DEFAULT_COVER_MS = 1000;
export const MB = 1024 * 1024;

export const TIKTOK_CAPABILITIES: PlatformCapabilities = capabilitiesOf('tiktok');

/** The settings of one TikTok target, normalised to TikTok's snake_case names. */
export interface TikTokSettings {
  privacy_level?: string;
  allow_comment?: boolean;
  allow_duet?: boolean;
  allow_stitch?: boolean;
  commercial_content_type?: string;
  brand_partner_promote?: boolean;
  is_brand_organic_post?: boolean;
  content_preview_confirmed?: boolean;
  express_consent_given?: boolean;
  video_made_with_ai?: boolean;
  video_cover_timestamp_ms?: number;
  photo_cover_index?: number;
  auto_add_music?: boolean;
  description?: string;
  draft?: boolean;
  disable_comment?: boolean;
  disable_duet?: boolean;
  disable_stitch?: boolean;
  media_type?: string;
  video_source?: string;
}

/** All rule violations of `req` for TikTok (the shared table, with the adapter's options as limits). */
export function validateTikTok(req: PublishRequest, opts: Pick<Required<TikTokOptions>, 'rejectPngPhotos' | 'maxVideoBytes'>): RuleViolation[] {
  return tiktokRules.check(req, { rejectPngPhotos: opts.rejectPngPhotos, maxVideoBytes: opts.maxVideoBytes });
}

/** Picks and checks the privacy level against the creator's options. @throws AdapterError rejected naming the rule. */
export function privacyFor(s: Record<string, unknown>, creator: TikTokCreatorInfo, req: PublishRequest): string {
  const allowed = creator.privacyLevelOptions;
  const brand = s.commercial_content_type === 'brand_content';
  const refuse = (rule: string, message: string) => new AdapterError('rejected', `${message} [rule ${rule}]`, { platformCode: rule });
  if (typeof s.privacy_level === 'string') {
    if (!allowed.includes(s.privacy_level)) throw refuse('tiktok.privacy_level.option', `This TikTok creator allows privacy_level ${allowed.join(', ') || '(none)'}, not ${s.privacy_level}`);
    return s.privacy_level;
  }
  const candidates = brand ? allowed.filter((p) => p !== 'SELF_ONLY') : allowed;
  if (candidates.length === 0) {
    throw brand
      ? refuse('tiktok.commercial.brand_content_not_private', `Branded content cannot be SELF_ONLY, and this TikTok creator only allows ${allowed.join(', ') || '(none)'}`)
      : refuse('tiktok.privacy_level.option', 'This TikTok creator has no privacy level available for posting');
  }
  if (req.visibility === 'private' && candidates.includes('SELF_ONLY')) return 'SELF_ONLY';
  return candidates.includes('PUBLIC_TO_EVERYONE') ? 'PUBLIC_TO_EVERYONE' : candidates[0];
}
