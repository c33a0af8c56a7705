/**
 * Connecting Bluesky with an app password (`POST /v1/connect/bluesky/credentials`):
 * a real login to the account's PDS, then the account is stored under the profile
 * named by `state`. Wrong credentials answer 400 INVALID_CREDENTIALS and store nothing.
 */
import { fieldError } from '../../core/errors.ts';
import { isId } from '../../core/ids.ts';
import type { Services } from '../../services.ts';
import type { AuthContext } from '../auth/context.ts';
import { toAccountView, type StoredHook } from '../accounts/service.ts';
import { loginErrorFrom } from '../accounts/platform-errors.ts';

/** `state` is `{userId}-{profileId}` (the SDK's documented form) or a bare profile id. */
export function profileIdFromState(state: string): string {
  const last = state.trim().split('-').pop() ?? '';
  if (!isId(last)) throw fieldError('state', 'must be "{userId}-{profileId}" or a profile id');
  return last.toLowerCase();
}

function withQuery(url: string, params: Record<string, string>): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.toString();
  } catch {
    return undefined;
  }
}

export async function connectBlueskyWithCredentials(
  services: Services,
  auth: AuthContext,
  body: { identifier: string; appPassword: string; state: string; redirectUri?: string; redirect_url?: string },
  within?: StoredHook,
) {
  const profileId = profileIdFromState(body.state);
  await services.profiles.get(auth, profileId); // 404 before any login attempt
  let connected;
  try {
    connected = await services.adapters.connectBluesky(body.identifier.trim().replace(/^@/, ''), body.appPassword.trim());
  } catch (err) {
    throw loginErrorFrom(err);
  }
  const row = await services.accounts.upsertConnected(auth, profileId, 'bluesky', connected, within);
  const redirectTarget = body.redirect_url ?? body.redirectUri;
  const redirect = redirectTarget
    ? withQuery(redirectTarget, { connected: 'bluesky', profileId, username: row.username })
    : undefined;
  return { message: 'Bluesky account connected successfully', account: toAccountView(row), ...(redirect ? { redirect_url: redirect } : {}) };
}
