/**
 * Scale-out: two `herald api` and two `herald worker` processes on one PostgreSQL (the
 * deployment the README describes), directly or through a pooler (`database`). 1,000 posts are
 * created through both API processes, due within the same three seconds; one worker is killed with
 * SIGKILL while it publishes. Then, counted on the platform's side (the X simulator in its own
 * process): every post exists exactly once; and a webhook receiver here, which checks every
 * signature, got `post.published` for every post (at least once; the same event id when sent again).
 * Used by test/flows/scale-out.test.ts and scale-out-pgbouncer.test.ts.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/modules/webhooks/signature.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from './app.ts';
import { freePort, waitFor } from './net.ts';
import { oauthConnect } from './oauth.ts';
import { kill9, spawnHerald, startSimProcess, type SimProcess } from './sim-process.ts';

const POSTS = 1_000;

/** Where the Herald processes reach the database: environment over the direct one's, and how to stop it. */
export interface ScaleOutDatabase {
  env: Record<string, string>;
  /** A line for the printed counts (the pooler's version and mode). */
  describe: string;
  stop(): Promise<void>;
}

/**
 * Registers the suite (hooks and the one test). `database` puts something between the processes and
 * PostgreSQL (a pooler); the test's own checks read PostgreSQL directly.
 */
export function scaleOutSuite(opts: { title: string; label: string; database?: (databaseUrl: string) => Promise<ScaleOutDatabase> }): void {
  let database: ScaleOutDatabase | null = null;
  let x: SimProcess<{ url: string; clientId: string; clientSecret: string }>;
  let ctx: TestContext;
  let tenant: Tenant;
  let accountId: string;
  let env: Record<string, string>;
  const apis: string[] = [];
  const children = new Set<ChildProcess>();

  /** Deliveries the receiver accepted: event id -> post id, and every signature check. */
  const events = new Map<string, string>();
  let badSignatures = 0;
  let requests = 0;
  let secret = '';
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const raw = Buffer.concat(chunks).toString('utf8');
      const ok = verifySignature({ secret, body: raw, timestamp: req.headers['x-herald-timestamp'] as string, signature: req.headers['x-herald-signature'] as string }).ok;
      if (!ok) { badSignatures++; res.writeHead(401).end(); return; }
      const body = JSON.parse(raw) as { id: string; event: string; post: { id: string; status: string } };
      if (body.event === 'post.published' && body.post.status === 'published') events.set(body.id, body.post.id);
      res.writeHead(200).end('ok');
    });
  });

  const herald = (role: 'api' | 'worker', extra: Record<string, string> = {}): ChildProcess => spawnHerald(role, { ...env, ...extra }, children);

  const count = async (sql: string) => (await ctx.db.query<{ n: number }>(sql, [tenant.userId])).rows[0].n;

  beforeAll(async () => {
    // Each tweet takes 100 ms on the platform, so the burst lasts long enough to kill a worker in it.
    x = await startSimProcess('sim/twitter/server.ts', { SIM_TWEET_LIMIT: '100000', SIM_TWEET_DELAY_MS: '100' });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const platformEnv = {
      HERALD_TWITTER_CLIENT_ID: x.info.clientId, HERALD_TWITTER_CLIENT_SECRET: x.info.clientSecret,
      HERALD_TWITTER_API_URL: x.info.url, HERALD_TWITTER_AUTH_URL: x.info.url,
    };
    ctx = await createTestApp({ env: { ...platformEnv, HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' } });
    tenant = await createTenant(ctx);
    const profileId = await createProfile(ctx, tenant);
    await oauthConnect(ctx, tenant, 'twitter', profileId);
    accountId = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts[0]._id;
    const hook = await ctx.app.inject({
      method: 'POST', url: '/v1/webhooks/settings', headers: tenant.headers,
      payload: { name: 'scale-out', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['post.published'] },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    secret = hook.json().webhook.secret;

    // Every process: the same PostgreSQL, the same HERALD_SECRET_KEY (tokens and webhook secrets are sealed with it).
    env = {
      ...platformEnv, DATABASE_URL: ctx.databaseUrl, HERALD_SECRET_KEY: ctx.secretKeyHex, HERALD_DATA_DIR: ctx.dataDir,
      HERALD_WORKER_POLL_MS: '200', HERALD_WORKER_STALE_MS: '3000', HERALD_WORKER_CONCURRENCY: '25', HERALD_LOG_LEVEL: 'warn',
      HERALD_ALLOW_PRIVATE_URLS: 'true', HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true', HERALD_RATE_LIMIT: 'off', HERALD_DB_POOL_SIZE: '10',
      // X answers within 100 ms here: a request cannot land later than 3 s after it was sent (decision 0045).
      HERALD_COMMIT_SETTLE_MS: '3000',
    };
    if (opts.database) {
      database = await opts.database(ctx.databaseUrl);
      env = { ...env, ...database.env };
    }
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      herald('api', { PORT: String(port) });
      apis.push(`http://127.0.0.1:${port}`);
    }
    // Listening (GET /health answers 503 until a worker process heartbeats).
    for (const api of apis) await waitFor(async () => (await fetch(`${api}/health`).catch(() => null)) !== null, { timeoutMs: 60_000, what: `${api} to start` });
  }, 180_000);

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    receiver.close();
    await ctx?.close();
    await x?.stop();
    await database?.stop();
  });

  describe(opts.title, () => {
    it(`publishes ${POSTS} posts exactly once with a worker killed mid-burst, and a signed webhook for each`, async () => {
      const workers = [herald('worker'), herald('worker')];
      const run = Date.now().toString(36);
      // Due in the same three seconds, after the posts are created (creating 1,000 takes 5-15 s on
      // two shared cores; posts created later than their time are due at once, in the same burst).
      const due = Date.now() + 12_000;
      const texts = new Map<string, string>();
      let next = 0;
      const create = async (lane: number) => {
        for (let i = next++; i < POSTS; i = next++) {
          const text = `scale-out ${run} #${i}`;
          const res = await fetch(`${apis[i % 2]}/v1/posts`, {
            method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' },
            body: JSON.stringify({ content: text, scheduledFor: new Date(due + Math.floor((i / POSTS) * 3_000)).toISOString(), platforms: [{ platform: 'twitter', accountId }] }),
          });
          expect(res.status, `lane ${lane}: ${await res.clone().text()}`).toBe(201);
          texts.set(((await res.json()) as { post: { _id: string } }).post._id, text);
        }
      };
      const t0 = Date.now();
      await Promise.all(Array.from({ length: 16 }, (_, lane) => create(lane)));
      const createdMs = Date.now() - t0;

      const published = () => count(`SELECT count(*)::int AS n FROM post_targets WHERE tenant_id = $1 AND status = 'published'`);
      // Kill one worker in the middle of the burst, while it has platform calls in flight.
      await waitFor(async () => (await published()) >= POSTS / 4, { timeoutMs: 60_000, intervalMs: 20, what: 'a quarter published' });
      const inFlight = await count(`SELECT count(*)::int AS n FROM post_targets t JOIN workers w ON w.id = t.locked_by
                                    WHERE t.tenant_id = $1 AND t.status = 'publishing' AND w.pid = ${workers[0].pid}`);
      await kill9(workers[0]);
      const atKill = await published();

      const finished = () => count(`SELECT count(*)::int AS n FROM post_targets WHERE tenant_id = $1 AND status IN ('published', 'failed')`);
      await waitFor(async () => (await finished()) >= POSTS, { timeoutMs: 120_000, intervalMs: 200, what: 'every post finished' });
      const publishedMs = Date.now() - due;
      await waitFor(async () => new Set(events.values()).size >= POSTS, { timeoutMs: 60_000, intervalMs: 100, what: 'a webhook for every post' });
      const deliveredMs = Date.now() - due;

      // The truth, from the platform: each text exactly once.
      const state = await (await fetch(`${x.info.url}/__sim/state`)).json() as { tweets: Array<{ id: string; text: string }>; duplicatesRefused: number };
      const onPlatform = new Map<string, number>();
      for (const t of state.tweets) onPlatform.set(t.text, (onPlatform.get(t.text) ?? 0) + 1);
      const copies = [...texts.values()].map((t) => onPlatform.get(t) ?? 0);
      const statuses = await ctx.db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM post_targets WHERE tenant_id = $1 GROUP BY status', [tenant.userId]);
      process.stdout.write(`${opts.label}: ${JSON.stringify({
        ...(database ? { database: database.describe } : {}),
        posts: POSTS, createdMs, publishedMsAfterDue: publishedMs, webhooksMsAfterDue: deliveredMs, publishedWhenKilled: atKill, inFlightOfKilledWorker: inFlight, statuses: statuses.rows,
        tweets: state.tweets.length, duplicatesRefused: state.duplicatesRefused, webhookRequests: requests, webhookEvents: events.size,
      })}\n`);

      expect(texts.size).toBe(POSTS);
      expect(statuses.rows).toEqual([{ status: 'published', n: POSTS }]);
      expect(copies.filter((n) => n !== 1)).toEqual([]);
      expect(state.duplicatesRefused).toBe(0);
      expect(atKill).toBeLessThan(POSTS);
      // Webhooks: every signature valid, one post.published event per post (redeliveries reuse its id).
      expect(badSignatures).toBe(0);
      expect(new Set(events.values())).toEqual(new Set(texts.keys()));
      expect(events.size).toBe(POSTS);
      await kill9(workers[1]);
    }, 240_000);
  });
}
