/**
 * Bearer secrets out of the request log. Fastify logs every request's URL at info level
 * ("incoming request"); some URLs carry a secret that acts on its own, without an API key:
 * - a platform invite's token in the path (`/v1/platform-invites/<token>/connect...`);
 * - a team invite's token (`/auth/invite?token=`, `/signup?inviteToken=`);
 * - an OAuth callback's `code` and `state` (`/v1/connect/<platform>/callback?code&state`);
 * - a selection step's `tempToken` (Facebook page, LinkedIn author choice);
 * - a presigned upload URL's `token` (`/uploads/presigned/<id>?token=`, decision 0066).
 * {@link redactUrl} replaces those path segments and query values with `[redacted]`; the rest of
 * the URL stays as it was sent, so the log still says which route was called.
 */
import type { FastifyRequest } from 'fastify';

/** What replaces a secret in a logged URL. */
export const REDACTED = '[redacted]';

/** Query parameters whose value is a bearer secret (OAuth 2.0 codes, states and tokens, invite and selection tokens). */
const SECRET_QUERY_PARAMS = new Set([
  'code', 'state', 'token', 'inviteToken', 'tempToken', 'access_token', 'refresh_token', 'id_token', 'oauth_token', 'oauth_verifier',
  // A PKCE verifier and a client secret sent in a URL (Herald's OAuth token endpoint refuses them there, but the line is logged first).
  'code_verifier', 'client_secret',
].map((k) => k.toLowerCase()));

/** Path segments that are secrets: the segment after each of these. */
const SECRET_AFTER_SEGMENT = new Set(['platform-invites']);

function decoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * The URL (path and query, as Fastify's `request.url`) with its bearer secrets replaced by
 * `[redacted]`: the segment after `/platform-invites/`, and the values of `code`, `state`,
 * `token`, `inviteToken`, `tempToken` and the OAuth token parameters (any case).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? null : url.slice(q + 1);
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    if (SECRET_AFTER_SEGMENT.has(decoded(segments[i - 1]).toLowerCase()) && segments[i] !== '') segments[i] = REDACTED;
  }
  let out = segments.join('/');
  if (query !== null) {
    out += `?${query.split('&').map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && SECRET_QUERY_PARAMS.has(decoded(key).toLowerCase()) ? `${key}=${REDACTED}` : pair;
    }).join('&')}`;
  }
  return out;
}

/**
 * The request as the log shows it: Fastify's default request serializer
 * (https://fastify.dev/docs/latest/Reference/Logging/#serializers) with the URL redacted.
 */
export function redactedRequestSerializer(req: FastifyRequest) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
