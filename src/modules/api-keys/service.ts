/**
 * API keys: 32 random bytes shown once at creation, stored only as SHA-256, with
 * permissions, an optional expiry in days and an optional profile scope (decision 0063). A key
 * creates keys only within its own permissions, expiry and profiles (design rule: a key or grant
 * hands on only a subset of itself); a dashboard session, which holds every permission and is not a
 * key, creates any.
 */
import { generateApiKey, hashApiKey, keyPreview } from '../../core/crypto.ts';
import { FieldErrorCollector, fieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { ALL_PERMISSIONS, type Permission } from '../../shared/permissions.ts';

interface KeyRow {
  id: string;
  name: string;
  key_preview: string;
  permissions: string[];
  profile_ids: string[] | null;
  /** The scoped profiles that still exist, with their names and colours (read with the key). */
  profiles: Array<{ _id: string; name: string; color: string | null }> | null;
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
    /** 'profiles': the key reaches only `profileIds` (decision 0063); 'full': every profile its user does. */
    scope: (k.profile_ids ? 'profiles' : 'full') as 'profiles' | 'full',
    ...(k.profile_ids ? { profileIds: (k.profiles ?? []).map((p) => ({ _id: p._id.trim(), name: p.name, color: p.color })) } : {}),
    expiresAt: k.expires_at ? k.expires_at.toISOString() : null,
    createdAt: k.created_at.toISOString(),
    lastUsedAt: k.last_used_at ? k.last_used_at.toISOString() : null,
  };
}

/**
 * What the caller creating a key holds: a new key may have no more (its permissions, its expiry,
 * null: never; its profiles, null or absent: every profile).
 */
export interface KeyCreator {
  permissions: ReadonlySet<Permission>;
  expiresAt: Date | null;
  profileIds?: readonly string[] | null;
}

/** A key's row with its scoped profiles' names and colours (profiles deleted since are left out). */
const SELECT_KEYS = `SELECT k.*, (SELECT json_agg(json_build_object('_id', p.id, 'name', p.name, 'color', p.color) ORDER BY array_position(k.profile_ids, p.id))
    FROM profiles p WHERE p.tenant_id = k.tenant_id AND p.id = ANY(k.profile_ids)) AS profiles FROM api_keys k`;

const DAY_MS = 86_400_000;

/**
 * Refuses a key with more than its creator holds: a permission the creator lacks, or an expiry
 * later than the creator's (no expiry counts as the latest).
 * @throws AppError VALIDATION_ERROR naming `permissions` and/or `expiresIn`.
 */
function assertWithinCreator(creator: KeyCreator, perms: readonly Permission[], defaulted: boolean, expiresAt: Date | null, profileIds: readonly string[] | null, now: Date): void {
  const errs = new FieldErrorCollector();
  const scope = creator.profileIds;
  if (scope) {
    if (!profileIds) errs.add('scope', 'must be "profiles" with profileIds: the API key making the request is limited to some profiles, and a key it creates may not reach more');
    else {
      const outside = profileIds.filter((p) => !scope.includes(p));
      if (outside.length > 0) errs.add('profileIds', `may only include profiles the API key making the request is limited to; it lacks ${outside.join(', ')}`);
    }
  }
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
    /** The caller's keys; a profile-scoped key sees only the keys within its own profiles. */
    async list(auth: AuthContext) {
      const { rows } = await db.query<KeyRow>(
        `${SELECT_KEYS} WHERE k.user_id = $1 AND k.tenant_id = $2 AND k.revoked_at IS NULL
            AND ($3::char(24)[] IS NULL OR (k.profile_ids IS NOT NULL AND k.profile_ids <@ $3::char(24)[]))
          ORDER BY k.created_at, k.id`,
        [auth.userId, auth.tenantId, auth.keyScope ? [...auth.keyScope.profileIds] : null],
      );
      return { apiKeys: rows.map(toView) };
    },

    /**
     * Creates a key for a user. `expiresInDays` null/undefined means no expiry; no (or an empty)
     * `permissions` means every permission. With `creator` (a request made with a key or a
     * session), the key may not hold more than the creator: see {@link KeyCreator}.
     * `profileIds` (non-empty) limits the key to those profiles of the tenant (decision 0063); absent
     * or null, it reaches every profile its user does.
     * Returns the view plus `key`, the only time the key is shown.
     * @throws AppError VALIDATION_ERROR naming `permissions`, `expiresIn`, `scope` or `profileIds` when the key would
     * exceed its creator, and `profileIds` for an id that is not one of the tenant's profiles.
     */
    async create(
      target: { tenantId: string; userId: string },
      input: { name: string; permissions?: Permission[]; expiresInDays?: number | null; profileIds?: readonly string[] | null },
      creator?: KeyCreator,
    ) {
      const now = clock();
      const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null;
      const defaulted = !input.permissions || input.permissions.length === 0;
      const perms = defaulted ? ALL_PERMISSIONS : [...new Set(input.permissions)];
      const profileIds = input.profileIds ? [...new Set(input.profileIds)] : null;
      if (creator) assertWithinCreator(creator, perms, defaulted, expiresAt, profileIds, now);
      if (profileIds) {
        const { rows: found } = await db.query<{ id: string }>('SELECT id FROM profiles WHERE tenant_id = $1 AND id = ANY($2::char(24)[])', [target.tenantId, profileIds]);
        const known = new Set(found.map((r) => r.id.trim()));
        const unknown = profileIds.filter((p) => !known.has(p));
        if (unknown.length > 0) throw fieldError('profileIds', `names no profile of yours: ${unknown.join(', ')}`);
      }
      const key = generateApiKey();
      const id = newId();
      await db.query(
        `INSERT INTO api_keys (id, tenant_id, user_id, name, key_hash, key_preview, permissions, expires_at, profile_ids)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [id, target.tenantId, target.userId, input.name, hashApiKey(key), keyPreview(key), perms, expiresAt, profileIds],
      );
      const { rows } = await db.query<KeyRow>(`${SELECT_KEYS} WHERE k.id = $1`, [id]);
      return { ...toView(rows[0]), key };
    },

    /** Revokes a key of the caller's; a foreign or unknown key is a 404, and so is, for a profile-scoped key, a key beyond its profiles. */
    async revoke(auth: AuthContext, keyId: string) {
      const { rowCount } = await db.query(
        `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND tenant_id = $3 AND revoked_at IS NULL
            AND ($4::char(24)[] IS NULL OR (profile_ids IS NOT NULL AND profile_ids <@ $4::char(24)[]))`,
        [keyId, auth.userId, auth.tenantId, auth.keyScope ? [...auth.keyScope.profileIds] : null],
      );
      if (!rowCount) throw notFound('API key');
      deps.onRevoke?.(keyId);
      return { message: 'API key deleted successfully' };
    },
  };
}
