/**
 * Rate-limit fields over every limited route (docs/decisions/0006-rate-limit-headers.md and
 * 0063-validation-error-categories-scoped-keys.md), through the real app on real PostgreSQL with
 * the limit on and the clock held inside one window:
 *   - every /v1 route that needs a key (read from the app itself, so a route added later is
 *     covered) answers with `X-RateLimit-*` and the IETF draft's `RateLimit-Policy` and `RateLimit`
 *     (draft-ietf-httpapi-ratelimit-headers: `"policy";q=..;w=..` and `"policy";r=..;t=..`);
 *   - past the limit each answers 429 with `Retry-After`, `RateLimit` at r=0 and the same policy;
 *   - the limits outside /v1 (sign-in, sign-up, client review links, docs answers, OAuth client
 *     registration) answer their 429 with `Retry-After` too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { retryAfterOf } from '../../src/route-kit/rate-limit-headers.ts';
import { DOCS_AI_PER_MINUTE } from '../../src/modules/docs-ai/routes.ts';
import { REVIEW_API_PER_MINUTE } from '../../src/modules/approvals/service.ts';
import { LOGIN_MAX_FAILURES } from '../../src/modules/sessions/service.ts';
import { SIGNUPS_PER_ADDRESS_PER_HOUR } from '../../src/modules/users/signup-routes.ts';
import { REGISTRATIONS_PER_HOUR } from '../../src/modules/oauth-server/service.ts';
import { PLANS } from '../../src/shared/plans.ts';
import { createTenant, createTestApp, type TestContext } from '../support/app.ts';
import { listAppRoutes, type AppRoute } from '../support/routes.ts';

// Two seconds into a minute, held: every request of the test falls into the same windows.
const NOW = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 2_000);
let ctx: TestContext;
let limited: AppRoute[];

const fill = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, (_, p: string) => (p === 'platform' ? 'twitter' : p === 'token' ? 'no-such-token-000000000000' : newId()));
const key = (r: AppRoute) => `${r.method} ${r.path}`;
/** What the tests read of an injected answer. */
type Answer = { statusCode: number; headers: Record<string, string | string[] | number | undefined> };

beforeAll(async () => {
  ctx = await createTestApp({ env: { HERALD_RATE_LIMIT: 'on', HERALD_SIGNUP: 'open' }, deps: { clock: () => NOW } });
  // The limited /v1 routes: those that need a key (401 without one).
  limited = [];
  for (const r of listAppRoutes(ctx.app).filter((x) => x.path.startsWith('/v1/') && x.method !== 'HEAD' && x.method !== 'OPTIONS')) {
    const res = await ctx.app.inject({ method: r.method as 'GET', url: fill(r.path) });
    if (res.statusCode === 401) limited.push(r);
  }
}, 120_000);
afterAll(async () => { await ctx?.close(); });

/** The structured fields of an answer, parsed as the draft writes them. */
function draftFields(headers: Record<string, unknown>) {
  const policy = /^"([a-z-]+)";q=(\d+);w=(\d+)$/.exec(String(headers['ratelimit-policy']));
  const state = /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(String(headers.ratelimit));
  return policy && state ? { policy: policy[1], q: Number(policy[2]), w: Number(policy[3]), name: state[1], r: Number(state[2]), t: Number(state[3]) } : null;
}

describe('every limited /v1 route', () => {
  it('is found (sanity)', () => {
    expect(limited.length).toBeGreaterThan(100);
    expect(limited.map(key)).toEqual(expect.arrayContaining(['GET /v1/posts', 'POST /v1/posts', 'GET /v1/analytics', 'POST /v1/api-keys']));
  });

  it('answers with X-RateLimit-* and the draft\'s RateLimit-Policy and RateLimit, which agree', async () => {
    const t = await createTenant(ctx, { plan: 'advanced', addons: ['analytics'] });
    const problems: string[] = [];
    for (const r of limited) {
      const res = await ctx.app.inject({ method: r.method as 'GET', url: fill(r.path), headers: t.headers });
      const f = draftFields(res.headers);
      const limit = Number(res.headers['x-ratelimit-limit']);
      if (!f || f.policy !== f.name || f.q !== limit || f.r !== Number(res.headers['x-ratelimit-remaining'])
        || Number(res.headers['x-ratelimit-reset']) - Math.floor(NOW.getTime() / 1000) !== f.t) {
        problems.push(`${key(r)} (${res.statusCode}): ${JSON.stringify([res.headers['ratelimit-policy'], res.headers.ratelimit, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']])}`);
        continue;
      }
      // The analytics routes' own limit replaces the general one once a request reaches it (past validation).
      const expected = f.policy === 'analytics' && r.path.startsWith('/v1/analytics') ? 3600 : f.policy === 'api' ? 60 : -1;
      if (f.w !== expected) problems.push(`${key(r)}: policy ${f.policy} w=${f.w}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('answers 429 past the limit with Retry-After, RateLimit at r=0 and X-RateLimit-Remaining 0', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    const max = PLANS.free.requestsPerMinute;
    for (let i = 0; i < max; i++) await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers });
    const problems: string[] = [];
    for (const r of limited) {
      const res = await ctx.app.inject({ method: r.method as 'GET', url: fill(r.path), headers: t.headers });
      const f = draftFields(res.headers);
      const retryAfter = Number(res.headers['retry-after']);
      if (res.statusCode !== 429 || res.json().code !== 'RATE_LIMITED' || !(retryAfter >= 1 && retryAfter <= 60)
        || !f || f.policy !== 'api' || f.q !== max || f.r !== 0 || f.t !== retryAfter || res.headers['x-ratelimit-remaining'] !== '0') {
        problems.push(`${key(r)}: ${res.statusCode} retry-after=${res.headers['retry-after']} ${res.headers.ratelimit}`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('the limits outside /v1 answer 429 with Retry-After', () => {
  const origin = { origin: 'http://localhost:80', host: 'localhost:80' };
  /** Sends `req` until it answers 429 (at most `max` + 1 times); returns that answer. */
  async function until429(max: number, send: (i: number) => Promise<Answer>) {
    for (let i = 0; i <= max; i++) {
      const res = await send(i);
      if (res.statusCode === 429) return res;
    }
    throw new Error(`no 429 after ${max + 1} requests`);
  }
  const expectRetryAfter = (res: Answer, most: number) => {
    const s = Number(res.headers['retry-after']);
    expect(s, JSON.stringify(res.headers)).toBeGreaterThanOrEqual(1);
    expect(s).toBeLessThanOrEqual(most);
  };

  it('sign-in after too many failures (a sliding window: Retry-After from the oldest failure)', async () => {
    const res = await until429(LOGIN_MAX_FAILURES, () => ctx.app.inject({ method: 'POST', url: '/auth/login', headers: origin, payload: { email: 'nobody@example.test', password: 'wrong password' } }));
    expectRetryAfter(res, 15 * 60);
  });

  it('sign-up, the client review API and docs answers, with their RateLimit fields', async () => {
    const signup = await until429(SIGNUPS_PER_ADDRESS_PER_HOUR, (i) => ctx.app.inject({
      method: 'POST', url: '/auth/signup', headers: { ...origin, 'x-forwarded-for': '203.0.113.7' }, payload: { name: 'N', email: `s${i}${newId()}@example.test`, password: 'a long password' },
    }));
    expectRetryAfter(signup, 3600);
    expect(draftFields(signup.headers)).toMatchObject({ policy: 'signup', q: SIGNUPS_PER_ADDRESS_PER_HOUR, r: 0 });
    const review = await until429(REVIEW_API_PER_MINUTE, () => ctx.app.inject({ method: 'GET', url: `/review-api/${'x'.repeat(32)}` }));
    expectRetryAfter(review, 60);
    expect(draftFields(review.headers)).toMatchObject({ policy: 'review', q: REVIEW_API_PER_MINUTE, r: 0 });
    const docs = await until429(DOCS_AI_PER_MINUTE, () => ctx.app.inject({ method: 'POST', url: '/docs-ai/answer', payload: { question: 'How do I post?' } }));
    expectRetryAfter(docs, 60);
    expect(draftFields(docs.headers)).toMatchObject({ policy: 'docs-ai', q: DOCS_AI_PER_MINUTE, r: 0 });
  });

  it('OAuth client registration', async () => {
    const res = await until429(REGISTRATIONS_PER_HOUR, (i) => ctx.app.inject({
      method: 'POST', url: '/oauth/register', payload: { client_name: `c${i}`, redirect_uris: ['https://client.example/callback'] },
    }));
    expectRetryAfter(res, 3600);
  });

  it('a 429 raised without a header of its own gets one from its details', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterOf({ retryAt: '2030-01-01T00:02:00Z' }, now)).toBe(120);
    expect(retryAfterOf({ resetAt: '2030-01-01T00:00:00.500Z' }, now)).toBe(1);
    expect(retryAfterOf({ retryAfterMs: 1500 }, now)).toBe(2);
    expect(retryAfterOf({ window: '1 hour' }, now)).toBe(3600);
    expect(retryAfterOf(undefined, now)).toBe(60);
  });
});
