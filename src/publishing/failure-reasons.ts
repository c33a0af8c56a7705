/**
 * Which of Herald's failure reasons (src/shared/failure-categories.ts) an adapter's failure is,
 * where its kind alone does not tell: media Herald could not read or download (marked by
 * ./fetch-media.ts with {@link MEDIA_ERROR_CODE}), the platform's 5xx, and a platform Herald
 * could not reach at all.
 */
import type { AdapterError } from '../platforms/types.ts';
import type { FailureReason } from '../shared/failure-categories.ts';

/** `AdapterError.opts.platformCode` of a media URL Herald refused or could not read (not the platform's). */
export const MEDIA_ERROR_CODE = 'herald.media';
/** `AdapterError.opts.platformCode` of a media URL that could not be downloaded (may work later). */
export const MEDIA_DOWNLOAD_ERROR_CODE = 'herald.media.download';

/** True when the failure is one of the post's media, found by Herald before the platform saw it. */
export function isMediaError(ae: AdapterError): boolean {
  return ae.opts.platformCode === MEDIA_ERROR_CODE || ae.opts.platformCode === MEDIA_DOWNLOAD_ERROR_CODE;
}

/**
 * The reason of a failure Herald retries (kinds `transient` and `auth_expired`): the token, media
 * that did not download, a platform that answered (5xx or other) or one that was not reached.
 */
export function transientReason(ae: AdapterError): FailureReason {
  if (ae.kind === 'auth_expired') return 'token_expired';
  if (ae.opts.platformCode === MEDIA_DOWNLOAD_ERROR_CODE) return 'media_unreachable';
  return ae.opts.status !== undefined || ae.opts.platformCode !== undefined ? 'platform_unavailable' : 'network';
}
