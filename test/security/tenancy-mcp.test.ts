/**
 * Tenancy of /mcp and the OAuth routes (docs/decisions/0020-tenancy-answers-404.md,
 * 0047-mcp-server.md, 0049-oauth-for-mcp.md). Both are hidden from the OpenAPI document, so the
 * route loop of tenancy.test.ts never reaches them; this suite does, from the tool table itself:
 *   - every tool of TOOL_SPECS that takes an id (found in its input schema by the id pattern, at
 *     any depth: `postId`, `platforms[].accountId`, `mentions[]`, ...) is called by tenant B, with
 *     its API key and with its OAuth token, with each of tenant A's real ids in turn: the answer is
 *     the one an id that exists nowhere gets (404, or the 400 naming the field where the /v1 route
 *     answers so), it shows none of A's ids, and every row of A's reads back unchanged;
 *   - the same calls by an OAuth token of A's limited to profile X, with profile Y's ids;
 *   - the tools without an id show none of A's ids;
 *   - the consent refuses another tenant's real profile; B's code, refresh token and client
 *     redeem or revoke nothing of A's at /oauth/token and /oauth/revoke.
 * A new tool with an id argument the suite cannot fill fails the suite until it is added below.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { CAPABILITIES, TOOL_SPECS } from '../../src/shared/mcp-tools.ts';
import { createProfile, createTestApp, insertAccount, type TestContext } from '../support/app.ts';
import { makePng, multipart } from '../support/png.ts';

// Built at collection time so that one test per tool can be generated.
const ctx: TestContext = await createTestApp({ env: { HERALD_BLUESKY_SERVICE_URL: 'http://127.0.0.1:9' } });
afterAll(async () => { await ctx.close(); });

const PASSWORD = 'a long enough password 1';
const BROWSER = { origin: 'http://localhost:80', host: 'localhost:80' };
const REDIRECT = 'https://assistant.example/callback';
const ID_PATTERN = '[0-9a-fA-F]{24}';

/** A signed-up owner: API key, dashboard session, and the ids of what it owns. */
interface Owner {
  userId: string;
  key: string;
  session: { cookie: string; 'x-csrf-token': string } & typeof BROWSER;
}

let users = 0;
async function owner(): Promise<Owner> {
  const email = `mcp-tenancy-${++users}-${newId()}@example.test`;
  const { userId } = await ctx.services.users.createRootUser({ email, password: PASSWORD, name: `Owner ${users}`, plan: 'advanced', addons: ['analytics'] });
  const key = (await ctx.services.apiKeys.create({ tenantId: userId, userId }, { name: 'k' })).key;
  const login = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD }, headers: BROWSER });
  expect(login.statusCode, login.body).toBe(200);
  const cookie = String((login.headers['set-cookie'] as string[])[0]).split(';')[0];
  return { userId, key, session: { cookie, 'x-csrf-token': login.json().csrfToken as string, ...BROWSER } };
}

const v1 = async (o: Owner, method: string, url: string, payload?: object) => {
  const res = await ctx.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${o.key}` }, ...(payload ? { payload } : {}) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
};

/** The ids of one profile's things: what a caller uses as its own, and what a victim is attacked with. */
interface Ids {
  userId?: string;
  profileId: string;
  accountId: string;
  /** A failed post (retryable, deletable, editable): a missing check would act on it. */
  postId: string;
  /** A named queue of the profile. */
  queueId: string;
}

/** A profile with a Bluesky account, a failed post and a named queue. */
async function stock(o: Owner, profileId: string, withUser = true): Promise<Ids> {
  const accountId = await insertAccount(ctx, { userId: o.userId, apiKey: o.key, headers: { authorization: `Bearer ${o.key}` } }, profileId, 'bluesky');
  const post = await v1(o, 'POST', '/v1/posts', { content: `post of ${profileId}`, scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] });
  const postId = post.post._id as string;
  await ctx.db.query(`UPDATE post_targets SET status = 'failed', run_at = NULL, attempts = 1, error_message = 'scripted failure' WHERE post_id = $1`, [postId]);
  await ctx.db.query(`UPDATE posts SET status = 'failed' WHERE id = $1`, [postId]);
  const slots = [{ dayOfWeek: 1, time: '09:00' }];
  await v1(o, 'PUT', '/v1/queue/slots', { profileId, timezone: 'UTC', slots });
  const queue = await v1(o, 'POST', '/v1/queue/slots', { profileId, name: `named ${profileId}`, timezone: 'UTC', slots });
  return { ...(withUser ? { userId: o.userId } : {}), profileId, accountId, postId, queueId: queue.schedule._id as string };
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const form = (url: string, body: Record<string, string>) => ctx.app.inject({
  method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(body).toString(),
});

/** An OAuth grant of `o`'s through the real endpoints: registration, consent in `o`'s session, code (not yet redeemed). */
async function authorize(o: Owner, profileIds: string[], capabilities: readonly string[] = CAPABILITIES) {
  const reg = await ctx.app.inject({ method: 'POST', url: '/oauth/register', payload: { client_name: 'Assistant', redirect_uris: [REDIRECT] }, remoteAddress: `203.0.113.${users}` });
  expect(reg.statusCode, reg.body).toBe(201);
  const clientId = reg.json().client_id as string;
  const { verifier, challenge } = pkce();
  const params = { client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's' };
  const res = await ctx.app.inject({ method: 'POST', url: '/oauth/consent', headers: o.session, payload: { params, allow: true, profileIds, capabilities } });
  expect(res.statusCode, res.body).toBe(200);
  const code = new URL(res.json().redirectTo).searchParams.get('code')!;
  expect(code).toMatch(/^hmc_/);
  return { clientId, verifier, code };
}

/** Redeems a grant's code: its access and refresh tokens. */
async function redeem(g: { clientId: string; verifier: string; code: string }) {
  const res = await form('/oauth/token', { grant_type: 'authorization_code', code: g.code, redirect_uri: REDIRECT, client_id: g.clientId, code_verifier: g.verifier });
  expect(res.statusCode, res.body).toBe(200);
  return { access: res.json().access_token as string, refresh: res.json().refresh_token as string };
}

/** One MCP request (stateless: no initialize needed) with a bearer token. */
async function rpc(token: string, method: string, params: object = {}) {
  const res = await ctx.app.inject({
    method: 'POST', url: '/mcp', payload: { jsonrpc: '2.0', id: 1, method, params },
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  return res;
}

/** A tool call's answer: its structured content (Herald's status, code, details, or the route's answer), requestId left out. */
async function callTool(token: string, name: string, args: Record<string, unknown>) {
  const res = await rpc(token, 'tools/call', { name, arguments: args });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { result?: { isError?: boolean; structuredContent?: Record<string, unknown> }; error?: unknown };
  expect(body.error, `${name}: ${res.body}`).toBeUndefined();
  const { requestId: _r, ...answer } = body.result!.structuredContent ?? {};
  return { isError: body.result!.isError === true, answer, text: res.body };
}

/**
 * Every row of the tenant's tables (each table with a tenant_id column), for the before/after
 * comparison. The OAuth tables are left out when the caller is a grant of the same tenant (using
 * its token stamps its own grant's last use).
 */
async function rowsOf(tenantId: string, skip: readonly string[] = []): Promise<Record<string, string[]>> {
  const { rows: tables } = await ctx.db.query<{ t: string }>(
    `SELECT DISTINCT table_name AS t FROM information_schema.columns WHERE column_name = 'tenant_id' AND table_schema = current_schema() ORDER BY 1`);
  const out: Record<string, string[]> = {};
  for (const { t } of tables) {
    if (skip.includes(t)) continue;
    const { rows } = await ctx.db.query<{ r: string }>(`SELECT to_jsonb(x)::text AS r FROM "${t}" x WHERE tenant_id = $1`, [tenantId]);
    out[t] = rows.map((r) => r.r).sort();
  }
  return out;
}

// --- The tools' id arguments, read from their input schemas --------------------------------------

type Schema = { pattern?: string; anyOf?: Schema[]; properties?: Record<string, Schema>; items?: Schema; type?: unknown };
const takesId = (s: Schema): boolean => Boolean(s.pattern?.includes(ID_PATTERN)) || (s.anyOf ?? []).some(takesId);

/** The paths of a schema's id arguments: `postId`, `platforms[].accountId`, `mentions[]`. */
function idPaths(props: Record<string, Schema>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [name, s] of Object.entries(props)) {
    const here = `${prefix}${name}`;
    if (takesId(s)) out.push(here);
    if (s.items) {
      if (takesId(s.items)) out.push(`${here}[]`);
      if (s.items.properties) out.push(...idPaths(s.items.properties, `${here}[].`));
    }
    if (s.properties) out.push(...idPaths(s.properties, `${here}.`));
  }
  return out;
}

/** Sets the value at an id path (`platforms[].accountId` sets it in the first item; `mentions[]` is a one-item list). */
function setAt(args: Record<string, unknown>, path: string, value: string): Record<string, unknown> {
  const copy = structuredClone(args);
  const [head, ...rest] = path.split('[].');
  if (path.endsWith('[]') && rest.length === 0) { copy[path.slice(0, -2)] = [value]; return copy; }
  if (rest.length === 0) { copy[head] = value; return copy; }
  const list = (copy[head] as Record<string, unknown>[] | undefined) ?? [{}];
  list[0] = setAt(list[0] ?? {}, rest.join('[].'), value);
  copy[head] = list;
  return copy;
}

/** Which of the victim's ids fills each id argument. Add a new argument here. */
const FILL: Record<string, keyof Ids> = {
  postId: 'postId',
  profileId: 'profileId',
  accountId: 'accountId',
  'platforms[].accountId': 'accountId',
  queuedFromProfile: 'profileId',
  queueId: 'queueId',
  createdBy: 'userId',
  'mentions[]': 'userId',
};

/** Arguments that make each tool's call valid apart from the id under test (the caller's own ids elsewhere). */
const BASE: Record<string, (own: Ids) => Record<string, unknown>> = {
  validate_post: (own) => ({ content: 'x', platforms: [{ platform: 'bluesky', accountId: own.accountId }] }),
  create_draft: (own) => ({ content: 'x', platforms: [{ platform: 'bluesky', accountId: own.accountId }] }),
  schedule_post: (own) => ({ content: 'x', scheduledFor: '2032-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: own.accountId }] }),
  publish_post_now: (own) => ({ content: 'x', platforms: [{ platform: 'bluesky', accountId: own.accountId }] }),
  retry_post_target: (own) => ({ postId: own.postId, accountId: own.accountId }),
  edit_published_post: (own) => ({ postId: own.postId, platform: 'bluesky', content: 'hijacked', accountId: own.accountId }),
  update_youtube_metadata: (own) => ({ postId: own.postId, platform: 'youtube', title: 'hijacked' }),
  request_post_changes: (own) => ({ postId: own.postId, comment: 'hijacked' }),
  approve_post: (own) => ({ postId: own.postId, comment: 'hijacked' }),
  comment_on_post: (own) => ({ postId: own.postId, body: 'hijacked' }),
  get_queue_slots: (own) => ({ profileId: own.profileId }),
  get_next_queue_slot: (own) => ({ profileId: own.profileId }),
};

/**
 * Per tool and argument, the arguments when they differ from BASE with the id set (the queue a
 * post goes to needs its profile; a YouTube video's account is named in direct mode, postId "_").
 */
const VARIANT: Record<string, (own: Ids, id: string) => Record<string, unknown>> = {
  'schedule_post queuedFromProfile': (own, id) => ({ content: 'x', queuedFromProfile: id, platforms: [{ platform: 'bluesky', accountId: own.accountId }] }),
  'schedule_post queueId': (own, id) => ({ content: 'x', queuedFromProfile: own.profileId, queueId: id, platforms: [{ platform: 'bluesky', accountId: own.accountId }] }),
  'create_draft queueId': (own, id) => ({ content: 'x', queuedFromProfile: own.profileId, queueId: id, platforms: [{ platform: 'bluesky', accountId: own.accountId }] }),
  'validate_post queueId': (own, id) => ({ content: 'x', queuedFromProfile: own.profileId, queueId: id, platforms: [{ platform: 'bluesky', accountId: own.accountId }] }),
  'update_youtube_metadata accountId': (_own, id) => ({ postId: '_', platform: 'youtube', videoId: 'dQw4w9WgXcQ', accountId: id, title: 'hijacked' }),
};

/** Id arguments that only filter a list: another tenant's id lists what an unknown id lists (nothing of theirs). */
const FILTERS = new Set(['createdBy']);

/**
 * validate_post does not look the queue up (POST /v1/posts does, when it allocates the slot): it
 * answers `valid: true` for any queueId of the caller's own profile, another tenant's or none at
 * all alike, so the comparison with an unknown id is all there is to check.
 */
const UNCHECKED = new Set(['validate_post queueId']);

/**
 * The field a 400 names for an id argument: the argument itself (`platforms[].accountId` as
 * `platforms.0.accountId`), but a draft is never queued, so its queue arguments are refused on
 * `queuedFromProfile` before any id is looked up.
 */
function fieldOf(tool: string, path: string): RegExp {
  if (tool === 'create_draft' && path === 'queueId') return /^queuedFromProfile$/;
  return new RegExp(`^${path.replace('[].', '\\.0\\.').replace('[]', '(\\.0)?')}$`);
}

// The tools as /mcp lists them to a key with every permission (their input schemas are their routes').
const setupOwner = await owner();
const listed = (await rpc(setupOwner.key, 'tools/list')).json().result.tools as { name: string; inputSchema: { properties?: Record<string, Schema> } }[];
const SCHEMAS = new Map(listed.map((t) => [t.name, t.inputSchema.properties ?? {}]));
const ID_ARGS = new Map(TOOL_SPECS.map((s) => [s.name, idPaths(SCHEMAS.get(s.name) ?? {})]));

describe('the tools of TOOL_SPECS and their id arguments', () => {
  it('a key with every permission lists every tool of TOOL_SPECS', () => {
    expect(listed.map((t) => t.name).sort()).toEqual(TOOL_SPECS.map((s) => s.name).sort());
  });

  it('knows how to fill every id argument of every tool', () => {
    const problems: string[] = [];
    for (const [tool, paths] of ID_ARGS) {
      for (const p of paths) if (!(p in FILL)) problems.push(`${tool}: no filler for id argument "${p}" (add it to FILL in test/security/tenancy-mcp.test.ts)`);
    }
    expect(problems).toEqual([]);
    // Sanity: the reading, writing and queue tools are found with their ids.
    expect(ID_ARGS.get('get_post')).toEqual(['postId']);
    expect(ID_ARGS.get('create_draft')).toEqual(expect.arrayContaining(['platforms[].accountId', 'queuedFromProfile', 'queueId']));
    expect(ID_ARGS.get('get_next_queue_slot')).toEqual(['profileId', 'queueId']);
  });
});

/** A and its things: the victim of the cross-tenant calls. */
const A = await owner();
const aProfile = await createProfile(ctx, { userId: A.userId, apiKey: A.key, headers: { authorization: `Bearer ${A.key}` } }, 'A brand');
const aIds = await stock(A, aProfile);
/** A's own assistant, with a live grant on A's profile (B must not touch it). */
const aGrant = await authorize(A, [aProfile]);
const aTokens = await redeem(aGrant);
/** A file in A's media library (B's list_media must not show it). */
const png = multipart('files', [{ filename: 'a-secret.png', contentType: 'image/png', data: makePng(4, 4, 'noise') }]);
const upload = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { authorization: `Bearer ${A.key}`, 'content-type': png.contentType }, payload: png.payload });
expect(upload.statusCode, upload.body).toBe(200);

/** B: the caller, with its own profile and things, an API key and an OAuth token with every capability. */
const B = await owner();
const bProfile = await createProfile(ctx, { userId: B.userId, apiKey: B.key, headers: { authorization: `Bearer ${B.key}` } }, 'B brand');
const bIds = await stock(B, bProfile);
const bGrant = await authorize(B, [bProfile]);
const bTokens = await redeem(bGrant);

/** A second profile of A's (Y) and an OAuth token of A's limited to A's first profile (X). */
const yProfile = await createProfile(ctx, { userId: A.userId, apiKey: A.key, headers: { authorization: `Bearer ${A.key}` } }, 'A other brand');
const yIds = await stock(A, yProfile, false);
const xGrant = await authorize(A, [aProfile]);
const xTokens = await redeem(xGrant);

const secrets = (ids: Ids) => Object.values(ids).filter((x): x is string => typeof x === 'string');

/**
 * Calls `tool` as `token` with each of `victim`'s ids in turn (the caller's `own` ids elsewhere):
 * the same answer as for an unknown id, an error unless the argument only filters a list, none of
 * the victim's ids shown, and none of the victim tenant's rows changed.
 */
async function attack(token: string, tool: string, own: Ids, victim: Ids, victimTenant: string, skipTables: readonly string[] = []) {
  const paths = ID_ARGS.get(tool)!;
  let tried = 0;
  for (const path of paths) {
    const which = FILL[path];
    const id = victim[which];
    if (id === undefined) continue; // not a profile's thing (the user) in the same-tenant case
    const build = (value: string) => VARIANT[`${tool} ${path}`]?.(own, value) ?? setAt(BASE[tool]?.(own) ?? {}, path, value);
    const before = await rowsOf(victimTenant, skipTables);
    const foreign = await callTool(token, tool, build(id));
    const unknownId = newId();
    const unknown = await callTool(token, tool, build(unknownId));
    const label = `${tool} ${path}: ${foreign.text}`;
    // An answer may repeat the id it was given ("no account <id>"): that one is the caller's own knowledge.
    const same = (answer: object, given: string) => JSON.parse(JSON.stringify(answer).replaceAll(given, '<id>')) as Record<string, unknown>;
    expect(same(foreign.answer, id), label).toEqual(same(unknown.answer, unknownId));
    if (FILTERS.has(path)) expect(foreign.isError, label).toBe(false);
    else if (UNCHECKED.has(`${tool} ${path}`)) { /* answered as for an unknown id (above), and nothing changed (below) */ } else if (!foreign.isError) {
      // validate_post answers a verdict, not an error: invalid, naming the argument.
      expect(foreign.answer.valid, label).toBe(false);
      expect(Object.keys(foreign.answer.fields as object).join(' '), label).toMatch(fieldOf(tool, path));
    } else {
      const status = foreign.answer.status as number;
      // Not found as the /v1 routes answer it: 404, or a 400 naming the argument (an id in a body, as POST /v1/posts does).
      if (status === 400) expect(Object.keys((foreign.answer.details as { fields: object }).fields).join(' '), label).toMatch(fieldOf(tool, path));
      else if (status === 403) expect(foreign.answer.code, label).toBe('insufficient_permissions'); // the caller may not use the tool at all
      else expect(status, label).toBe(404);
    }
    for (const s of secrets(victim)) if (s !== id) expect(foreign.text, `${label} shows ${s}`).not.toContain(s);
    expect(await rowsOf(victimTenant, skipTables), label).toEqual(before);
    tried++;
  }
  return tried;
}

const idTools = TOOL_SPECS.filter((s) => (ID_ARGS.get(s.name) ?? []).length > 0).map((s) => s.name);

describe('tenant B calls every id-taking tool with tenant A\'s ids', () => {
  it('covers the post, profile, account and queue tools (sanity)', () => {
    expect(idTools).toEqual(expect.arrayContaining(['get_post', 'delete_post', 'unpublish_post', 'retry_post', 'retry_post_target', 'edit_published_post',
      'list_accounts', 'get_queue_slots', 'get_next_queue_slot', 'create_draft', 'schedule_post', 'publish_post_now', 'comment_on_post']));
  });

  for (const tool of idTools) {
    for (const caller of ['API key', 'OAuth token'] as const) {
      it(`${tool} with B's ${caller}`, async () => {
        const token = caller === 'API key' ? B.key : bTokens.access;
        expect(await attack(token, tool, bIds, aIds, A.userId)).toBeGreaterThan(0);
      });
    }
  }
});

describe('an OAuth token limited to profile X reaches nothing of profile Y through any tool', () => {
  for (const tool of idTools) {
    it(tool, async () => {
      // Using the token stamps its own grant (oauth_grants.last_used_at): the OAuth tables are compared elsewhere.
      const tried = await attack(xTokens.access, tool, aIds, yIds, A.userId, ['oauth_grants', 'oauth_tokens', 'oauth_codes']);
      if (ID_ARGS.get(tool)!.some((p) => FILL[p] !== 'userId')) expect(tried).toBeGreaterThan(0);
    });
  }

  it('the tools without an id show nothing of profile Y', async () => {
    for (const spec of TOOL_SPECS.filter((s) => s.annotations.readOnlyHint && !idTools.includes(s.name))) {
      const { text } = await callTool(xTokens.access, spec.name, {});
      for (const s of secrets(yIds)) expect(text, `${spec.name} shows ${s}`).not.toContain(s);
    }
  });
});

describe('the tools without an id show nothing of another tenant', () => {
  const readers = TOOL_SPECS.filter((s) => s.annotations.readOnlyHint && !(ID_ARGS.get(s.name) ?? []).length);

  it('covers the list tools (sanity)', () => {
    expect(readers.map((s) => s.name)).toEqual(expect.arrayContaining(['list_profiles', 'get_accounts_health', 'list_media', 'get_usage']));
  });

  for (const spec of readers) {
    for (const caller of ['API key', 'OAuth token'] as const) {
      it(`${spec.name} with B's ${caller}`, async () => {
        const { isError, text } = await callTool(caller === 'API key' ? B.key : bTokens.access, spec.name, {});
        expect(isError, text).toBe(false);
        for (const s of [...secrets(aIds), aGrant.clientId, 'A brand', 'a-secret.png']) expect(text, `${spec.name} shows ${s}`).not.toContain(s);
      });
    }
  }

  it('the resources list only B\'s own profiles, and A\'s queue reads as not found', async () => {
    for (const token of [B.key, bTokens.access]) {
      const list = await rpc(token, 'resources/list');
      expect(list.body).toContain(bProfile);
      expect(list.body).not.toContain(aProfile);
      const read = await rpc(token, 'resources/read', { uri: `herald://profiles/${aProfile}/queue` });
      const unknown = await rpc(token, 'resources/read', { uri: `herald://profiles/${newId()}/queue` });
      expect(read.json().error).toMatchObject({ code: -32002 });
      expect(read.json().error.message.replace(aProfile, 'ID')).toBe(unknown.json().error.message.replace(/[0-9a-f]{24}/, 'ID'));
    }
  });
});

describe('the OAuth routes across tenants', () => {
  it('the consent refuses another tenant\'s real profile as it refuses an unknown one, and grants nothing', async () => {
    const reg = await ctx.app.inject({ method: 'POST', url: '/oauth/register', payload: { client_name: 'Greedy', redirect_uris: [REDIRECT] }, remoteAddress: '203.0.113.200' });
    const clientId = reg.json().client_id as string;
    const params = { client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', code_challenge: pkce().challenge, code_challenge_method: 'S256' };
    const page = await ctx.app.inject({ method: 'GET', url: `/oauth/consent?${new URLSearchParams(params)}`, headers: B.session });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().profiles.map((p: { _id: string }) => p._id)).toEqual([bProfile]);
    const consent = (profileIds: string[]) => ctx.app.inject({ method: 'POST', url: '/oauth/consent', headers: B.session, payload: { params, allow: true, profileIds, capabilities: ['read'] } });
    for (const profileIds of [[aProfile], [bProfile, aProfile]]) {
      const foreign = await consent(profileIds);
      expect(foreign.statusCode, foreign.body).toBe(400);
      expect(foreign.json().details.fields).toHaveProperty('profileIds');
      const unknown = await consent(profileIds.map((p) => (p === aProfile ? newId() : p)));
      const shape = (r: typeof foreign) => JSON.stringify(r.json().details).replace(/[0-9a-f]{24} is not/g, 'ID is not');
      expect(shape(foreign)).toBe(shape(unknown));
    }
    expect((await ctx.db.query('SELECT count(*)::int AS n FROM oauth_grants WHERE client_id = $1', [clientId])).rows[0].n).toBe(0);
  });

  it('B\'s client cannot redeem A\'s code, nor A\'s client B\'s code; both still work for their own client', async () => {
    const aCode = await authorize(A, [aProfile]);
    const bCode = await authorize(B, [bProfile]);
    const exchange = (code: string, clientId: string, verifier: string) => form('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    for (const [code, clientId, verifier] of [[aCode.code, bGrant.clientId, aCode.verifier], [bCode.code, aGrant.clientId, bCode.verifier]]) {
      const res = await exchange(code, clientId, verifier);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('invalid_grant');
      expect(res.body).not.toContain('hma_');
    }
    const own = await exchange(aCode.code, aCode.clientId, aCode.verifier);
    expect(own.statusCode, own.body).toBe(200);
    const list = await callTool(own.json().access_token, 'list_profiles', {});
    expect((list.answer.profiles as { _id: string }[]).map((p) => p._id)).toEqual([aProfile]);
  });

  it('B\'s client cannot refresh or revoke A\'s tokens: A\'s tokens keep working', async () => {
    const aRows = async () => (await ctx.db.query('SELECT * FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE g.client_id = $1 ORDER BY t.created_at, t.kind', [aGrant.clientId])).rows
      .map(({ last_used_at: _l, ...r }) => r);
    const before = await aRows();
    const refresh = await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: aTokens.refresh, client_id: bGrant.clientId });
    expect(refresh.statusCode, refresh.body).toBe(400);
    expect(refresh.json().error).toBe('invalid_grant');
    expect(refresh.body).not.toContain('hma_');
    for (const token of [aTokens.refresh, aTokens.access]) {
      // RFC 7009 section 2.2: answered 200 whatever the token, but nothing of another client's is revoked.
      const res = await form('/oauth/revoke', { token, client_id: bGrant.clientId });
      expect(res.statusCode).toBe(200);
    }
    // B's own tokens revoke nothing of A's either (a grant is its client's and tenant's).
    expect((await form('/oauth/revoke', { token: bTokens.refresh, client_id: aGrant.clientId })).statusCode).toBe(200);
    expect(await aRows()).toEqual(before);
    expect((await rpc(aTokens.access, 'tools/list')).statusCode).toBe(200);
    expect((await rpc(bTokens.access, 'tools/list')).statusCode).toBe(200);
    const own = await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: aTokens.refresh, client_id: aGrant.clientId });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('B cannot list or disconnect A\'s connected app', async () => {
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/me/connected-apps', headers: { authorization: `Bearer ${B.key}` } });
    expect(list.body).not.toContain(aGrant.clientId);
    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/me/connected-apps/${aGrant.clientId}`, headers: { authorization: `Bearer ${B.key}` } });
    expect(del.statusCode).toBe(404);
    expect((await rpc(xTokens.access, 'tools/list')).statusCode).toBe(200);
  });
});
