/**
 * OAuth 2.0 authorization-code pieces the simulators share (RFC 6749 section 4.1, PKCE RFC 7636):
 * the authorize endpoint that approves at once (no UI) and redirects back with a single-use
 * code, client credentials from HTTP Basic, single-use code redemption with expiry, the S256
 * check, bearer tokens, and refresh-token stores with or without rotation. Each platform
 * keeps its own paths, parameters, error bodies and lifetimes, given as arguments.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type Query = Record<string, string>;

export interface AuthorizeSpec<G> {
  /** Parameters that must be present, in the order the platform lists the missing ones. */
  required: readonly string[];
  /** The platform's refusals in its order, given the missing parameters: an answer, or undefined to approve. */
  refuse(q: Query, missing: string[], reply: FastifyReply): unknown;
  /** A new authorization code. */
  code(): string;
  /** What the code grants (kept with it until redeemed). */
  grant(q: Query): G;
  /** Query parameters added to redirect_uri, in the platform's order (undefined: left out). */
  back(q: Query, code: string): Array<[string, string | undefined]>;
}

/** GET `path`: approves as the simulator's user and redirects (302) to redirect_uri with the code. */
export function authorizeRoute<G>(app: FastifyInstance, path: string, codes: Map<string, G>, spec: AuthorizeSpec<G>): void {
  app.get(path, async (req, reply) => {
    const q = req.query as Query;
    const refused = spec.refuse(q, spec.required.filter((k) => !q[k]), reply);
    if (refused !== undefined) return refused;
    const code = spec.code();
    codes.set(code, spec.grant(q));
    const to = new URL(q.redirect_uri);
    for (const [k, v] of spec.back(q, code)) if (v !== undefined) to.searchParams.set(k, v);
    return reply.redirect(to.toString(), 302);
  });
}

/** Redeems a code (single use: it is gone afterwards); its grant, or null when unknown or expired. */
export function takeCode<G extends { expires: number }>(codes: Map<string, G>, code: string): G | null {
  const c = codes.get(code);
  codes.delete(code);
  return !c || c.expires < Date.now() ? null : c;
}

/** Client id and secret from `Authorization: Basic`, else `fallback` (client_secret_post). */
export function basicCredentials(req: FastifyRequest, fallback: Array<string | undefined> = []): Array<string | undefined> {
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return basic ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent) : fallback;
}

/** PKCE S256: does the verifier hash to the challenge? */
export const pkceMatches = (verifier: string | undefined, challenge: string) => createHash('sha256').update(verifier ?? '').digest('base64url') === challenge;

/** The bearer token of a call (`scheme` as the platform accepts it). */
export const bearerToken = (req: FastifyRequest, scheme = /^Bearer (.+)$/) => scheme.exec(req.headers.authorization ?? '')?.[1];

/** Makes every token in `tokens` expire now. */
export function expireAll(tokens: Map<string, { expires: number }>): void {
  for (const t of tokens.values()) t.expires = 0;
}

/**
 * Refresh tokens: `issue` mints one for a grant; `use` gives the grant behind a token, and
 * with rotation spends it (the platform hands out a new one and refuses the old).
 */
export class RefreshTokens<T> extends Map<string, T> {
  constructor(private readonly mint: () => string) { super(); }

  issue(grant: T): string {
    const token = this.mint();
    this.set(token, grant);
    return token;
  }

  use(token: string, rotate: boolean): T | undefined {
    const grant = this.get(token);
    if (grant && rotate) this.delete(token);
    return grant;
  }
}
