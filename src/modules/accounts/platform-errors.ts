/**
 * The one translation of adapter failures ({@link AdapterError}) into the API errors account
 * routes answer. Two wordings exist and both are kept as they are:
 *
 * - account calls (Pinterest boards, the Reddit picker and read API): the platform's rate limit
 *   answers 429 RATE_LIMITED with retryAfterMs; a disconnected account 400 with
 *   needsReconnection; any other failure 502 PLATFORM_ERROR "<Label>: <message>".
 * - authorization calls ({@link AuthorizationWording}: LinkedIn organizations, Facebook Pages):
 *   a refused or expired authorization answers 400 in the caller's words; a refusal of the
 *   request 400 with the platform's message; anything else 502 "<Label> could not be reached".
 *
 * Connecting an account has its own answers ({@link connectErrorFrom}, {@link loginErrorFrom}):
 * a code or password the platform refuses is a validation error naming the field.
 */
import { AppError } from '../../core/errors.ts';
import { AdapterError } from '../../platforms/types.ts';

/** How an authorization call words a refused authorization. */
export interface AuthorizationWording {
  /** The platform id named in the error details. */
  platform: string;
  /** The 400 message when the platform refuses the authorization (`message` is the platform's). */
  refused(message: string): string;
}

/**
 * True when the failure means the account must be reconnected: 'disconnected', and for
 * authorization calls an expired token too (it was already refreshed once).
 */
export function needsReconnect(err: unknown, wording?: AuthorizationWording): boolean {
  if (!(err instanceof AdapterError)) return false;
  return err.kind === 'disconnected' || (wording !== undefined && err.kind === 'auth_expired');
}

/** Turns an adapter failure into the API error a route answers; anything else is returned as it is. */
export function apiErrorFrom(err: unknown, label: string, wording?: AuthorizationWording): unknown {
  if (!(err instanceof AdapterError)) return err;
  if (wording) {
    const details = { platform: wording.platform };
    if (needsReconnect(err, wording)) return new AppError('BAD_REQUEST', wording.refused(err.message), details);
    if (err.kind === 'rejected') return new AppError('BAD_REQUEST', err.message, details);
    return new AppError('PLATFORM_ERROR', `${label} could not be reached: ${err.message}`, details);
  }
  switch (err.kind) {
    case 'rate_limited':
      return new AppError('RATE_LIMITED', `${label} rate limit reached: ${err.message}`, { platform: label, retryAfterMs: err.opts.retryAfterMs ?? null });
    case 'disconnected':
      return new AppError('BAD_REQUEST', `${err.message}. Reconnect the account.`, { platform: label, needsReconnection: true });
    default:
      return new AppError('PLATFORM_ERROR', `${label}: ${err.message}`, { platform: label, platformStatus: err.opts.status ?? null });
  }
}

/**
 * An OAuth code exchange (or the identity and selection reads right after it) that failed:
 * 502 PLATFORM_ERROR when the platform could not be reached, otherwise 400 VALIDATION_ERROR
 * naming `code`. Anything but an adapter failure is returned as it is.
 */
export function connectErrorFrom(err: unknown, platform: string): unknown {
  if (!(err instanceof AdapterError)) return err;
  return new AppError(err.kind === 'transient' ? 'PLATFORM_ERROR' : 'VALIDATION_ERROR', `Connecting ${platform} failed: ${err.message}`,
    { fields: { code: [err.message] }, platform });
}

/**
 * An app-password or bot-token login that failed (connect shape `app-password`, Bluesky; `bot-token`, Telegram):
 * refused credentials are 400 VALIDATION_ERROR naming `appPassword` (or `who.field`, e.g. `botToken`) (with the shape's
 * `refusedField` text); any other adapter failure 502 PLATFORM_ERROR. Anything else is returned as it is.
 */
export function loginErrorFrom(err: unknown, who: { platform: string; label: string; refusedField: string; field?: string }): unknown {
  if (!(err instanceof AdapterError)) return err;
  if (err.kind === 'disconnected' || err.kind === 'rejected') {
    return new AppError('VALIDATION_ERROR', `${who.label} login failed: ${err.message}`, {
      fields: { [who.field ?? 'appPassword']: [who.refusedField] },
      platform: who.platform,
    });
  }
  return new AppError('PLATFORM_ERROR', `Could not reach ${who.label}: ${err.message}`, { platform: who.platform });
}
