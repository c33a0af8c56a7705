/**
 * The "done" path in one flow, in sandbox mode: an MCP client (the official SDK's)
 * connects to /mcp by OAuth (registration, the consent answered by the signed-in owner, PKCE,
 * token), lists its tools, schedules a post on a sandbox X account a few seconds ahead, and a
 * worker publishes it to the X simulator. (The consent page itself in a browser is
 * test/mcp/mcp-oauth.test.ts; here its calls are made over HTTP with the session.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { MemoryOAuthProvider } from '../support/mcp-oauth-client.ts';
import { SANDBOX_SIMULATORS, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { createPublisher } from '../../src/publishing/publisher.ts';
import { startWorker, type Worker } from '../../src/publishing/worker.ts';
import { createProfile, createTestApp, type TestContext } from '../support/app.ts';
import { freePort, waitFor } from '../support/net.ts';

const REDIRECT = 'http://127.0.0.1:9/cb';

let sandbox: Sandbox;
let ctx: TestContext;
let worker: Worker;
let base: string;
let profileId: string;
let accountId: string;
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  sandbox = await startSandbox({ simulators: SANDBOX_SIMULATORS.filter((s) => s.platform === 'twitter'), bluesky: false });
  const port = await freePort();
  ctx = await createTestApp({ listen: true, env: { HERALD_SANDBOX: 'on', PORT: String(port) }, deps: { sandbox } });
  base = `http://127.0.0.1:${port}`;
  const s = ctx.services;
  const publisher = createPublisher({ db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock, workerId: `worker-mcp-${process.pid}` });
  worker = await startWorker({ db: ctx.db, publisher, concurrency: 2, pollMs: 200, staleMs: 5_000 });
  const password = 'a long enough password 1';
  const { userId } = await s.users.createRootUser({ email: 'sandbox-owner@example.test', password, name: 'Owner', plan: 'advanced' });
  const key = await s.apiKeys.create({ tenantId: userId, userId }, { name: 'setup' });
  const headers = { authorization: `Bearer ${key.key}` };
  profileId = await createProfile(ctx, { userId, apiKey: key.key, headers }, 'Sandbox brand');
  // Connect the sandbox X account through its simulator's authorize page.
  const start = await ctx.app.inject({ method: 'GET', url: `/v1/connect/twitter?profileId=${profileId}`, headers });
  const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
  const callback = new URL(consent.headers.get('location')!);
  await ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
  accountId = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers })).json().accounts[0]._id;
  const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ email: 'sandbox-owner@example.test', password }) });
  session = { cookie: login.headers.getSetCookie()[0].split(';')[0], csrf: ((await login.json()) as { csrfToken: string }).csrfToken };
});
afterAll(async () => {
  await worker?.stop();
  await ctx?.close();
  await sandbox?.close();
});

describe('an MCP client over OAuth schedules a post that publishes (sandbox)', () => {
  it('connects by OAuth, lists tools, schedules on the sandbox X account, and the worker publishes it', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT, { client_name: 'Sandbox Assistant' });
    const first = new Client({ name: 'sandbox-assistant', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
    // The browser's part: the authorization endpoint sends it to the consent page, where the owner allows.
    const authorize = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const consentPage = new URL(authorize.headers.get('location')!, base);
    expect(consentPage.pathname).toBe('/dashboard/oauth/consent');
    const info = await fetch(`${base}/oauth/consent${consentPage.search}`, { headers: { cookie: session.cookie } });
    expect(((await info.json()) as { client: { clientName: string } }).client.clientName).toBe('Sandbox Assistant');
    const allow = await fetch(`${base}/oauth/consent`, {
      method: 'POST', headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ params: Object.fromEntries(consentPage.searchParams), allow: true, profileIds: [profileId], capabilities: ['read', 'publish'] }),
    });
    expect(allow.status).toBe(200);
    const code = new URL(((await allow.json()) as { redirectTo: string }).redirectTo).searchParams.get('code')!;
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
    await transport.finishAuth(code);

    const client = new Client({ name: 'sandbox-assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['schedule_post', 'publish_post_now', 'get_post']));
    expect(names).not.toContain('create_draft');
    const when = new Date(Date.now() + 3_000).toISOString();
    const res = await client.callTool({ name: 'schedule_post', arguments: { content: `Scheduled by an assistant over MCP ${Date.now()}`, scheduledFor: when, platforms: [{ platform: 'twitter', accountId }] } });
    expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
    const postId = JSON.parse((res.content as { text: string }[])[0].text).post._id as string;
    const published = await waitFor(async () => {
      const got = await client.callTool({ name: 'get_post', arguments: { postId } });
      const post = JSON.parse((got.content as { text: string }[])[0].text).post;
      return post.status === 'published' ? post : null;
    }, { timeoutMs: 30_000, intervalMs: 500, what: 'the scheduled post to publish' });
    expect(published.platforms[0]).toMatchObject({ platform: 'twitter', status: 'published', platformPostId: expect.stringMatching(/^\d+$/) });
    await client.close();
  });
});
