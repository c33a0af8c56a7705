/**
 * Never lose a post, never publish one twice: a real worker process (`herald worker`)
 * is killed with SIGKILL in the middle of publishing, and a new worker finishes the job.
 *
 * A proxy between Herald and the local PDS holds the visible call
 * (com.atproto.repo.createRecord), so the kill lands exactly where it hurts:
 * - after the PDS created the record but before Herald saw the answer (outcome unknown:
 *   the next worker must find the record, not post again);
 * - before the request reached the PDS (nothing visible: the next worker must publish).
 */
import type { ChildProcess } from 'node:child_process';
import { kill9, spawnHerald } from '../support/sim-process.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBlueskyPds, type BlueskyPdsHarness, type PdsAccount } from '../../sim/bluesky-pds.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { readTarget } from '../support/harness.ts';
import { waitFor } from '../support/net.ts';

type Mode = 'pass' | 'forward-then-hold' | 'hold-before-forward';

interface Proxy {
  url: string;
  mode: Mode;
  /** Resolves when a createRecord request was held. */
  held: Promise<void>;
  armed(): void;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<Proxy> {
  let signal: () => void = () => {};
  const state: Proxy = {
    url: '', mode: 'pass', held: Promise.resolve(),
    armed() { state.held = new Promise((r) => { signal = r; }); },
    close: async () => {},
  };
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const isCommit = req.url?.startsWith('/xrpc/com.atproto.repo.createRecord');
      if (isCommit && state.mode === 'hold-before-forward') {
        held.push(res);
        signal();
        return;
      }
      const upstream = await fetch(target + req.url, {
        method: req.method,
        headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)) as [string, string][]),
        body: ['GET', 'HEAD'].includes(req.method ?? 'GET') ? undefined : body,
      });
      const out = Buffer.from(await upstream.arrayBuffer());
      if (isCommit && state.mode === 'forward-then-hold') {
        held.push(res);
        signal();
        return;
      }
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((r) => { for (const h of held) h.destroy(); server.closeAllConnections(); server.close(() => r()); });
  return state;
}

let pds: BlueskyPdsHarness;
let proxy: Proxy;
let ctx: TestContext;
let alice: PdsAccount;
let tenant: Tenant;
let accountId: string;
const children = new Set<ChildProcess>();

const startWorkerProcess = (): ChildProcess => spawnHerald('worker', {
  DATABASE_URL: ctx.databaseUrl, HERALD_SECRET_KEY: ctx.secretKeyHex, HERALD_DATA_DIR: ctx.dataDir,
  HERALD_WORKER_STALE_MS: '2000', HERALD_WORKER_POLL_MS: '100', HERALD_LOG_LEVEL: 'warn', HERALD_ALLOW_PRIVATE_URLS: 'true',
}, children, 'inherit');

const targetOf = (postId: string) => readTarget(ctx, postId);

async function schedule(text: string): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: tenant.headers,
    payload: { content: text, scheduledFor: new Date(Date.now() + 500).toISOString(), platforms: [{ platform: 'bluesky', accountId }] },
  });
  expect(res.statusCode).toBe(201);
  return res.json().post._id;
}

beforeAll(async () => {
  pds = await startBlueskyPds();
  proxy = await startProxy(pds.url);
  ctx = await createTestApp({ env: { HERALD_BLUESKY_SERVICE_URL: pds.url } });
  alice = await pds.createAccount('carol');
  tenant = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  const res = await ctx.app.inject({
    method: 'POST', url: '/v1/connect/bluesky/credentials', headers: tenant.headers,
    payload: { identifier: alice.handle, appPassword: alice.appPassword, state: profileId },
  });
  accountId = res.json().account._id;
  // Route this account's PDS traffic through the proxy.
  const { rows } = await ctx.db.query<{ credentials: string }>('SELECT credentials FROM accounts WHERE id = $1', [accountId]);
  const creds = ctx.services.secrets.openJson<Record<string, unknown>>(rows[0].credentials);
  await ctx.db.query('UPDATE accounts SET credentials = $2 WHERE id = $1', [accountId, ctx.services.secrets.sealJson({ ...creds, pdsUrl: proxy.url })]);
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await proxy?.close();
  await ctx?.close();
  await pds?.close();
});

describe('kill -9 of a worker mid-publish', () => {
  it('after the platform created the post: the next worker verifies and records it, no duplicate', async () => {
    proxy.mode = 'forward-then-hold';
    proxy.armed();
    const text = `crash after commit ${Date.now()}`;
    const postId = await schedule(text);
    const first = startWorkerProcess();
    await proxy.held;
    // The record exists on the PDS, Herald has not seen the answer yet.
    const onPds = (await pds.listPosts(alice.did)).filter((r) => r.value.text === text);
    expect(onPds).toHaveLength(1);
    expect((await targetOf(postId)).status).toBe('publishing');
    await kill9(first);

    proxy.mode = 'pass';
    const second = startWorkerProcess();
    const done = await waitFor(async () => {
      const t = await targetOf(postId);
      return t.status !== 'publishing' && t.status !== 'pending' ? t : null;
    }, { timeoutMs: 30_000 });
    expect(done.status).toBe('published');
    expect(done.platform_post_id).toBe(onPds[0].uri);
    expect((await pds.listPosts(alice.did)).filter((r) => r.value.text === text)).toHaveLength(1);
    const { rows: attempts } = await ctx.db.query<{ phase: string; outcome: string | null }>(
      `SELECT a.phase, a.outcome FROM publish_attempts a JOIN post_targets t ON t.id = a.target_id WHERE t.post_id = $1 ORDER BY a.id`, [postId]);
    expect(attempts).toEqual([{ phase: 'commit', outcome: null }, { phase: 'verify', outcome: 'published' }]);
    const post = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: tenant.headers })).json().post;
    expect(post.status).toBe('published');
    await kill9(second);
  });

  it('before the request reached the platform: the next worker publishes it exactly once', async () => {
    proxy.mode = 'hold-before-forward';
    proxy.armed();
    const text = `crash before commit ${Date.now()}`;
    const postId = await schedule(text);
    const first = startWorkerProcess();
    await proxy.held;
    expect((await pds.listPosts(alice.did)).filter((r) => r.value.text === text)).toHaveLength(0);
    await kill9(first);

    proxy.mode = 'pass';
    const second = startWorkerProcess();
    const done = await waitFor(async () => {
      const t = await targetOf(postId);
      return t.status === 'published' || t.status === 'failed' ? t : null;
    }, { timeoutMs: 30_000 });
    expect(done.status).toBe('published');
    const records = (await pds.listPosts(alice.did)).filter((r) => r.value.text === text);
    expect(records).toHaveLength(1);
    expect(done.platform_post_id).toBe(records[0].uri);
    await kill9(second);
  });
});
