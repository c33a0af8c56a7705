/**
 * Bluesky's limits and capabilities under the adapter's names. The rules themselves are in the
 * shared rule table (src/shared/rules/bluesky.ts, used by the composer too).
 */
import type { PlatformCapabilities } from '../types.ts';
import {
  BLUESKY_DOCS_URL, BLUESKY_MAX_IMAGE_BYTES as MAX_IMAGE_BYTES, BLUESKY_MAX_IMAGES as MAX_IMAGES, BLUESKY_MAX_LANGS as MAX_LANGS, capabilitiesOf,
} from '../../shared/capabilities.ts';

export { BLUESKY_DOCS_URL, MAX_IMAGE_BYTES, MAX_IMAGES, MAX_LANGS };

/** Bluesky capabilities. */
export const BLUESKY_CAPABILITIES: PlatformCapabilities = Object.freeze(capabilitiesOf('bluesky'));
