/**
 * API keys: 32 random bytes shown once at creation, stored only as SHA-256, with
 * permissions and an optional expiry in days. A key creates keys only within its own
 * permissions and expiry (design rule: a key or grant hands on only a subset of itself); a dashboard session, which holds every permission and
 * is not a key, creates any.
 */
import { generateApiKey, hashApiKey, keyPreview } from '../../core/crypto.ts';
import { FieldErrorCollector, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { ALL_PERMISSIONS, type Permission } from '../../shared/permissions.ts';

interface KeyRow {
  id: string;
  name: string;
  key_preview: string;
  permissions: string[];
  expires_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
}

function toView(k: KeyRow) {
  return {
    id: k.id,
    _id: k.id,
    name: k.name,
    keyPreview: k.key_preview,
    permissions: k.permissions,
    /** The official client's form: "read" when every permission is a read permission. */
    permission: (k.permissions.every((p) => p.endsWith(':read')) ? 'read' : 'read-write') as 'read' | 'read-write',
    scope: 'full' as const,
    expiresAt: k.expires_at ? k.expires_at.toISOString() : null,
    createdAt: k.created_at.toISOString(),
    lastUsedAt: k.last_used_at ? k.last_used_at.toISOString() : null,
  };
}

/** What the caller creating a key holds: a new key may have no more (its permissions, its expiry; null: never). */
export interface KeyCreator {
  permissions: ReadonlySet<Permission>;
  expiresAt: Date | null;
}

const DAY_MS = 86_400_000;

/**
 * Refuses a key with more than its creator holds: a permission the creator lacks, or an expiry
 * later than the creator's (no expiry counts as the latest).
 * @throws AppError VALIDATION_ERROR naming `permissions` and/or `expiresIn`.
 */
function assertWithinCreator(creator: KeyCreator, perms: readonly Permission[], defaulted: boolean, expiresAt: Date | null, now: Date): void {
  const errs = new FieldErrorCollector();
  const missing = perms.filter((p) => !creator.permissions.has(p));
  if (missing.length > 0) {
    errs.add('permissions', `may only include permissions the API key making the request holds; it lacks ${missing.join(', ')}` +
      (defaulted ? ' (without "permissions" a new key gets every permission: list the ones it needs)' : ''));
  }
  const limit = creator.expiresAt;
  if (limit && (!expiresAt || expiresAt.getTime() > limit.getTime())) {
    const days = Math.floor((limit.getTime() - now.getTime()) / DAY_MS);
    errs.add('expiresIn', days >= 1
      ? `must be at most ${days} days: the API key making the request expires at ${limit.toISOString()}, and a key it creates may not outlive it`
      : `cannot be met: the API key making the request expires at ${limit.toISOString()}, in less than a day; create the key with a longer-lived one`);
  }
  errs.throwIfAny();
}

/** `onRevoke`: told the id of each key revoked, so this process's authentication forgets it at once. */
export function createApiKeysService(db: Db, clock: () => Date, deps: { onRevoke?: (keyId: string) => void } = {}) {
  return {
    async list(auth: AuthContext) {
      const { rows } = await db.query<KeyRow>(
        'SELECT * FROM api_keys WHERE user_id = $1 AND tenant_id = $2 AND revoked_at IS NULL ORDER BY created_at, id',
        [auth.userId, auth.tenantId],
      );
      return { apiKeys: rows.map(toView) };
    },

    /**
     * Creates a key for a user. `expiresInDays` null/undefined means no expiry; no (or an empty)
     * `permissions` means every permission. With `creator` (a request made with a key or a
     * session), the key may not hold more than the creator: see {@link KeyCreator}.
     * Returns the view plus `key`, the only time the key is shown.
     * @throws AppError VALIDATION_ERROR naming `permissions` or `expiresIn` when the key would exceed its creator.
     */
    async create(target: { tenantId: string; userId: string }, input: { name: string; permissions?: Permission[]; expiresInDays?: number | null }, creator?: KeyCreator) {
      const now = clock();
      const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null;
      const defaulted = !input.permissions || input.permissions.length === 0;
      const perms = defaulted ? ALL_PERMISSIONS : [...new Set(input.permissions)];
      if (creator) assertWithinCreator(creator, perms, defaulted, expiresAt, now);
      const key = generateApiKey();
      const id = newId();
      const { rows } = await db.query<KeyRow>(
        `INSERT INTO api_keys (id, tenant_id, user_id, name, key_hash, key_preview, permissions, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [id, target.tenantId, target.userId, input.name, hashApiKey(key), keyPreview(key), perms, expiresAt],
      );
      return { ...toView(rows[0]), key };
    },

    /** Revokes a key of the caller's; a foreign or unknown key is a 404. */
    async revoke(auth: AuthContext, keyId: string) {
      const { rowCount } = await db.query(
        'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND tenant_id = $3 AND revoked_at IS NULL',
        [keyId, auth.userId, auth.tenantId],
      );
      if (!rowCount) throw notFound('API key');
      deps.onRevoke?.(keyId);
      return { message: 'API key deleted successfully' };
    },
  };
}
