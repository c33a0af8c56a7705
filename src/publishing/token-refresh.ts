/**
 * The token refresh job (issue: tokens are refreshed before they expire). Runs in every
 * worker under a try-lock, so one pass at a time across processes: accounts whose access
 * token expires within `marginMs` are refreshed through their platform's OAuth provider
 * and the new tokens stored sealed. A refused refresh (revoked or expired authorization)
 * marks the account inactive with the reason; its due posts then fail with a reconnect
 * message. Network failures are left for the next pass.
 */
import type { SecretBox } from '../core/crypto.ts';
import type { Db } from '../storage/db.ts';
import type { AdapterRegistry } from '../platforms/registry.ts';
import type { OAuthPlatform } from '../config.ts';
import { refreshAccountTokens } from '../platforms/oauth-session.ts';
import { AdapterError, type PlatformId } from '../platforms/types.ts';

const LOCK_KEY = 7_263_591_006;

export interface RefreshPassResult {
  refreshed: number;
  deactivated: number;
  failed: number;
}

export async function refreshExpiringTokens(deps: { db: Db; adapters: AdapterRegistry; secrets: SecretBox }, marginMs = 10 * 60_000): Promise<RefreshPassResult> {
  const { db, adapters, secrets } = deps;
  const out: RefreshPassResult = { refreshed: 0, deactivated: 0, failed: 0 };
  const client = await db.pool.connect();
  try {
    const { rows: lock } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LOCK_KEY]);
    if (!lock[0].ok) return out;
    try {
      const { rows } = await client.query<{ id: string; platform: PlatformId; platform_user_id: string; username: string; credentials: string; settings: Record<string, unknown> }>(
        `SELECT id, platform, platform_user_id, username, credentials, settings FROM accounts
          WHERE is_active AND token_expires_at IS NOT NULL AND token_expires_at < now() + make_interval(secs => $1)
            AND coalesce(settings->>'sandbox' = 'true', false) = $2
          ORDER BY token_expires_at LIMIT 200`, [marginMs / 1000, adapters.sandbox === true]);
      for (const a of rows) {
        const provider = adapters.oauthProvider(a.platform);
        if (!provider?.refresh) continue;
        const account = { id: a.id, platformUserId: a.platform_user_id, username: a.username, credentials: secrets.openJson<Record<string, unknown>>(a.credentials), settings: a.settings };
        try {
          const { app } = adapters.oauth(a.platform as OAuthPlatform);
          await refreshAccountTokens({
            saveCredentials: async (credentials, expiresAt) => {
              await db.query('UPDATE accounts SET credentials = $2, token_expires_at = $3, updated_at = now() WHERE id = $1',
                [a.id, secrets.sealJson(credentials), expiresAt ?? null]);
            },
            fetchMedia: async () => { throw new Error('not available during token refresh'); },
            log: () => {},
          }, account, provider, app);
          out.refreshed++;
        } catch (err) {
          if (err instanceof AdapterError && err.kind === 'disconnected') {
            await db.query('UPDATE accounts SET is_active = false, inactive_reason = $2, updated_at = now() WHERE id = $1', [a.id, err.message]);
            out.deactivated++;
          } else {
            out.failed++;
          }
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  } finally {
    client.release();
  }
  return out;
}
