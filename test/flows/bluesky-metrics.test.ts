/**
 * Bluesky metrics from a real local network: a PDS with a Bluesky AppView (@atproto/dev-env's
 * TestNetwork, on the test PostgreSQL), so likes, reposts and replies made by another account in
 * the test are counted by the AppView and read by Herald's refresh pass through the PDS
 * (app.bsky.feed.getPosts), as in production.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestNetwork } from '@atproto/dev-env';
import { createProfile, createTenant, createTestApp, createTestDatabase, type Tenant, type TestContext } from '../support/app.ts';

let network: TestNetwork;
let ctx: TestContext;
let tenant: Tenant;

async function xrpc<T>(base: string, nsid: string, init: { query?: Record<string, string>; body?: unknown; token?: string } = {}): Promise<T> {
  const url = new URL(`/xrpc/${nsid}`, base);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method: init.body !== undefined ? 'POST' : 'GET',
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${nsid}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

beforeAll(async () => {
  // TestNetwork asserts REDIS_HOST is set, but neither its PDS nor its AppView connects to Redis.
  process.env.REDIS_HOST ??= 'unused';
  network = await TestNetwork.create({ dbPostgresUrl: await createTestDatabase(), dbPostgresSchema: 'bsky', pds: { enableDidDocWithSession: true } });
  ctx = await createTestApp({ env: { HERALD_BLUESKY_SERVICE_URL: network.pds.url } });
  tenant = await createTenant(ctx, { addons: ['analytics'] });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await network?.close();
});

type Made = { did: string; accessJwt: string; handle: string; appPassword: string };

/** An account on the local PDS with an app password. */
async function account(h: string): Promise<Made> {
  const pds = network.pds.url;
  const a = await xrpc<{ did: string; accessJwt: string }>(pds, 'com.atproto.server.createAccount', { body: { handle: `${h}.test`, email: `${h}@example.com`, password: `pw-${h}-123456` } });
  const app = await xrpc<{ password: string }>(pds, 'com.atproto.server.createAppPassword', { body: { name: 'herald' }, token: a.accessJwt });
  return { ...a, handle: `${h}.test`, appPassword: app.password };
}

/** Writes a record as `who` (a like, a repost or a reply made on Bluesky by someone else). */
const write = (who: Made, collection: string, record: Record<string, unknown>) =>
  xrpc(network.pds.url, 'com.atproto.repo.createRecord', { token: who.accessJwt, body: { repo: who.did, collection, record: { ...record, createdAt: new Date().toISOString() } } });

describe('Bluesky metrics from the local AppView', () => {
  it('counts the likes, reposts and replies made on Bluesky; each refresh a snapshot; no views or impressions (null)', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const carol = await account('carol');
    const profileId = await createProfile(ctx, tenant);
    const c = await ctx.app.inject({ method: 'POST', url: '/v1/connect/bluesky/credentials', headers: tenant.headers, payload: { identifier: alice.handle, appPassword: alice.appPassword, state: `${tenant.userId}-${profileId}` } });
    expect(c.statusCode, c.body).toBe(200);
    const accountId = c.json().account._id;
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload: { content: 'count me on Bluesky', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] } });
    expect(res.statusCode, res.body).toBe(201);
    const postId = res.json().post._id;
    const uri = res.json().post.platforms[0].platformPostId as string;
    const [, , repo, collection, rkey] = uri.split('/');
    const { cid } = await xrpc<{ cid: string }>(network.pds.url, 'com.atproto.repo.getRecord', { query: { repo, collection, rkey } });
    const subject = { uri, cid };
    await write(bob, 'app.bsky.feed.like', { subject });
    await write(bob, 'app.bsky.feed.repost', { subject });
    await write(carol, 'app.bsky.feed.post', { text: 'nice one', reply: { root: subject, parent: subject } });
    await network.processAll();

    const view = async () => (await ctx.app.inject({ method: 'GET', url: `/v1/analytics?postId=${postId}`, headers: tenant.headers })).json();
    expect((await ctx.services.analytics.refreshDue()).refreshed).toBe(1);
    const first = await view();
    expect(first.platformAnalytics[0]).toMatchObject({ platform: 'bluesky', syncStatus: 'synced', platformPostId: uri });
    expect(first.analytics).toMatchObject({ likes: 1, shares: 1, comments: 1, impressions: null, views: null, reach: null, clicks: null });

    await write(carol, 'app.bsky.feed.like', { subject });
    await network.processAll();
    await ctx.db.query('UPDATE post_metrics SET next_refresh_at = now() - interval \'1 second\' WHERE post_id = $1', [postId]);
    await ctx.services.analytics.refreshDue();
    expect((await view()).analytics.likes).toBe(2);
    const { rows } = await ctx.db.query<{ likes: string }>(
      'SELECT s.likes FROM post_metric_snapshots s JOIN post_targets t ON t.id = s.target_id WHERE t.post_id = $1 ORDER BY s.captured_at', [postId]);
    expect(rows.map((r) => Number(r.likes))).toEqual([1, 2]);
  });
});
