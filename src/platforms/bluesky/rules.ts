/**
 * Bluesky's posting rules live in the shared rule table (src/shared/rules/bluesky.ts, used by
 * the composer too); this module gives the adapter its names for them.
 */
import type { PlatformCapabilities, PublishRequest, RuleViolation } from '../types.ts';
import {
  BLUESKY_DOCS_URL, BLUESKY_MAX_IMAGE_BYTES as MAX_IMAGE_BYTES, BLUESKY_MAX_IMAGES as MAX_IMAGES, BLUESKY_MAX_LANGS as MAX_LANGS, capabilitiesOf,
} from '../../shared/capabilities.ts';
import { blueskyRules, planBlueskyItems, type BlueskyLimits, type BlueskyPlannedItem } from '../../shared/rules/bluesky.ts';

export { BLUESKY_DOCS_URL, MAX_IMAGE_BYTES, MAX_IMAGES, MAX_LANGS };

/** Bluesky capabilities. */
export const BLUESKY_CAPABILITIES: PlatformCapabilities = Object.freeze(capabilitiesOf('bluesky'));

export type PlannedItem = BlueskyPlannedItem;
export const planItems = planBlueskyItems;

export function langsOf(req: PublishRequest): unknown {
  return req.platformSpecificData?.langs;
}

/** All rule violations of `req`, without any network call. Empty array = publishable. */
export function validateBluesky(req: PublishRequest, limits: Partial<BlueskyLimits> = {}): RuleViolation[] {
  return blueskyRules.check(req, limits);
}
