/**
 * /mcp with an API key, driven by the official SDK's client over real HTTP: the tools are the
 * /v1 routes (same schemas, same permission checks, same idempotency and validation), errors come
 * back as tool errors carrying Herald's code and fields, and a key without a permission does not
 * list the tools that need it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let base: string;
let tenant: Tenant;
let profileId: string;
let accountId: string;

beforeAll(async () => {
  ctx = await createTestApp({ listen: true, env: { HERALD_RATE_LIMIT: 'on' } });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  tenant = await createTenant(ctx);
  profileId = await createProfile(ctx, tenant);
  accountId = await insertAccount(ctx, tenant, profileId);
});
afterAll(async () => { await ctx.close(); });

/** An SDK client connected to /mcp with `key`. */
async function connect(key: string, protocolVersion?: string): Promise<Client> {
  const client = new Client({ name: 'herald-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}) } },
  });
  await client.connect(transport);
  return client;
}

const json = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);
const text = (r: { contents: unknown[] }) => (r.contents[0] as { text: string }).text;

describe('/mcp with an API key', () => {
  it('answers 401 with the protected-resource metadata pointer without credentials, and refuses GET', async () => {
    const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="http:\/\/.+\/\.well-known\/oauth-protected-resource\/mcp"$/);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const bad = await fetch(`${base}/mcp`, { method: 'POST', headers: { authorization: 'Bearer sk_nope', 'content-type': 'application/json' }, body: '{}' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await fetch(`${base}/mcp`, { headers: { authorization: `Bearer ${tenant.apiKey}` } })).status).toBe(405);
  });

  it('lets a local browser inspector in (CORS, the 401 pointer readable) and refuses other origins', async () => {
    const pre = await fetch(`${base}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
    const unauth = await fetch(`${base}/mcp`, { method: 'POST', headers: { origin: 'http://localhost:6274', 'content-type': 'application/json' }, body: '{}' });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('access-control-expose-headers')).toContain('www-authenticate');
    const evil = await fetch(`${base}/mcp`, { method: 'POST', headers: { origin: 'https://evil.example', authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' }, body: '{}' });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${base}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  it('negotiates the current protocol revision and the 2025-03-26 one', async () => {
    const client = await connect(tenant.apiKey);
    expect(client.getServerVersion()?.name).toBe('herald');
    await client.close();
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST', headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
    }
  });

  it('lists every tool with annotations and the routes\' own schemas', async () => {
    const client = await connect(tenant.apiKey);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_profiles', 'create_draft', 'schedule_post', 'publish_post_now', 'unpublish_post', 'delete_post', 'get_post', 'validate_post']));
    const draft = tools.find((t) => t.name === 'create_draft')!;
    expect(draft.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(Object.keys(draft.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['content', 'platforms', 'scheduledFor', 'timezone', 'idempotencyKey']));
    expect(draft.inputSchema.properties).not.toHaveProperty('publishNow');
    expect(draft.description).toMatch(/IANA/);
    expect(tools.find((t) => t.name === 'unpublish_post')!.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((t) => t.name === 'get_post')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'get_post')!.inputSchema.required).toEqual(['postId']);
    await client.close();
  });

  it('creates a draft that is the post GET /v1/posts/{id} returns; the Idempotency-Key replays it', async () => {
    const client = await connect(tenant.apiKey);
    const args = { content: 'Drafted by an agent', platforms: [{ platform: 'bluesky', accountId }], idempotencyKey: 'mcp-draft-1' };
    const first = await client.callTool({ name: 'create_draft', arguments: args });
    expect(first.isError).toBeFalsy();
    const created = json(first).post;
    expect(created).toMatchObject({ isDraft: true, status: 'draft', content: 'Drafted by an agent' });
    const rest = await ctx.app.inject({ method: 'GET', url: `/v1/posts/${created._id}`, headers: tenant.headers });
    expect(rest.json().post).toEqual(created);
    const again = await client.callTool({ name: 'create_draft', arguments: args });
    expect(json(again).post._id).toBe(created._id);
    const got = await client.callTool({ name: 'get_post', arguments: { postId: created._id } });
    expect(json(got).post).toEqual(created);
    await client.close();
  });

  it('returns Herald\'s errors as tool errors with the code and the field', async () => {
    const client = await connect(tenant.apiKey);
    const tooLong = await client.callTool({ name: 'schedule_post', arguments: { content: 'x'.repeat(301), scheduledFor: '2030-01-01T09:00', timezone: 'Europe/Paris', platforms: [{ platform: 'bluesky', accountId }] } });
    expect(tooLong.isError).toBe(true);
    const body = json(tooLong);
    expect(body).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(Object.keys(body.details.fields).join(' ')).toMatch(/content|platforms/);
    const noTime = await client.callTool({ name: 'schedule_post', arguments: { content: 'hi', platforms: [{ platform: 'bluesky', accountId }] } });
    expect(json(noTime)).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { scheduledFor: [expect.stringMatching(/required/)] } } });
    const badZone = await client.callTool({ name: 'schedule_post', arguments: { content: 'hi', scheduledFor: '2030-01-01T09:00', timezone: 'Mars/Olympus', platforms: [{ platform: 'bluesky', accountId }] } });
    expect(json(badZone).details.fields).toHaveProperty('timezone');
    const unknownArg = await client.callTool({ name: 'create_draft', arguments: { content: 'hi', publishNow: true } });
    expect(json(unknownArg)).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { publishNow: ['is not an allowed field'] } } });
    const missing = await client.callTool({ name: 'get_post', arguments: { postId: '0123456789abcdef01234567' } });
    expect(json(missing)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });

  it('schedules a post, lists it, and counts tool calls against the plan\'s rate limit', async () => {
    const client = await connect(tenant.apiKey);
    const res = await client.callTool({ name: 'schedule_post', arguments: { content: 'Scheduled by an agent', scheduledFor: '2030-01-01T09:00', timezone: 'Europe/Paris', platforms: [{ platform: 'bluesky', accountId }] } });
    expect(res.isError).toBeFalsy();
    expect(json(res).post).toMatchObject({ status: 'scheduled', scheduledFor: '2030-01-01T08:00:00.000Z' });
    const before = (await ctx.db.query("SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE key = $1", [`api:${tenant.userId}`])).rows[0].n;
    const list = await client.callTool({ name: 'list_posts', arguments: { status: 'scheduled', profileId } });
    expect(json(list).posts.map((p: { content: string }) => p.content)).toContain('Scheduled by an agent');
    const after = (await ctx.db.query("SELECT coalesce(sum(count), 0)::int AS n FROM rate_limit_counters WHERE key = $1", [`api:${tenant.userId}`])).rows[0].n;
    expect(after).toBe(before + 1);
    await client.close();
  });

  it('lists a profile\'s named queues and schedules into one (decision 0062)', async () => {
    const slots = [{ dayOfWeek: 3, time: '07:45' }];
    await ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: tenant.headers, payload: { profileId, timezone: 'UTC', slots: [{ dayOfWeek: 1, time: '09:00' }] } });
    const made = await ctx.app.inject({ method: 'POST', url: '/v1/queue/slots', headers: tenant.headers, payload: { profileId, name: 'Agent mornings', timezone: 'UTC', slots } });
    expect(made.statusCode, made.body).toBe(201);
    const client = await connect(tenant.apiKey);
    const all = json(await client.callTool({ name: 'get_queue_slots', arguments: { profileId, all: 'true' } }));
    const queue = all.queues.find((q: { name: string }) => q.name === 'Agent mornings');
    expect(queue).toMatchObject({ isDefault: false, slots });
    const next = json(await client.callTool({ name: 'get_next_queue_slot', arguments: { profileId, queueId: queue._id } }));
    expect(next).toMatchObject({ queueId: queue._id, queueName: 'Agent mornings' });
    const res = await client.callTool({ name: 'schedule_post', arguments: { content: 'Queued by an agent', queuedFromProfile: profileId, queueId: queue._id, platforms: [{ platform: 'bluesky', accountId }] } });
    expect(res.isError).toBeFalsy();
    expect(json(res).post).toMatchObject({ status: 'scheduled', queueId: queue._id, scheduledFor: next.nextSlot });
    const now = await client.callTool({ name: 'publish_post_now', arguments: { content: 'x', queueId: queue._id } });
    expect(now.isError).toBe(true);
    await client.close();
  });

  it('a key without posts:write lists no writing tool and cannot call one; resources follow the key', async () => {
    const reader = await createTenant(ctx, { permissions: ['posts:read', 'profiles:read', 'accounts:read', 'queue:read'] });
    const client = await connect(reader.apiKey);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('list_posts');
    for (const n of ['create_draft', 'schedule_post', 'publish_post_now', 'unpublish_post', 'delete_post', 'retry_post', 'retry_post_target', 'get_usage']) expect(names).not.toContain(n);
    const refused = await client.callTool({ name: 'publish_post_now', arguments: { content: 'nope' } });
    expect(refused.isError).toBe(true);
    expect(json(refused)).toMatchObject({ status: 403, code: 'insufficient_permissions' });
    expect((await ctx.db.query('SELECT count(*)::int AS n FROM posts WHERE tenant_id = $1', [reader.userId])).rows[0].n).toBe(0);
    await client.close();
  });

  it('serves the platform rule table and each profile\'s queue schedule as resources', async () => {
    const client = await connect(tenant.apiKey);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['herald://rules', `herald://profiles/${profileId}/queue`]));
    const rules = JSON.parse(text(await client.readResource({ uri: 'herald://rules' })));
    expect(rules.bluesky.length).toBeGreaterThan(0);
    const queue = JSON.parse(text(await client.readResource({ uri: `herald://profiles/${profileId}/queue` })));
    expect(queue).toHaveProperty('exists');
    const other = await createTenant(ctx);
    const foreign = await createProfile(ctx, other);
    await expect(client.readResource({ uri: `herald://profiles/${foreign}/queue` })).rejects.toThrow(/not found/);
    await client.close();
  });
});
