/**
 * Connecting a platform whose connect shape is `app-password` (Bluesky):
 * `POST /v1/connect/{platform}/credentials` logs in with the identifier and app password (the
 * shape's `login`), then stores the account under the profile named by `state`. Credentials the
 * platform refuses answer 400 VALIDATION_ERROR naming `appPassword` and store nothing
 * (docs/decisions/0051-platform-connect-contract.md).
 */
import { AppError, fieldError } from '../../core/errors.ts';
import { isId } from '../../core/ids.ts';
import { PLATFORM_LABELS } from '../../shared/platforms.ts';
import type { AppPasswordShape, PlatformId } from '../../platforms/types.ts';
import type { Services } from '../../services.ts';
import type { AuthContext } from '../auth/context.ts';
import { toAccountView, type StoredHook } from '../accounts/service.ts';
import { loginErrorFrom } from '../accounts/platform-errors.ts';
import { redirectWith } from './redirect.ts';

/** `state` is `{userId}-{profileId}` (the SDK's documented form) or a bare profile id. @throws 400 (field state) otherwise. */
export function profileIdFromState(state: string): string {
  const last = state.trim().split('-').pop() ?? '';
  if (!isId(last)) throw fieldError('state', 'must be "{userId}-{profileId}" or a profile id');
  return last.toLowerCase();
}

/**
 * The app-password shape of `platform`.
 * @throws AppError BAD_REQUEST when the platform connects otherwise.
 */
export function appPasswordShape(services: Pick<Services, 'adapters'>, platform: PlatformId): AppPasswordShape {
  const shape = services.adapters.connectShape(platform);
  if (shape.kind !== 'app-password') throw new AppError('BAD_REQUEST', `${PLATFORM_LABELS[platform]} does not connect with an app password`, { platform });
  return shape;
}

/** The body of `POST /v1/connect/{platform}/credentials`. */
export interface CredentialsBody { identifier: string; appPassword: string; state: string; redirectUri?: string; redirect_url?: string }

/**
 * Logs in and stores the account. Answers `{ message, account, redirect_url? }` (redirect_url:
 * the caller's URL with connected, profileId and username). `within` runs in the transaction
 * storing the account (a platform invite's use).
 * @throws 404 for a profile the caller cannot see (before any login); 400 for refused
 *   credentials; 502 when the platform cannot be reached.
 */
export async function connectWithCredentials(services: Pick<Services, 'adapters' | 'accounts' | 'profiles'>, auth: AuthContext, platform: PlatformId, body: CredentialsBody, within?: StoredHook) {
  const shape = appPasswordShape(services, platform);
  const label = PLATFORM_LABELS[platform];
  const profileId = profileIdFromState(body.state);
  await services.profiles.get(auth, profileId); // 404 before any login attempt
  let connected;
  try {
    connected = await shape.login(body.identifier.trim(), body.appPassword.trim());
  } catch (err) {
    throw loginErrorFrom(err, { platform, label, refusedField: shape.refusedField });
  }
  const row = await services.accounts.upsertConnected(auth, profileId, platform, connected, within);
  const redirectTarget = body.redirect_url ?? body.redirectUri;
  const redirect = redirectTarget ? redirectWith(redirectTarget, { connected: platform, profileId, username: row.username }) : null;
  return { message: `${label} account connected successfully`, account: toAccountView(row), ...(redirect ? { redirect_url: redirect } : {}) };
}
