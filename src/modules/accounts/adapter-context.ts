/**
 * The one place an account row becomes what an adapter is given: the account with its
 * credentials opened ({@link AccountContext}) and the hooks ({@link AdapterContext}) whose
 * credential writes go to the accounts repository. Callers that publish add media reading
 * (and ffprobe); account calls outside publishing read no media.
 */
import { AdapterError, type AccountContext, type AdapterContext } from '../../platforms/types.ts';
import type { AccountRow, AccountsRepository } from './repository.ts';

export interface AdapterContextOptions {
  /** Reads a media item's bytes; by default media cannot be read in this call. */
  fetchMedia?: AdapterContext['fetchMedia'];
  /** ffprobe on fetched bytes, for media without stored metadata. */
  probeMedia?: AdapterContext['probeMedia'];
  log?: AdapterContext['log'];
  /** Store the expiry a refresh answered even when it is null (the token refresh job). */
  replaceExpiry?: boolean;
}

const noMedia: AdapterContext['fetchMedia'] = () => Promise.reject(new AdapterError('rejected', 'no media in this call'));

/** Builds the adapter's view of `row` and the context whose saveCredentials persists to it. */
export function adapterContextFor(
  accounts: AccountsRepository,
  row: Pick<AccountRow, 'id' | 'platform_user_id' | 'username' | 'credentials' | 'settings'>,
  opts: AdapterContextOptions = {},
): { account: AccountContext; ctx: AdapterContext } {
  const account: AccountContext = {
    id: row.id, platformUserId: row.platform_user_id, username: row.username,
    credentials: accounts.credentialsOf(row), settings: row.settings ?? {},
  };
  const ctx: AdapterContext = {
    saveCredentials: (credentials, tokenExpiresAt) => accounts.saveCredentials(row.id, credentials, tokenExpiresAt, { replaceExpiry: opts.replaceExpiry }),
    fetchMedia: opts.fetchMedia ?? noMedia,
    ...(opts.probeMedia ? { probeMedia: opts.probeMedia } : {}),
    log: opts.log ?? (() => {}),
  };
  return { account, ctx };
}
