/**
 * API key authentication: `Authorization: Bearer <key>` -> {@link AuthContext}.
 * Keys are looked up by their SHA-256 (stored form) and compared in constant time;
 * revoked and expired keys are refused the same way as unknown ones (401).
 *
 * A found key's row (key, user, tenant plan) is kept for {@link KEY_CACHE_TTL_MS} per process,
 * keyed by the key's hash, so a burst of requests with one key costs one lookup a second. A
 * revocation, a permission or plan change therefore takes effect within that time on every
 * process, and at once on the process that revoked the key ({@link AuthService.forgetKey});
 * expiry is checked on every request against the clock. Unknown, revoked and expired keys are
 * never cached.
 */
import { LRUCache } from 'lru-cache';
import { AppError } from '../../core/errors.ts';
import { digestsEqual, hashApiKey } from '../../core/crypto.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from './context.ts';
import { touchApiKey } from '../api-keys/repository.ts';
import type { Permission } from '../../shared/permissions.ts';
import type { PlanId } from '../../shared/plans.ts';
import type { BillingPeriod } from '../../core/time.ts';

interface KeyRow {
  key_id: string;
  key_hash: Buffer;
  permissions: string[];
  /** The key's own profile scope (null: every profile its user reaches). */
  key_profile_ids: string[] | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  user_id: string;
  tenant_id: string;
  is_root: boolean;
  profile_access: 'all' | 'profiles';
  profile_ids: string[];
  plan: PlanId;
  billing_period: BillingPeriod;
  billing_anchor: Date;
}

const unauthorized = (why: string) => new AppError('UNAUTHORIZED', 'Unauthorized', { reason: why });

/** How long a found key's row is reused before it is read again (ms). */
export const KEY_CACHE_TTL_MS = 1_000;
/** Most keys kept per process (the least recently used goes first). */
const KEY_CACHE_MAX = 10_000;

export function createAuthService(db: Db, now: () => Date = () => new Date()) {
  /** Usable key rows by key hash (hex). */
  const cache = new LRUCache<string, KeyRow>({ max: KEY_CACHE_MAX, ttl: KEY_CACHE_TTL_MS });
  // The AuthContext of a cached row, built once (requests never change it); goes with the row.
  const contexts = new WeakMap<KeyRow, AuthContext>();

  async function lookup(digest: Buffer): Promise<KeyRow | undefined> {
    const key = digest.toString('hex');
    const hit = cache.get(key);
    if (hit) return hit;
    const { rows } = await db.query<KeyRow>(
      `SELECT k.id AS key_id, k.key_hash, k.permissions, k.profile_ids AS key_profile_ids, k.expires_at, k.revoked_at, k.last_used_at,
              u.id AS user_id, u.tenant_id, u.is_root, u.profile_access, u.profile_ids,
              r.plan, r.billing_period, r.billing_anchor
         FROM api_keys k
         JOIN users u ON u.id = k.user_id
         JOIN users r ON r.id = u.tenant_id
        WHERE k.key_hash = $1`,
      [digest],
    );
    const row = rows[0];
    // Only a usable key is kept: a revoked or expired one is read again next time (it may be fixed).
    if (row && !row.revoked_at && (!row.expires_at || row.expires_at.getTime() > now().getTime())) cache.set(key, row);
    return row;
  }

  return {
    /** Drops a key from this process's cache (its revocation takes effect here at once; elsewhere within {@link KEY_CACHE_TTL_MS}). */
    forgetKey(keyId: string): void {
      const hashes = [...cache.entries()].filter(([, row]) => row.key_id === keyId).map(([hash]) => hash);
      for (const hash of hashes) cache.delete(hash);
    },

    /** @throws AppError UNAUTHORIZED when the header is missing/malformed or the key is unknown, revoked or expired. */
    async authenticate(authorization: string | undefined): Promise<AuthContext> {
      if (!authorization) throw unauthorized('Missing Authorization header; send "Authorization: Bearer <API key>"');
      const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!m) throw unauthorized('Authorization header must be "Bearer <API key>"');
      const digest = hashApiKey(m[1]);
      const row = await lookup(digest);
      if (!row || !digestsEqual(row.key_hash, digest)) throw unauthorized('Invalid API key');
      const t = now();
      if (row.revoked_at) throw unauthorized('API key has been revoked');
      if (row.expires_at && row.expires_at.getTime() <= t.getTime()) throw unauthorized('API key has expired');
      if (!row.last_used_at || t.getTime() - row.last_used_at.getTime() > 60_000) {
        // Coarse last-used tracking: at most one write per key per minute.
        row.last_used_at = t;
        touchApiKey(db, row.key_id, t).catch(() => {});
      }
      let ctx = contexts.get(row);
      if (!ctx) {
        const memberProfiles = row.profile_ids.map((s) => s.trim());
        // A profile-scoped key (decision 0063) sees its profiles only, and of a team member's key
        // only those the member still may see; it is not the owner for owner-only actions.
        const keyProfiles = row.key_profile_ids?.map((s) => s.trim());
        const scoped = keyProfiles !== undefined;
        ctx = {
          tenantId: row.tenant_id,
          userId: row.user_id,
          isRoot: row.is_root && !scoped,
          keyId: row.key_id,
          permissions: new Set(row.permissions as Permission[]),
          keyExpiresAt: row.expires_at,
          profileAccess: scoped ? 'profiles' : row.profile_access,
          profileIds: !scoped ? memberProfiles : keyProfiles.filter((p) => row.profile_access === 'all' || memberProfiles.includes(p)),
          ...(scoped ? { keyScope: { profileIds: keyProfiles, ownerIsRoot: row.is_root } } : {}),
          plan: row.plan,
          billingPeriod: row.billing_period,
          billingAnchor: row.billing_anchor,
        };
        contexts.set(row, ctx);
      }
      return ctx;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
