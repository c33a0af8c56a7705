/**
 * The OAuth server's tables (oauth_clients, oauth_grants, oauth_codes, oauth_tokens; migration
 * 0021). Codes and tokens are looked up by their SHA-256; the plain values are never stored.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../storage/db.ts';
import type { PlanId } from '../../shared/plans.ts';
import type { BillingPeriod } from '../../core/time.ts';

/** SHA-256 of a code or token: its stored form. */
export const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export interface ClientRow { id: string; client_name: string; redirect_uris: string[]; created_at: Date }

export interface GrantRow {
  id: string;
  client_id: string;
  user_id: string;
  tenant_id: string;
  profile_ids: string[];
  capabilities: string[];
  created_at: Date;
  revoked_at: Date | null;
}

export interface CodeRow { grant_id: string; redirect_uri: string; code_challenge: string; scope: string; expires_at: Date; used_at: Date | null; client_id: string }

export interface TokenRow {
  kind: 'access' | 'refresh';
  grant_id: string;
  scope: string;
  expires_at: Date;
  revoked_at: Date | null;
  grant_revoked_at: Date | null;
  client_id: string;
}

/** The grant's user as the routes need it, read with a live access token. */
export interface TokenUserRow {
  grant_id: string;
  client_id: string;
  profile_ids: string[];
  capabilities: string[];
  scope: string;
  user_id: string;
  tenant_id: string;
  profile_access: 'all' | 'profiles';
  user_profile_ids: string[];
  plan: PlanId;
  billing_period: BillingPeriod;
  billing_anchor: Date;
  last_used_at: Date | null;
}

/** One connected app of a tenant: a client with live grants. */
export interface ConnectedAppRow {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  scope: string | null;
  profile_ids: string[];
  authorized_at: Date;
  last_used_at: Date | null;
  token_count: number;
}

export function createOAuthRepository(db: Db) {
  return {
    async insertClient(c: ClientRow): Promise<void> {
      await db.query('INSERT INTO oauth_clients (id, client_name, redirect_uris, created_at) VALUES ($1, $2, $3, $4)', [c.id, c.client_name, c.redirect_uris, c.created_at]);
    },

    async client(id: string): Promise<ClientRow | undefined> {
      return (await db.query<ClientRow>('SELECT id, client_name, redirect_uris, created_at FROM oauth_clients WHERE id = $1', [id])).rows[0];
    },

    async insertGrant(g: Omit<GrantRow, 'revoked_at'>): Promise<void> {
      await db.query(
        'INSERT INTO oauth_grants (id, client_id, user_id, tenant_id, profile_ids, capabilities, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [g.id, g.client_id, g.user_id, g.tenant_id, g.profile_ids, g.capabilities, g.created_at],
      );
    },

    async insertCode(hash: Buffer, c: Omit<CodeRow, 'used_at' | 'client_id'>): Promise<void> {
      await db.query(
        'INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, scope, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [hash, c.grant_id, c.redirect_uri, c.code_challenge, c.scope, c.expires_at],
      );
    },

    async code(hash: Buffer): Promise<CodeRow | undefined> {
      return (await db.query<CodeRow>(
        `SELECT c.grant_id, c.redirect_uri, c.code_challenge, c.scope, c.expires_at, c.used_at, g.client_id
           FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id
          WHERE c.code_hash = $1 AND g.revoked_at IS NULL`, [hash])).rows[0];
    },

    /** Uses a code up; false when it was used already (a second exchange of one code). */
    async useCode(hash: Buffer, now: Date): Promise<boolean> {
      return ((await db.query('UPDATE oauth_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL', [hash, now])).rowCount ?? 0) === 1;
    },

    async insertToken(hash: Buffer, t: { kind: 'access' | 'refresh'; grant_id: string; scope: string; created_at: Date; expires_at: Date }): Promise<void> {
      await db.query(
        'INSERT INTO oauth_tokens (token_hash, kind, grant_id, scope, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [hash, t.kind, t.grant_id, t.scope, t.created_at, t.expires_at],
      );
    },

    async token(hash: Buffer): Promise<TokenRow | undefined> {
      return (await db.query<TokenRow>(
        `SELECT t.kind, t.grant_id, t.scope, t.expires_at, t.revoked_at, g.revoked_at AS grant_revoked_at, g.client_id
           FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = $1`, [hash])).rows[0];
    },

    /** Revokes one token; false when it was revoked already. */
    async revokeToken(hash: Buffer, now: Date): Promise<boolean> {
      return ((await db.query('UPDATE oauth_tokens SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [hash, now])).rowCount ?? 0) === 1;
    },

    /** The capabilities a grant of the tenant holds (its scope), or null for an unknown grant. */
    async grantCapabilities(tenantId: string, grantId: string): Promise<string[] | null> {
      const { rows } = await db.query<{ capabilities: string[] }>('SELECT capabilities FROM oauth_grants WHERE id = $1 AND tenant_id = $2', [grantId, tenantId]);
      return rows[0]?.capabilities ?? null;
    },

    /** Ends a grant: every token of it stops at once and its unused codes with it. */
    async revokeGrant(grantId: string, now: Date): Promise<void> {
      await db.tx(async (c) => {
        await c.query('UPDATE oauth_grants SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [grantId, now]);
        await c.query('UPDATE oauth_tokens SET revoked_at = $2 WHERE grant_id = $1 AND revoked_at IS NULL', [grantId, now]);
      });
    },

    /** The live access token's grant and user (tenant plan included); undefined when it is unknown, expired or revoked. */
    async accessTokenUser(hash: Buffer, now: Date): Promise<TokenUserRow | undefined> {
      return (await db.query<TokenUserRow>(
        `SELECT g.id AS grant_id, g.client_id, g.profile_ids, g.capabilities, t.scope, g.last_used_at,
                u.id AS user_id, u.tenant_id, u.profile_access, u.profile_ids AS user_profile_ids,
                r.plan, r.billing_period, r.billing_anchor
           FROM oauth_tokens t
           JOIN oauth_grants g ON g.id = t.grant_id
           JOIN users u ON u.id = g.user_id
           JOIN users r ON r.id = u.tenant_id
          WHERE t.token_hash = $1 AND t.kind = 'access' AND t.revoked_at IS NULL AND g.revoked_at IS NULL AND t.expires_at > $2`,
        [hash, now])).rows[0];
    },

    async touchGrant(grantId: string, now: Date): Promise<void> {
      await db.query('UPDATE oauth_grants SET last_used_at = $2 WHERE id = $1', [grantId, now]);
    },

    /** The tenant's clients with live grants, most recently authorized first. */
    async connectedApps(tenantId: string, now: Date): Promise<ConnectedAppRow[]> {
      return (await db.query<ConnectedAppRow>(
        `SELECT c.id AS client_id, c.client_name, c.redirect_uris,
                (SELECT t.scope FROM oauth_tokens t JOIN oauth_grants g2 ON g2.id = t.grant_id
                  WHERE g2.client_id = c.id AND g2.tenant_id = $1 AND g2.revoked_at IS NULL ORDER BY t.created_at DESC LIMIT 1) AS scope,
                (SELECT coalesce(array_agg(DISTINCT p), '{}') FROM oauth_grants g3, unnest(g3.profile_ids) p
                  WHERE g3.client_id = c.id AND g3.tenant_id = $1 AND g3.revoked_at IS NULL) AS profile_ids,
                max(g.created_at) AS authorized_at, max(g.last_used_at) AS last_used_at,
                (SELECT count(*)::int FROM oauth_tokens t JOIN oauth_grants g4 ON g4.id = t.grant_id
                  WHERE g4.client_id = c.id AND g4.tenant_id = $1 AND g4.revoked_at IS NULL AND t.revoked_at IS NULL AND t.expires_at > $2) AS token_count
           FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
          WHERE g.tenant_id = $1 AND g.revoked_at IS NULL
          GROUP BY c.id
          ORDER BY authorized_at DESC`, [tenantId, now])).rows;
    },

    /** Revokes every grant of the client in the tenant (their tokens and codes with them); counts what it ended. */
    async revokeClient(tenantId: string, clientId: string, now: Date): Promise<{ grants: number; tokens: number; codes: number }> {
      return db.tx(async (c) => {
        const grants = await c.query<{ id: string }>(
          'UPDATE oauth_grants SET revoked_at = $3 WHERE tenant_id = $1 AND client_id = $2 AND revoked_at IS NULL RETURNING id', [tenantId, clientId, now]);
        const ids = grants.rows.map((r) => r.id);
        if (ids.length === 0) return { grants: 0, tokens: 0, codes: 0 };
        const tokens = await c.query('UPDATE oauth_tokens SET revoked_at = $2 WHERE grant_id = ANY($1) AND revoked_at IS NULL AND expires_at > $2', [ids, now]);
        const codes = await c.query('UPDATE oauth_codes SET used_at = $2 WHERE grant_id = ANY($1) AND used_at IS NULL AND expires_at > $2', [ids, now]);
        return { grants: ids.length, tokens: tokens.rowCount ?? 0, codes: codes.rowCount ?? 0 };
      });
    },
  };
}

export type OAuthRepository = ReturnType<typeof createOAuthRepository>;
