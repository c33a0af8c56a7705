/**
 * /mcp is stateless (docs/decisions/0047-mcp-server.md): two `herald api` processes on one
 * PostgreSQL behind a proxy that sends each HTTP request to the other process than the one before
 * (a round-robin load balancer at its most unkind), and the official SDK's client works through
 * it: with an API key (initialize on one process, the next message on the other, a draft created
 * on one and read on the other) and by OAuth (discovery, registration, the consent's calls, the
 * code exchange and the tool calls each landing on either process; codes and tokens live in the
 * database only).
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { MemoryOAuthProvider } from '../support/mcp-oauth-client.ts';
import { createProfile, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { freePort, waitFor } from '../support/net.ts';
import { spawnHerald } from '../support/sim-process.ts';

const PASSWORD = 'a long enough password 1';

let ctx: TestContext;
let tenant: Tenant;
let profileId: string;
let accountId: string;
let base: string;
const apis: string[] = [];
const children = new Set<ChildProcess>();
/** Every request the proxy passed on: which process (0 or 1), the path, and the JSON-RPC method and tool of an /mcp POST. */
const served: { api: number; path: string; rpc?: string }[] = [];
/** JSON-RPC messages (POST /mcp) and other requests alternate each on their own, so two messages in a row never meet the same process. */
const turns = { rpc: 0, other: 0 };

const proxy = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const isRpc = req.url === '/mcp' && req.method === 'POST';
    const api = isRpc ? turns.rpc++ % 2 : turns.other++ % 2;
    let rpc: string | undefined;
    if (isRpc) {
      try {
        const m = JSON.parse(body.toString('utf8')) as { method?: string; params?: { name?: string } };
        rpc = m.params?.name ? `${m.method} ${m.params.name}` : m.method;
      } catch { /* not JSON: passed on as it is */ }
    }
    served.push({ api, path: (req.url ?? '').split('?')[0], rpc });
    const target = new URL(apis[api]);
    const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', (err) => { res.writeHead(502).end(String(err)); });
    up.end(body);
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  ctx = await createTestApp();
  const { userId } = await ctx.services.users.createRootUser({ email: 'two-processes@example.test', password: PASSWORD, name: 'Owner', plan: 'advanced' });
  const key = await ctx.services.apiKeys.create({ tenantId: userId, userId }, { name: 'k' });
  tenant = { userId, apiKey: key.key, headers: { authorization: `Bearer ${key.key}` } };
  profileId = await createProfile(ctx, tenant, 'Brand');
  accountId = await insertAccount(ctx, tenant, profileId, 'bluesky');
  // Both processes: the same PostgreSQL and secret key, and the proxy as their public URL (the OAuth issuer and resource).
  const env = {
    DATABASE_URL: ctx.databaseUrl, HERALD_SECRET_KEY: ctx.secretKeyHex, HERALD_DATA_DIR: ctx.dataDir, HERALD_PUBLIC_URL: base,
    HERALD_LOG_LEVEL: 'warn', HERALD_RATE_LIMIT: 'off', HERALD_DB_POOL_SIZE: '5',
  };
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    spawnHerald('api', { ...env, PORT: String(port) }, children);
    apis.push(`http://127.0.0.1:${port}`);
  }
  // Listening (GET /health answers 503 without a worker process: any answer will do).
  for (const api of apis) await waitFor(async () => (await fetch(`${api}/health`).catch(() => null)) !== null, { timeoutMs: 60_000, what: `${api} to start` });
}, 120_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await waitFor(async () => children.size === 0, { timeoutMs: 15_000, what: 'the api processes to stop' }).catch(() => { for (const c of children) c.kill('SIGKILL'); });
  proxy.close();
  await ctx?.close();
});

const json = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);

/** The /mcp messages served since `from`, each with its process. */
const mcpSince = (from: number) => served.slice(from).filter((s) => s.path === '/mcp' && s.rpc);

describe('/mcp behind two herald api processes, each request on the other one', () => {
  it('with an API key: initialize, tools/list and tool calls alternate between the processes and all work', async () => {
    const from = served.length;
    const client = new Client({ name: 'two-processes', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: tenant.headers } }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('create_draft');
    const created = await client.callTool({ name: 'create_draft', arguments: { content: 'Drafted across two processes', platforms: [{ platform: 'bluesky', accountId }] } });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const postId = json(created).post._id as string;
    const got = await client.callTool({ name: 'get_post', arguments: { postId } });
    expect(json(got).post).toEqual(json(created).post);
    const listed = await client.callTool({ name: 'list_posts', arguments: { profileId } });
    expect(json(listed).posts.map((p: { _id: string }) => p._id)).toContain(postId);
    await client.close();

    const calls = mcpSince(from);
    expect(calls.map((c) => c.rpc)).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call create_draft', 'tools/call get_post', 'tools/call list_posts']);
    // Each message on the other process than the one before: the draft was created on one and read on the other.
    for (let i = 1; i < calls.length; i++) expect(calls[i].api, `${calls[i].rpc}`).not.toBe(calls[i - 1].api);
  });

  it('by OAuth: discovery, registration, consent, code exchange and tool calls on either process', async () => {
    const from = served.length;
    const provider = new MemoryOAuthProvider('http://127.0.0.1:9/cb', { client_name: 'Two-process Assistant', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
    await expect(new Client({ name: 'two-processes', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider })))
      .rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl!.origin).toBe(base);
    // The browser's part, through the proxy: the authorization endpoint, the sign-in, the consent page's two calls.
    const authorize = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const consentPage = new URL(authorize.headers.get('location')!, base);
    const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ email: 'two-processes@example.test', password: PASSWORD }) });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0].split(';')[0];
    const csrf = ((await login.json()) as { csrfToken: string }).csrfToken;
    const info = await fetch(`${base}/oauth/consent${consentPage.search}`, { headers: { cookie } });
    expect(((await info.json()) as { client: { clientName: string } }).client.clientName).toBe('Two-process Assistant');
    const allow = await fetch(`${base}/oauth/consent`, {
      method: 'POST', headers: { cookie, 'x-csrf-token': csrf, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ params: Object.fromEntries(consentPage.searchParams), allow: true, profileIds: [profileId], capabilities: ['read', 'drafts'] }),
    });
    expect(allow.status).toBe(200);
    const code = new URL(((await allow.json()) as { redirectTo: string }).redirectTo).searchParams.get('code')!;
    await new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }).finishAuth(code);
    expect(provider.saved?.access_token).toMatch(/^hma_/);

    const client = new Client({ name: 'two-processes', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('create_draft');
    expect(names).not.toContain('schedule_post');
    const created = await client.callTool({ name: 'create_draft', arguments: { content: 'Drafted by OAuth across two processes', platforms: [{ platform: 'bluesky', accountId }] } });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const got = await client.callTool({ name: 'get_post', arguments: { postId: json(created).post._id } });
    expect(json(got).post.content).toBe('Drafted by OAuth across two processes');
    await client.close();

    // Every step met both processes: the OAuth endpoints and /mcp each served by the two.
    const steps = served.slice(from);
    for (const path of ['/mcp', '/.well-known/oauth-authorization-server', '/oauth/register', '/oauth/authorize', '/oauth/consent', '/oauth/token']) {
      expect(steps.some((s) => s.path === path), path).toBe(true);
    }
    const calls = mcpSince(from);
    expect(new Set(calls.map((c) => c.api))).toEqual(new Set([0, 1]));
    const byName = (name: string) => calls.find((c) => c.rpc === `tools/call ${name}`)!;
    expect(byName('create_draft').api).not.toBe(byName('get_post').api);
  });
});
