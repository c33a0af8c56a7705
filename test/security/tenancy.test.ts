/**
 * Tenancy and authentication over EVERY /v1 route (docs/decisions/0020-tenancy-answers-404.md).
 *
 * The routes are read from the real app (`printRoutes`, through listAppRoutes in test/support/routes.ts), not from a hand-written list,
 * so a route added later is covered automatically:
 *   - each route with a path parameter is called by tenant A with tenant B's real
 *     resource id and must answer 404 NOT_FOUND (never 403, 200 or 5xx), with the same
 *     body as for an id that does not exist (no existence leak), and every resource of
 *     B must read back unchanged afterwards;
 *   - each /v1 route except the OpenAPI document answers 401 without a key.
 * A new path parameter the suite cannot fill, or a new route with a body the suite has
 * no valid body for, fails the suite until it is added below.
 * /mcp and the OAuth routes are not in the OpenAPI document (nor /v1): their tenancy is
 * test/security/tenancy-mcp.test.ts, every MCP tool with another tenant's ids.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { listAppRoutes, type AppRoute } from '../support/routes.ts';
import { makePng, multipart } from '../support/png.ts';

// Built at collection time so that one test per discovered route can be generated.
const ctx: TestContext = await createTestApp({ env: { HERALD_BLUESKY_SERVICE_URL: 'http://127.0.0.1:9' } });
afterAll(async () => { await ctx.close(); });

type Route = AppRoute;

/** The /v1 routes. */
function listRoutes(): Route[] {
  return listAppRoutes(ctx.app).filter((r) => r.path.startsWith('/v1/'));
}

const ROUTES = listRoutes();
const key = (r: Route) => `${r.method} ${r.path}`;

/** OpenAPI operations (`METHOD /v1/x/:id`) that declare a request body. */
const openapi = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
  paths: Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ in: string; name: string; required?: boolean }> }>>;
};
const OPENAPI_OPS = new Map<string, { hasBody: boolean; requiredQuery: string[] }>();
/** Routes whose optional `accountId` query names the account they read the platform with (decision 0063): the suite names B's. */
const ACCOUNT_READERS = new Set(['GET /v1/tools/validate/subreddit']);
for (const [p, ops] of Object.entries(openapi.paths)) {
  for (const [m, op] of Object.entries(ops)) {
    OPENAPI_OPS.set(`${m.toUpperCase()} ${p.replace(/\{([^}]+)\}/g, ':$1')}`, {
      hasBody: !!op.requestBody,
      requiredQuery: (op.parameters ?? []).filter((x) => x.in === 'query' && x.required).map((x) => x.name),
    });
  }
}

/** B's resources, one fresh set per route under test. */
interface Victim {
  tenant: Tenant;
  userId: string;
  profileId: string;
  accountId: string;
  /** A failed post: editable, deletable and retryable, so a missing tenant check would act on it. */
  postId: string;
  /** A second API key of B's (not used for B's own reads, so its row stays stable). */
  keyId: string;
  keyValue: string;
  /** A finished AI clipping job of B's (written directly: the suite needs its id, not its clips). */
  jobId: string;
  /** A pending team invite of B's. */
  inviteId: string;
  /** A publishing log entry of B's post. */
  logId: string;
  /** An OAuth client (an AI assistant on /mcp) B authorized, with a live token (docs/decisions/0049-oauth-for-mcp.md). */
  clientId: string;
  /** An account group of B's (its account). */
  groupId: string;
  /** A client review link of B's post (decision 0059), and its token. */
  linkId: string;
  linkToken: string;
  /** A PNG in B's media library (convertible, taggable, deletable). */
  mediaId: string;
  /** A followed feed of B's profile (RSS to queue, decision 0065). */
  feedId: string;
}

/** Path parameters that are not resource ids (a platform name): filled with a fixed value. */
const NON_RESOURCE: Record<string, string> = { platform: 'twitter', token: 'no-such-invite-token' };
/**
 * Routes reachable without an API key: the OAuth redirect target carries a signed state instead,
 * and a platform invite's page its unguessable token (see 'platform-invite recipients' below).
 */
const PUBLIC_PATHS = new Set(['/v1/openapi.json', '/v1/connect/:platform/callback']);
/** Every page and form of a platform invite (its connect page, the app-password and bot-token forms, the chooser). */
const INVITE_PAGE = /^\/v1\/platform-invites\/:token\/connect(\/[a-z-]+)?$/;
const PUBLIC_ROUTES = { has: (path: string) => PUBLIC_PATHS.has(path) || INVITE_PAGE.test(path) };
const isResourceRoute = (r: Route) => !PUBLIC_ROUTES.has(r.path) && r.params.some((p) => !(p in NON_RESOURCE));

/** Ids that exist nowhere, for parameters that are not 24-hex ids (an OAuth client id). */
const MISSING: Record<string, () => string> = { clientId: () => `hmcp_${newId()}${newId().slice(0, 8)}` };

/** How to fill each path parameter with the victim's real id. Add new parameters here. */
const FILL: Record<string, (v: Victim) => string> = {
  postId: (v) => v.postId,
  profileId: (v) => v.profileId,
  accountId: (v) => v.accountId,
  keyId: (v) => v.keyId,
  userId: (v) => v.userId,
  jobId: (v) => v.jobId,
  inviteId: (v) => v.inviteId,
  logId: (v) => BigInt(v.logId).toString(16).padStart(24, '0'),
  clientId: (v) => v.clientId,
  groupId: (v) => v.groupId,
  linkId: (v) => v.linkId,
  mediaId: (v) => v.mediaId,
  feedId: (v) => v.feedId,
  // Required query strings that are not ids (GET /v1/reddit/search, GET /v1/tools/validate/subreddit).
  q: () => 'herald',
  name: () => 'test',
  // Selection tokens after OAuth (Facebook pages, LinkedIn organizations): one nobody was issued.
  tempToken: () => 'no-such-selection-token',
};

/** A body that passes validation, for routes that take one, so the request reaches the tenant check. */
const VALID_BODY: Record<string, unknown> = {
  'PUT /v1/profiles/:profileId': { name: 'hijacked', description: 'hijacked', color: '#000000', isDefault: true },
  'PUT /v1/accounts/:accountId': { username: 'hijacked.test', displayName: 'hijacked' },
  'PUT /v1/accounts/:accountId/reddit-subreddits': { defaultSubreddit: 'hijacked' },
  'PUT /v1/accounts/:accountId/pinterest-boards': { defaultBoardId: '1234567890', defaultBoardName: 'hijacked' },
  'PUT /v1/posts/:postId': { content: 'hijacked', scheduledFor: '2032-01-01T00:00:00Z' },
  'POST /v1/profiles': { name: 'x' },
  'POST /v1/api-keys': { name: 'x' },
  'POST /v1/posts': { content: 'x', isDraft: true },
  'POST /v1/connect/bluesky/credentials': { identifier: 'a.test', appPassword: 'aaaa-bbbb-cccc-dddd', state: newId() },
  'PUT /v1/accounts/:accountId/linkedin-organization': { accountType: 'organization', selectedOrganization: { id: '2414183' } },
  'PUT /v1/accounts/:accountId/facebook-page': { selectedPageId: '1234567890' },
  'POST /v1/profiles/:profileId/clone-connection': { sourceAccountId: newId() },
  'PUT /v1/users/:userId': { scope: 'all' },
  'POST /v1/posts/:postId/unpublish': {},
  // Editing published posts (decision 0060).
  'POST /v1/posts/:postId/edit': { platform: 'bluesky', content: 'hijacked' },
  'POST /v1/posts/:postId/update-metadata': { platform: 'youtube', title: 'hijacked' },
  'POST /v1/posts/:postId/retry': {},
  'PUT /v1/account-groups/:groupId': { name: 'hijacked' },
  'PATCH /v1/accounts/:accountId': { profileId: newId() },
  'PUT /v1/accounts/:accountId/gmb-locations': { selectedLocationId: 'locations/1234567890' },
  // Approvals (decision 0059).
  'PUT /v1/profiles/:profileId/approval-rule': { required: false, clientApproval: false },
  'POST /v1/posts/:postId/approve': { comment: 'hijacked' },
  'POST /v1/posts/:postId/request-changes': { comment: 'hijacked' },
  'POST /v1/posts/:postId/comments': { body: 'hijacked' },
  'POST /v1/review-links': { label: 'x' },
  'PATCH /v1/media/:mediaId': { tags: ['hijacked'] },
  'POST /v1/media/:mediaId/convert': { format: 'jpeg' },
  'PUT /v1/feeds/:feedId': { name: 'hijacked', paused: true },
};

let counter = 1;

async function makeVictim(): Promise<Victim> {
  const tenant = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  const accountId = await insertAccount(ctx, tenant, profileId, 'bluesky');
  const post = await ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: tenant.headers,
    payload: { content: 'B only', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] },
  });
  expect(post.statusCode, post.body).toBe(201);
  const postId = post.json().post._id as string;
  await ctx.db.query(`UPDATE post_targets SET status = 'failed', run_at = NULL, attempts = 1, error_message = 'scripted failure' WHERE post_id = $1`, [postId]);
  await ctx.db.query(`UPDATE posts SET status = 'failed' WHERE id = $1`, [postId]);
  const k = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: tenant.headers, payload: { name: 'second' } });
  expect(k.statusCode, k.body).toBe(201);
  const jobId = newId();
  await ctx.db.query(
    `INSERT INTO clip_jobs (id, tenant_id, video_url, video_file_name, status, stage, progress, watermark, tier, finished_at)
     VALUES ($1, $2, 'https://videos.example.test/b.mp4', 'b.mp4', 'completed', 'done', 100, true, 'free', now())`, [jobId, tenant.userId]);
  const inv = await ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: tenant.headers, payload: { scope: 'profiles', profileIds: [profileId] } });
  expect(inv.statusCode, inv.body).toBe(201);
  const { rows: [invite] } = await ctx.db.query<{ id: string }>('SELECT id FROM team_invites WHERE tenant_id = $1', [tenant.userId]);
  const { rows: [log] } = await ctx.db.query<{ id: string }>(
    `INSERT INTO publish_attempts (target_id, attempt, worker_id, phase, outcome, error, finished_at, tenant_id, post_id, account_id, platform, action)
     SELECT id, 1, 'w', 'commit', 'failed', 'scripted failure', now(), tenant_id, post_id, account_id, platform, 'publish' FROM post_targets WHERE post_id = $1
     RETURNING id::text`, [postId]);
  // A connected app of B's: a registered client, B's grant on the profile, a live access token.
  const client = await ctx.services.oauthServer.register({ client_name: 'B assistant', redirect_uris: ['https://b.example/cb'] }, `10.0.${counter}.${counter++}`);
  const grantId = newId();
  await ctx.db.query(`INSERT INTO oauth_grants (id, client_id, user_id, tenant_id, profile_ids, capabilities, created_at) VALUES ($1, $2, $3, $3, $4, '{read}', now())`,
    [grantId, client.client_id, tenant.userId, [profileId]]);
  await ctx.db.query(`INSERT INTO oauth_tokens (token_hash, kind, grant_id, scope, created_at, expires_at) VALUES (sha256($1::bytea), 'access', $2, 'read', now(), now() + interval '1 hour')`,
    [Buffer.from(`hma_${grantId}`), grantId]);
  const png = multipart('files', [{ filename: 'b.png', contentType: 'image/png', data: makePng(4, 4, 'noise') }]);
  const up = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': png.contentType }, payload: png.payload });
  expect(up.statusCode, up.body).toBe(200);
  const mediaId = (await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: tenant.headers })).json().files[0]._id as string;
  const group = await ctx.app.inject({ method: 'POST', url: '/v1/account-groups', headers: tenant.headers, payload: { name: 'B group', accountIds: [accountId] } });
  expect(group.statusCode, group.body).toBe(201);
  const rule = await ctx.app.inject({ method: 'PUT', url: `/v1/profiles/${profileId}/approval-rule`, headers: tenant.headers, payload: { required: true, clientApproval: true } });
  expect(rule.statusCode, rule.body).toBe(200);
  const link = await ctx.app.inject({ method: 'POST', url: '/v1/review-links', headers: tenant.headers, payload: { postId } });
  expect(link.statusCode, link.body).toBe(201);
  const feed = await ctx.app.inject({
    method: 'POST', url: '/v1/feeds', headers: tenant.headers,
    payload: { profileId, url: 'https://feeds.example.test/b.xml', mode: 'draft', accountIds: [accountId] },
  });
  expect(feed.statusCode, feed.body).toBe(201);
  return {
    feedId: feed.json().feed._id,
    tenant, userId: tenant.userId, profileId, accountId, postId, keyId: k.json().apiKey.id, keyValue: k.json().apiKey.key, jobId, inviteId: invite.id, logId: log.id,
    clientId: client.client_id, groupId: group.json().group._id, linkId: link.json().reviewLink._id, linkToken: link.json().token, mediaId,
  };
}

/** Everything of B's, read back as B through the API plus the target rows (the publish jobs). */
async function snapshot(v: Victim) {
  const get = async (url: string) => {
    const res = await ctx.app.inject({ method: 'GET', url, headers: v.tenant.headers });
    expect(res.statusCode, `${url} as B: ${res.body}`).toBe(200);
    return res.json();
  };
  const keys = await get('/v1/api-keys');
  const { rows: targets } = await ctx.db.query('SELECT * FROM post_targets WHERE post_id = $1 ORDER BY id', [v.postId]);
  const { rows: accounts } = await ctx.db.query('SELECT * FROM accounts WHERE tenant_id = $1 ORDER BY id', [v.userId]);
  return {
    post: (await get(`/v1/posts/${v.postId}`)).post,
    profiles: (await get('/v1/profiles')).profiles,
    accounts: (await get(`/v1/accounts?profileId=${v.profileId}`)).accounts,
    key: keys.apiKeys.find((x: { id: string }) => x.id === v.keyId),
    users: (await get('/v1/users')).users,
    invites: (await get('/v1/invite/tokens')).invites,
    user: (await get(`/v1/users/${v.userId}`)).user,
    posts: (await get('/v1/posts?includeHidden=true')).pagination,
    connectedApps: (await get('/v1/me/connected-apps')).connectedApps,
    accountGroups: (await get('/v1/account-groups')).groups,
    approvalRule: (await get(`/v1/profiles/${v.profileId}/approval-rule`)).rule,
    approval: (await get(`/v1/posts/${v.postId}/approval`)).approval,
    comments: (await get(`/v1/posts/${v.postId}/comments`)).comments,
    reviewLinks: (await get('/v1/review-links')).reviewLinks,
    media: (await get('/v1/media')).files,
    feed: await get(`/v1/feeds/${v.feedId}`),
    targets, accountRows: accounts,
  };
}

const fillPath = (path: string, fill: (param: string) => string) => path.replace(/:([A-Za-z0-9_]+)/g, (_, p: string) => fill(p));
const stripRequestId = (body: Record<string, unknown>) => { const { requestId: _r, ...rest } = body; return rest; };

describe('route discovery', () => {
  it('finds every route of the OpenAPI document, plus the document itself', () => {
    const found = new Set(ROUTES.map(key));
    expect(OPENAPI_OPS.size).toBeGreaterThan(15);
    for (const op of OPENAPI_OPS.keys()) if (op.includes(' /v1/')) expect(found, op).toContain(op);
    expect(found).toContain('GET /v1/openapi.json');
  });

  it('knows how to fill every path parameter and has a valid body for every route that takes one', () => {
    const problems: string[] = [];
    for (const r of ROUTES) {
      for (const p of r.params) if (!FILL[p] && !(p in NON_RESOURCE)) problems.push(`${key(r)}: no filler for path parameter ":${p}" (add it to FILL in test/security/tenancy.test.ts)`);
      if (isResourceRoute(r) && OPENAPI_OPS.get(key(r))?.hasBody && !(key(r) in VALID_BODY)) problems.push(`${key(r)}: no valid body in VALID_BODY`);
    }
    expect(problems).toEqual([]);
  });
});

describe('another tenant\'s resource id in the path answers 404, and changes nothing', () => {
  const A = createTenant(ctx);
  const withIds = ROUTES.filter(isResourceRoute);

  it('covers the routes with ids (sanity)', () => {
    expect(withIds.map(key)).toEqual(expect.arrayContaining([
      'GET /v1/posts/:postId', 'PUT /v1/posts/:postId', 'DELETE /v1/posts/:postId', 'POST /v1/posts/:postId/retry',
      'GET /v1/profiles/:profileId', 'PUT /v1/profiles/:profileId', 'DELETE /v1/profiles/:profileId',
      'PUT /v1/accounts/:accountId', 'DELETE /v1/accounts/:accountId', 'DELETE /v1/api-keys/:keyId', 'GET /v1/users/:userId',
    ]));
  });

  for (const r of withIds) {
    it(`${key(r)} with B's id`, async () => {
      const a = await A;
      const victim = await makeVictim();
      const before = await snapshot(victim);
      const payload = VALID_BODY[key(r)] as object | undefined;
      const send = (url: string) => ctx.app.inject({ method: r.method as 'GET', url, headers: a.headers, ...(payload ? { payload } : {}) });

      const res = await send(fillPath(r.path, (p) => {
        if (p in NON_RESOURCE) return NON_RESOURCE[p];
        if (!FILL[p]) throw new Error(`no filler for :${p}`);
        return FILL[p](victim);
      }));
      expect(res.statusCode, res.body).toBe(404);
      // The same answer as for an id that exists nowhere: no existence leak.
      const missing = await send(fillPath(r.path, (p) => NON_RESOURCE[p] ?? MISSING[p]?.() ?? newId()));
      expect(missing.statusCode).toBe(404);
      if (r.method !== 'HEAD') {
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND', error: expect.any(String) });
        expect(stripRequestId(res.json())).toEqual(stripRequestId(missing.json()));
      }

      expect(await snapshot(victim)).toEqual(before);
      // B's second key still works (DELETE /v1/api-keys/:keyId did not revoke it).
      const own = await ctx.app.inject({ method: 'GET', url: '/v1/usage-stats', headers: { authorization: `Bearer ${victim.keyValue}` } });
      expect(own.statusCode).toBe(200);
    });
  }
});

describe('recycling on another tenant\'s post (decision 0061)', () => {
  it('PUT /v1/posts/:postId with only recycling (its own code path) answers 404 and changes nothing', async () => {
    const a = await createTenant(ctx);
    const victim = await makeVictim();
    const before = await snapshot(victim);
    for (const payload of [{ recycling: { gap: 1 } }, { recycling: { enabled: false } }, { recycling: null }]) {
      const res = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${victim.postId}`, headers: a.headers, payload });
      expect(res.statusCode, res.body).toBe(404);
    }
    expect(await snapshot(victim)).toEqual(before);
  });
});

describe('another tenant\'s ids in bodies and query strings', () => {
  it('POST /v1/posts with B\'s accountId is a 400 naming platforms.0.accountId, like an unknown id; nothing is stored', async () => {
    const a = await createTenant(ctx);
    const b = await makeVictim();
    const before = await snapshot(b);
    const post = (accountId: string, extra: Record<string, unknown> = {}) => ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: a.headers,
      payload: { content: 'x', platforms: [{ platform: 'bluesky', accountId }], ...extra },
    });
    for (const extra of [{ scheduledFor: '2031-01-01T00:00:00Z' }, { publishNow: true }, { isDraft: true }]) {
      const res = await post(b.accountId, extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.json().details.fields)).toEqual(['platforms.0.accountId']);
      expect(res.json().details).toEqual((await post(newId(), extra)).json().details);
    }
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: a.headers });
    expect(list.json().pagination.total).toBe(0);
    expect(await snapshot(b)).toEqual(before);
  });

  it('PUT /v1/posts/:postId (A\'s own post) with B\'s accountId is a 400 naming platforms.0.accountId', async () => {
    const a = await createTenant(ctx);
    const b = await makeVictim();
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: a.headers, payload: { content: 'mine', isDraft: true } });
    const id = created.json().post._id;
    const res = await ctx.app.inject({
      method: 'PUT', url: `/v1/posts/${id}`, headers: a.headers,
      payload: { scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: b.accountId }] },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().details.fields)).toContain('platforms.0.accountId');
    const after = await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: a.headers });
    expect(after.json().post).toMatchObject({ status: 'draft', platforms: [] });
  });

  it('GET /v1/accounts?profileId=<B\'s profile> is a 404 and lists nothing', async () => {
    const a = await createTenant(ctx);
    const b = await makeVictim();
    const res = await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${b.profileId}`, headers: a.headers });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(res.body).not.toContain(b.accountId);
    const all = await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: a.headers });
    expect(all.json().accounts).toEqual([]);
  });

  it('GET /v1/posts filtered by B\'s profile or B\'s user shows none of B\'s posts', async () => {
    const a = await createTenant(ctx);
    const b = await makeVictim();
    for (const q of [`profileId=${b.profileId}`, `createdBy=${b.userId}`, 'includeHidden=true&status=failed']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/v1/posts?${q}`, headers: a.headers });
      if (q.startsWith('profileId=')) expect(res.statusCode, q).toBe(404);
      else {
        expect(res.statusCode, q).toBe(200);
        expect(res.json().pagination.total, q).toBe(0);
      }
      expect(res.body).not.toContain(b.postId);
    }
  });

  it('POST /v1/connect/bluesky/credentials with B\'s profile as state is a 404 before any login; no account is added', async () => {
    const a = await createTenant(ctx);
    const b = await makeVictim();
    const before = await snapshot(b);
    for (const state of [b.profileId, `${b.userId}-${b.profileId}`, `${a.userId}-${b.profileId}`]) {
      const res = await ctx.app.inject({
        method: 'POST', url: '/v1/connect/bluesky/credentials', headers: a.headers,
        payload: { identifier: 'someone.test', appPassword: 'aaaa-bbbb-cccc-dddd', state },
      });
      expect(res.statusCode, state).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(await snapshot(b)).toEqual(before);
  });

  it('B\'s queueId (named queues, decision 0062) in every queue route and on a post is a 404 like an unknown queue; B\'s queues are unchanged', async () => {
    const a = await createTenant(ctx);
    const aProfile = await createProfile(ctx, a);
    await insertAccount(ctx, a, aProfile);
    const b = await createTenant(ctx);
    const bProfile = await createProfile(ctx, b);
    const slots = [{ dayOfWeek: 1, time: '09:00' }];
    await ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: a.headers, payload: { profileId: aProfile, timezone: 'UTC', slots } });
    await ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: b.headers, payload: { profileId: bProfile, timezone: 'UTC', slots } });
    const bQueue = (await ctx.app.inject({ method: 'POST', url: '/v1/queue/slots', headers: b.headers, payload: { profileId: bProfile, name: 'B evening', timezone: 'UTC', slots } })).json().schedule._id as string;
    const readB = async () => (await ctx.app.inject({ method: 'GET', url: `/v1/queue/slots?profileId=${bProfile}&all=true`, headers: b.headers })).body;
    const before = await readB();
    /** [method, url, body] with `Q` standing for the queue id under test. */
    const CALLS: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', `/v1/queue/slots?profileId=${aProfile}&queueId=Q`],
      ['GET', `/v1/queue/preview?profileId=${aProfile}&queueId=Q`],
      ['GET', `/v1/queue/next-slot?profileId=${aProfile}&queueId=Q`],
      ['DELETE', `/v1/queue/slots?profileId=${aProfile}&queueId=Q`],
      ['PUT', '/v1/queue/slots', { profileId: aProfile, queueId: 'Q', name: 'hijacked', timezone: 'UTC', slots, setAsDefault: true, reshuffleExisting: true }],
      ['POST', '/v1/queue/arrange', { profileId: aProfile, queueId: 'Q', moves: [{ postId: newId(), slot: '2031-01-06T09:00:00Z' }] }],
      ['POST', '/v1/posts', { content: 'into B\'s queue', queuedFromProfile: aProfile, queueId: 'Q' }],
    ];
    for (const [method, url, body] of CALLS) {
      const call = (id: string) => ctx.app.inject({
        method: method as 'GET', url: url.replace('=Q', `=${id}`), headers: a.headers,
        ...(body ? { payload: JSON.parse(JSON.stringify(body).replace('"Q"', JSON.stringify(id))) } : {}),
      });
      const foreign = await call(bQueue);
      const unknown = await call(newId());
      expect(foreign.statusCode, `${method} ${url}`).toBe(404);
      expect({ ...foreign.json(), requestId: 0 }, `${method} ${url}`).toEqual({ ...unknown.json(), requestId: 0 });
      expect(foreign.body).not.toContain('B evening');
    }
    expect(await readB()).toBe(before);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: a.headers })).json().pagination.total).toBe(0);
  });

  it('lists (profiles, accounts, posts, users, api-keys) never include another tenant\'s rows', async () => {
    // With the Analytics add-on, so the analytics views are read too (not refused with 402).
    const a = await createTenant(ctx, { addons: ['analytics'] });
    const b = await makeVictim();
    const ids = [b.userId, b.profileId, b.accountId, b.postId, b.keyId];
    for (const r of ROUTES.filter((x) => x.method === 'GET' && x.params.length === 0 && x.path !== '/v1/openapi.json')) {
      const required = [...OPENAPI_OPS.get(key(r))?.requiredQuery ?? [], ...(ACCOUNT_READERS.has(key(r)) ? ['accountId'] : [])];
      if (required.length > 0) {
        // Routes scoped by a required query id (e.g. the queue's profileId): B's id is a 404.
        const query = required.map((name) => {
          const fill = FILL[name];
          if (!fill) throw new Error(`${key(r)}: no way to fill the required query parameter "${name}"; add it to FILL`);
          return `${name}=${fill(b)}`;
        }).join('&');
        const res = await ctx.app.inject({ method: 'GET', url: `${r.path}?${query}`, headers: a.headers });
        expect(res.statusCode, `${r.path}?${query}`).toBe(404);
        for (const id of ids) expect(res.body, `${r.path} leaks ${id}`).not.toContain(id);
        continue;
      }
      const res = await ctx.app.inject({ method: 'GET', url: r.path, headers: a.headers });
      expect(res.statusCode, r.path).toBe(200);
      for (const id of ids) expect(res.body, `${r.path} leaks ${id}`).not.toContain(id);
    }
  });
});

describe('authentication on every /v1 route', () => {
  const guarded = ROUTES.filter((r) => !PUBLIC_ROUTES.has(r.path));

  it('covers the routes (sanity)', () => {
    expect(guarded.length).toBeGreaterThan(15);
  });

  for (const r of guarded) {
    it(`${key(r)} answers 401 without a valid key`, async () => {
      const url = fillPath(r.path, (p) => NON_RESOURCE[p] ?? newId());
      const payload = VALID_BODY[key(r)] as object | undefined;
      for (const headers of [{}, { authorization: 'Bearer sk_0000000000000000000000000000000000000000000000000000000000000000' }]) {
        const res = await ctx.app.inject({ method: r.method as 'GET', url, headers, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${key(r)} ${JSON.stringify(headers)}`).toBe(401);
        if (r.method !== 'HEAD') expect(res.json()).toMatchObject({ error: 'Unauthorized', code: 'UNAUTHORIZED', requestId: expect.any(String) });
      }
    });
  }

  it('the OAuth callback is public but only acts on a signed, unused state', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/connect/twitter/callback?code=abc&state=forged.state' });
    expect(res.statusCode).toBe(302);
    expect(new URL(res.headers.location as string).searchParams.get('error')).toBe('connection_failed');
  });

  it('connect flows refuse another tenant\'s profile', async () => {
    const a = await createTenant(ctx);
    const b = await makeVictim();
    const start = await ctx.app.inject({ method: 'GET', url: `/v1/connect/twitter?profileId=${b.profileId}`, headers: a.headers });
    expect(start.statusCode).toBe(404);
    const done = await ctx.app.inject({ method: 'POST', url: '/v1/connect/twitter', headers: a.headers, payload: { code: 'c', state: 'forged.state', profileId: b.profileId } });
    expect(done.statusCode).toBe(400);
  });

  it('GET /v1/openapi.json is public', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
  });
});

describe('review-link recipients reach nothing else (decision 0059)', () => {
  it('a link opens only its own post: not another tenant\'s post, not B\'s link list, not /v1; another tenant cannot make a link to B\'s post or profile', async () => {
    const a = await makeVictim();
    const b = await makeVictim();
    const before = await snapshot(b);
    const view = await ctx.app.inject({ method: 'GET', url: `/review-api/${a.linkToken}` });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.headers['set-cookie']).toBeUndefined();
    expect(view.json().posts.map((p: { _id: string }) => p._id)).toEqual([a.postId]);
    for (const id of [a.userId, a.accountId, a.profileId, a.keyId, b.postId, b.profileId]) expect(view.body).not.toContain(id);
    for (const action of ['approve', 'request-changes', 'comments']) {
      const res = await ctx.app.inject({ method: 'POST', url: `/review-api/${a.linkToken}/posts/${b.postId}/${action}`, payload: { comment: 'hijacked', body: 'hijacked' } });
      expect(res.statusCode, `${action}: ${res.body}`).toBe(404);
    }
    for (const headers of [{ authorization: `Bearer ${a.linkToken}` }, { cookie: `herald_session=${a.linkToken}` }]) {
      for (const url of ['/v1/posts', '/v1/review-links', `/v1/posts/${a.postId}/comments`]) {
        expect((await ctx.app.inject({ method: 'GET', url, headers })).statusCode, url).toBe(401);
      }
    }
    const other = await createTenant(ctx);
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/review-links', headers: other.headers, payload: { postId: b.postId } })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/review-links', headers: other.headers,
      payload: { profileId: b.profileId, from: '2031-01-01T00:00:00Z', to: '2031-01-08T00:00:00Z' } })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/review-links', headers: other.headers })).body).not.toContain(b.linkId);
    expect(await snapshot(b)).toEqual(before);
  });
});

describe('platform-invite recipients reach nothing else', () => {
  it('the invite page gives no cookie, its token is no API key, and another tenant cannot see, list or revoke the invite', async () => {
    const a = await createTenant(ctx);
    const b = await makeVictim();
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: b.tenant.headers, payload: { profileId: b.profileId, platform: 'bluesky' } });
    expect(created.statusCode, created.body).toBe(201);
    const inv = created.json().invite as { _id: string; token: string; inviteUrl: string };
    const before = await snapshot(b);

    const pageRes = await ctx.app.inject({ method: 'GET', url: new URL(inv.inviteUrl).pathname });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.headers['set-cookie']).toBeUndefined();
    // What the page shows is the inviter and the profile name, never B's ids, accounts or posts.
    for (const id of [b.profileId, b.accountId, b.postId, b.keyId]) expect(pageRes.body).not.toContain(id);
    // The token opens nothing else: not as a bearer key, not as a session cookie.
    for (const headers of [{ authorization: `Bearer ${inv.token}` }, { cookie: `herald_session=${inv.token}` }]) {
      for (const url of ['/v1/accounts', '/v1/profiles', '/v1/posts', '/v1/platform-invites', '/v1/users']) {
        expect((await ctx.app.inject({ method: 'GET', url, headers })).statusCode, `${url} ${JSON.stringify(headers)}`).toBe(401);
      }
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/dashboard/accounts' })).headers['set-cookie']).toBeUndefined();

    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/platform-invites?id=${inv._id}`, headers: a.headers })).statusCode).toBe(404);
    const listed = await ctx.app.inject({ method: 'GET', url: '/v1/platform-invites', headers: a.headers });
    expect(listed.body).not.toContain(inv._id);
    expect(listed.body).not.toContain(inv.token);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/platform-invites?profileId=${b.profileId}`, headers: a.headers })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/platform-invites', headers: a.headers, payload: { profileId: b.profileId, platform: 'bluesky' } })).statusCode).toBe(404);
    expect(await snapshot(b)).toEqual(before);
    const still = await ctx.app.inject({ method: 'GET', url: '/v1/platform-invites', headers: b.tenant.headers });
    expect(still.json().invites.map((i: { _id: string }) => i._id)).toEqual([inv._id]);
  });
});

describe('clone-connection with another tenant\'s account', () => {
  it('cloning B\'s account into A\'s own profile is a 404, like an unknown account; nothing is stored', async () => {
    const a = await createTenant(ctx);
    const b = await makeVictim();
    const mine = await createProfile(ctx, a);
    const before = await snapshot(b);
    const res = await ctx.app.inject({ method: 'POST', url: `/v1/profiles/${mine}/clone-connection`, headers: a.headers, payload: { sourceAccountId: b.accountId } });
    expect(res.statusCode).toBe(404);
    const unknown = await ctx.app.inject({ method: 'POST', url: `/v1/profiles/${mine}/clone-connection`, headers: a.headers, payload: { sourceAccountId: newId() } });
    expect(stripRequestId(res.json())).toEqual(stripRequestId(unknown.json()));
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: a.headers })).json().accounts).toEqual([]);
    expect(await snapshot(b)).toEqual(before);
  });
});

describe('team members reach only their own profiles, and no API keys', () => {
  // One tenant (with the Analytics add-on, so analytics routes answer rather than 402) with two
  // profiles; the member is invited to the first only and signs in to the dashboard.
  const setup = (async () => {
    const owner = await createTenant(ctx, { addons: ['analytics'] });
    const mine = await createProfile(ctx, owner, 'Member brand');
    const other = await createProfile(ctx, owner, 'Owner only');
    await insertAccount(ctx, owner, mine, 'bluesky');
    const otherAccount = await insertAccount(ctx, owner, other, 'bluesky');
    const post = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: owner.headers, payload: { content: 'owner only', isDraft: true, platforms: [{ platform: 'bluesky', accountId: otherAccount }] } });
    const token = (await ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: owner.headers, payload: { scope: 'profiles', profileIds: [mine] } })).json().token;
    const origin = { origin: 'http://localhost:80', host: 'localhost:80' };
    const signup = await ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload: { inviteToken: token, name: 'Member', email: `member${newId()}@example.test`, password: 'member password' } });
    expect(signup.statusCode, signup.body).toBe(201);
    const headers = { cookie: String(signup.headers['set-cookie']).split(';')[0], 'x-csrf-token': signup.json().csrfToken as string, ...origin };
    const keys = (await ctx.app.inject({ method: 'GET', url: '/v1/api-keys', headers: owner.headers })).json().apiKeys as Array<{ id: string }>;
    // The owner's own key limited to the same profile (decision 0063): it must reach no more than the member.
    const scoped = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: owner.headers, payload: { name: 'scoped', scope: 'profiles', profileIds: [mine] } });
    expect(scoped.statusCode, scoped.body).toBe(201);
    const keyHeaders = { authorization: `Bearer ${scoped.json().apiKey.key as string}` };
    return { owner, headers, keyHeaders, mine, other, otherAccount, postId: post.json().post._id as string, ownerKeyId: keys[0].id };
  })();
  const SCOPED: Record<string, (s: Awaited<typeof setup>) => string> = { profileId: (s) => s.other, accountId: (s) => s.otherAccount, postId: (s) => s.postId };
  const scopedRoutes = ROUTES.filter((r) => !PUBLIC_ROUTES.has(r.path) && r.params.length > 0 && r.params.every((p) => p in SCOPED || p in NON_RESOURCE) && r.params.some((p) => p in SCOPED))
    // A route still missing its VALID_BODY is reported by 'route discovery' above.
    .filter((r) => !OPENAPI_OPS.get(key(r))?.hasBody || key(r) in VALID_BODY);

  it('covers the profile, account and post routes (sanity)', () => {
    expect(scopedRoutes.map(key)).toEqual(expect.arrayContaining(['GET /v1/profiles/:profileId', 'DELETE /v1/accounts/:accountId', 'PUT /v1/posts/:postId']));
  });

  for (const r of scopedRoutes) for (const caller of ['member', 'profile-scoped API key'] as const) {
    it(`${key(r)} with a profile outside the ${caller}'s scope answers 404`, async () => {
      const s = await setup;
      const payload = VALID_BODY[key(r)] as object | undefined;
      const res = await ctx.app.inject({
        method: r.method as 'GET', url: fillPath(r.path, (p) => NON_RESOURCE[p] ?? SCOPED[p](s)), headers: caller === 'member' ? s.headers : s.keyHeaders, ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, res.body).toBe(404);
      // The owner still has all of it.
      for (const url of [`/v1/profiles/${s.other}`, `/v1/posts/${s.postId}`]) {
        expect((await ctx.app.inject({ method: 'GET', url, headers: s.owner.headers })).statusCode, url).toBe(200);
      }
      const accounts = await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${s.other}`, headers: s.owner.headers });
      expect(accounts.json().accounts.map((a: { _id: string }) => a._id)).toEqual([s.otherAccount]);
    });
  }

  it('API-key routes answer 403 to a member, and the owner\'s keys are untouched', async () => {
    const s = await setup;
    for (const [method, url, payload] of [['GET', '/v1/api-keys'], ['POST', '/v1/api-keys', { name: 'member key' }], ['DELETE', `/v1/api-keys/${s.ownerKeyId}`]] as const) {
      const res = await ctx.app.inject({ method, url, headers: s.headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const own = await ctx.app.inject({ method: 'GET', url: '/v1/api-keys', headers: s.owner.headers });
    expect(own.json().apiKeys.map((k: { id: string }) => k.id)).toContain(s.ownerKeyId);
    expect(own.json().apiKeys.map((k: { name: string }) => k.name)).not.toContain('member key');
  });

  it('a profile-scoped key lists only its profile\'s profiles, accounts and posts, and cannot post to another profile\'s account', async () => {
    const s = await setup;
    const get = async (url: string) => (await ctx.app.inject({ method: 'GET', url, headers: s.keyHeaders })).json();
    expect((await get('/v1/profiles')).profiles.map((p: { _id: string }) => p._id)).toEqual([s.mine]);
    expect((await get('/v1/accounts')).accounts.map((a: { profileId: string | { _id: string } }) => typeof a.profileId === 'string' ? a.profileId : a.profileId._id)).toEqual([s.mine]);
    expect((await get('/v1/posts')).posts.map((p: { _id: string }) => p._id)).not.toContain(s.postId);
    const before = (await ctx.db.query('SELECT count(*)::int AS n FROM posts')).rows[0].n;
    const post = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: s.keyHeaders, payload: { content: 'beyond the key', platforms: [{ platform: 'bluesky', accountId: s.otherAccount }] } });
    expect([400, 404], post.body).toContain(post.statusCode);
    expect((await ctx.db.query('SELECT count(*)::int AS n FROM posts')).rows[0].n).toBe(before);
    // Owner-only and every-profile powers are not the key's.
    for (const [method, url, payload] of [['POST', '/v1/profiles', { name: 'New brand' }], ['POST', '/v1/invite/tokens', { scope: 'all' }], ['GET', '/v1/webhooks/settings']] as const) {
      const res = await ctx.app.inject({ method, url, headers: s.keyHeaders, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    }
  });
});
