/**
 * Google's OAuth 2.0 endpoints as the Google simulators (YouTube, Google Business Profile) serve
 * them (https://developers.google.com/identity/protocols/oauth2/web-server):
 * - `GET /o/oauth2/v2/auth`: client_id, redirect_uri, response_type=code and scope required (Google's
 *   plain-text "Error 400: invalid_request" pages), PKCE S256 only; a refresh token on the first
 *   offline consent and again only with `prompt=consent`; codes single use for 30 s;
 * - `POST /token`: client credentials in the body or Basic; `authorization_code` (redirect_uri must
 *   match, PKCE verified) and `refresh_token` (not rotated; revoked -> `invalid_grant` "Token has been
 *   expired or revoked."); access tokens `ya29.*` lasting `accessTtlSeconds` (default 3,599).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorizeRoute, basicCredentials, pkceMatches, type RefreshTokens, takeCode } from './oauth.ts';

export interface GoogleOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** The issued access tokens (the simulator's API routes check them). */
  access: Map<string, { expires: number; scope: string }>;
  /** The issued refresh tokens (the simulator's controls may revoke them). */
  refresh: RefreshTokens<{ scope: string }>;
  accessTtlSeconds?: number;
  /** The simulator's queued fault for the token call: 'handled' when it answered the request itself. */
  tokenFault: (reply: FastifyReply, req: FastifyRequest) => Promise<unknown>;
}

/** Registers Google's authorization and token endpoints on `app` (see the module docstring). */
export function googleOAuthRoutes(app: FastifyInstance, o: GoogleOAuthOptions): void {
  const codes = new Map<string, { redirectUri: string; expires: number; scope: string; challenge?: string; refresh: boolean }>();
  let consented = false;
  authorizeRoute(app, '/o/oauth2/v2/auth', codes, {
    required: ['client_id', 'redirect_uri', 'response_type', 'scope'],
    refuse: (q, missing, reply) => {
      if (missing.length) return reply.status(400).send(`Error 400: invalid_request. Required parameter is missing: ${missing[0]}`);
      if (q.client_id !== o.clientId) return reply.status(401).send('Error 401: invalid_client. The OAuth client was not found.');
      if (q.response_type !== 'code') return reply.status(400).send('Error 400: unsupported_response_type');
      if (q.code_challenge && q.code_challenge_method !== 'S256') return reply.status(400).send('Error 400: invalid_request. Only S256 is accepted here');
      return undefined;
    },
    code: () => `4/0${randomBytes(30).toString('base64url')}`,
    grant: (q) => {
      const offline = q.access_type === 'offline';
      // Google issues a refresh token on the first offline consent, and again only with prompt=consent.
      const giveRefresh = offline && (!consented || (q.prompt ?? '').split(' ').includes('consent'));
      if (offline) consented = true;
      return { redirectUri: q.redirect_uri, expires: Date.now() + 30_000, scope: q.scope, challenge: q.code_challenge, refresh: giveRefresh };
    },
    back: (q, code) => [['state', q.state || undefined], ['code', code], ['scope', q.scope]],
  });

  app.post('/token', async (req, reply) => {
    if (await o.tokenFault(reply, req) === 'handled') return reply;
    const b = (req.body ?? {}) as Record<string, string>;
    const [id, secret] = basicCredentials(req, [b.client_id, b.client_secret]);
    if (id !== o.clientId || secret !== o.clientSecret) return reply.status(401).send({ error: 'invalid_client', error_description: 'Unauthorized' });
    let scope: string;
    let newRefresh: string | undefined;
    if (b.grant_type === 'authorization_code') {
      const c = takeCode(codes, b.code);
      if (!c) return reply.status(400).send({ error: 'invalid_grant', error_description: 'Bad Request' });
      if (c.redirectUri !== b.redirect_uri) return reply.status(400).send({ error: 'redirect_uri_mismatch', error_description: 'Bad Request' });
      if (c.challenge && !pkceMatches(b.code_verifier, c.challenge)) return reply.status(400).send({ error: 'invalid_grant', error_description: 'Invalid code verifier.' });
      scope = c.scope;
      if (c.refresh) newRefresh = o.refresh.issue({ scope });
    } else if (b.grant_type === 'refresh_token') {
      const r = o.refresh.use(b.refresh_token, false);
      if (!r) return reply.status(400).send({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      scope = r.scope;
    } else {
      return reply.status(400).send({ error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${b.grant_type ?? ''}` });
    }
    const token = `ya29.${randomBytes(40).toString('base64url')}`;
    const ttl = o.accessTtlSeconds ?? 3599;
    o.access.set(token, { expires: Date.now() + ttl * 1000, scope });
    return { access_token: token, expires_in: ttl, scope, token_type: 'Bearer', ...(newRefresh ? { refresh_token: newRefresh } : {}) };
  });
}
