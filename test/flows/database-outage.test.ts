/**
 * A PostgreSQL crash under a publishing burst (docs/decisions/0045-fencing-and-late-landings.md
 * item 9): the worker's database goes down for 9 s while visible calls are in flight, then comes back.
 * A publish the platform answered while the database was down is written down seconds after the
 * database returns (its finish is retried with backoff), and a run the outage interrupted before its
 * visible call gives its target back; neither waits for its lease (30 s) and the reconciler.
 *
 * The worker runs in this process (`startWorker`, src/publishing/worker.ts) on a pool of its own
 * that reaches the test database through test/support/crash-proxy.ts: the crash resets every
 * connection and refuses new ones, as a crashed server does, and the restart listens on the same
 * port. The platform is test/support/scripted-adapter.ts, whose "#slow" commit takes 500 ms and
 * which records every commit: exactly once is counted there. The test reads the database directly.
 */
import { createAccountsRepository } from '../../src/modules/accounts/repository.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublisher, type Publisher } from '../../src/publishing/publisher.ts';
import { startWorker, type Worker } from '../../src/publishing/worker.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import type { AccountContext, AdapterContext, PublishRequest, PublishResult } from '../../src/platforms/types.ts';
import { createDb, type Db } from '../../src/storage/db.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { startCrashProxy, type CrashProxy } from '../support/crash-proxy.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

const POSTS = 120;
const CONCURRENCY = 20;
const OUTAGE_MS = 9_000;
/**
 * Every publish the outage interrupted is written down within this long after the database is back.
 * The finish retries back off to 5 s at most (src/publishing/publisher.ts `persist`); before the fix
 * they waited for their lock to run out (60 s then; a lease lasts 30 s now, 36 s over a visible call) and the reconciler.
 */
const BOUND_AFTER_RETURN_MS = 12_000;
/** How long the test waits for the burst to drain after the database is back (the bound plus the rest of the burst). */
const WAIT_AFTER_RETURN_MS = BOUND_AFTER_RETURN_MS + 8_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The scripted platform (which counts the commits in flight), also telling when each one was answered. */
class TimedAdapter extends ScriptedAdapter {
  /** Post text -> when its (first) commit was answered, ms since the epoch. */
  readonly answeredAt = new Map<string, number>();
  override async commit(ctx: AdapterContext, account: AccountContext, req: PublishRequest, prepared: Record<string, unknown>): Promise<PublishResult> {
    const result = await super.commit(ctx, account, req, prepared);
    if (!this.answeredAt.has(req.text)) this.answeredAt.set(req.text, Date.now());
    return result;
  }
}

let ctx: TestContext;
let adapter: TimedAdapter;
let tenant: Tenant;
let accountId: string;
let proxy: CrashProxy;
let workerDb: Db;
let worker: Worker | null = null;

beforeAll(async () => {
  adapter = new TimedAdapter();
  ctx = await createTestApp({ deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter }) } });
  tenant = await createTenant(ctx);
  accountId = await insertAccount(ctx, tenant, await createProfile(ctx, tenant));
  const u = new URL(ctx.databaseUrl);
  proxy = await startCrashProxy({ host: u.hostname, port: Number(u.port) });
  workerDb = createDb(proxy.urlFor(ctx.databaseUrl), { max: 10, applicationName: 'herald-worker' });
});

afterAll(async () => {
  await worker?.stop(2_000);
  await workerDb?.close();
  await proxy?.close();
  await ctx?.close();
});

describe('a database crash under a publishing burst', () => {
  it(`publishes ${POSTS} posts exactly once; those the ${OUTAGE_MS / 1000} s outage interrupted finish seconds after the database is back`, async () => {
    const run = Date.now().toString(36);
    const texts: string[] = [];
    for (let i = 0; i < POSTS; i += 10) {
      await Promise.all(Array.from({ length: Math.min(10, POSTS - i) }, async (_, k) => {
        const text = `outage ${run} ${i + k} #slow`;
        const res = await ctx.app.inject({
          method: 'POST', url: '/v1/posts', headers: tenant.headers,
          payload: { content: text, scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] },
        });
        expect(res.statusCode, res.body).toBe(201);
        texts.push(text);
      }));
    }

    const logged = new Map<string, number>();
    const log = (_o: object, m?: string) => { const k = (m ?? '').replace(/;.*/, ''); logged.set(k, (logged.get(k) ?? 0) + 1); };
    const s = ctx.services;
    const publisher = createPublisher({
      db: workerDb, accounts: createAccountsRepository(workerDb, s.secrets), adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock,
      workerId: `worker-outage-${process.pid}-${run}`, log: { warn: log, error: log },
    });
    // Claims are counted so that the crash lands between two of them: a claim whose answer the crash
    // cut off after the database had committed it leaves targets this worker never knew it held, which
    // wait for their lease whatever the worker does (a real crash rolls back what it had not committed).
    let claiming = 0;
    const counted: Publisher = {
      ...publisher,
      claimDue: async (limit: number) => {
        claiming++;
        try { return await publisher.claimDue(limit); } finally { claiming--; }
      },
    };
    // Targets given back (a run the outage interrupted before its visible call), counted where the
    // publisher gives them back (the repository it exposes is the one it uses).
    let givenBack = 0;
    const repo = publisher.targets;
    const giveBack = repo.giveBack as typeof repo.giveBack | undefined;
    if (giveBack) repo.giveBack = async (ids, workerId) => { const back = await giveBack.call(repo, ids, workerId); givenBack += back.length; return back; };
    worker = await startWorker({ db: workerDb, publisher: counted, concurrency: CONCURRENCY, pollMs: 100, staleMs: ctx.config.workerStaleMs });

    const { rows: due } = await ctx.db.query<{ id: string }>(
      `UPDATE post_targets t SET run_at = now() FROM posts p WHERE p.id = t.post_id AND p.tenant_id = $1 RETURNING t.id`, [tenant.userId]);
    expect(due).toHaveLength(POSTS);
    publisher.notifyDue(new Date());

    // Crash once a full set of commits is in flight (and no claim is).
    const deadline = Date.now() + 20_000;
    while (!(adapter.inFlight >= CONCURRENCY / 2 && adapter.commits.length >= CONCURRENCY && claiming === 0) && Date.now() < deadline) await sleep(1);
    const inFlightAtCrash = adapter.inFlight;
    const committedBeforeCrash = adapter.commits.length;
    const crashAt = Date.now();
    const closed = proxy.down();
    const { rows: [atCrash] } = await ctx.db.query<{ published: number; publishing: number }>(
      `SELECT count(*) FILTER (WHERE t.status = 'published')::int AS published, count(*) FILTER (WHERE t.status = 'publishing')::int AS publishing
         FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE p.tenant_id = $1`, [tenant.userId]);
    await closed;
    await sleep(OUTAGE_MS);
    await proxy.up();
    const returnAt = Date.now();

    // Wait for the burst to drain.
    const published = async () => (await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE p.tenant_id = $1 AND t.status = 'published'`, [tenant.userId])).rows[0].n;
    let allPublishedAt: number | null = null;
    while (Date.now() < returnAt + WAIT_AFTER_RETURN_MS) {
      if ((await published()) === POSTS) { allPublishedAt = Date.now(); break; }
      await sleep(100);
    }

    const { rows: targets } = await ctx.db.query<{ content: string; status: string; attempts: number; platform_post_id: string | null; published_ms: string | null; error_message: string | null }>(
      `SELECT p.content, t.status, t.attempts, t.platform_post_id, t.error_message, (extract(epoch FROM t.published_at) * 1000)::bigint AS published_ms
         FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE p.tenant_id = $1`, [tenant.userId]);
    const byText = new Map(targets.map((t) => [t.content, t]));
    const commitsOf = new Map<string, number>();
    for (const c of adapter.commits) commitsOf.set(c.text, (commitsOf.get(c.text) ?? 0) + 1);
    const duplicates = texts.reduce((n, t) => n + Math.max(0, (commitsOf.get(t) ?? 0) - 1), 0);
    const lost = texts.filter((t) => !commitsOf.has(t)).length;
    const notPublished = targets.filter((t) => t.status !== 'published');
    // The publishes the outage interrupted between the platform's answer and its finish.
    const interrupted = texts.filter((t) => { const at = adapter.answeredAt.get(t); return at !== undefined && at >= crashAt && at < returnAt; });
    // Milliseconds from the database's return to each one's finish (published_at, by the database's clock
    // on this host); null: not finished.
    const lateness = interrupted.map((t) => {
      const ms = byText.get(t)?.published_ms;
      return ms == null ? null : Number(ms) - returnAt;
    });
    const finished = lateness.filter((ms) => ms !== null);
    const attempts: Record<string, number> = {};
    for (const t of targets) attempts[t.attempts] = (attempts[t.attempts] ?? 0) + 1;
    const summary = {
      posts: POSTS, concurrency: CONCURRENCY, outageMs: returnAt - crashAt,
      atCrash: { committed: committedBeforeCrash, commitsInFlight: inFlightAtCrash, ...atCrash },
      interruptedAfterTheirVisibleCall: interrupted.length, givenBack,
      interruptedFinishedAfterReturnMs: finished.length ? { min: Math.min(...finished), max: Math.max(...finished) } : null,
      interruptedUnfinished: lateness.length - finished.length,
      allPublishedAfterReturnMs: allPublishedAt === null ? null : allPublishedAt - returnAt,
      notPublished: notPublished.length, duplicates, lost, attempts, workerLog: Object.fromEntries(logged),
    };
    process.stdout.write(`database outage: ${JSON.stringify(summary)}\n`);

    // The crash did land between visible calls and their finishes.
    expect(inFlightAtCrash).toBeGreaterThan(0);
    expect(interrupted.length).toBeGreaterThanOrEqual(inFlightAtCrash);
    // Each interrupted publish written down seconds after the database returned, not after its lease.
    expect(lateness.filter((ms) => ms === null || ms >= BOUND_AFTER_RETURN_MS)).toEqual([]);
    // Exactly once, on the platform and in Herald.
    expect({ duplicates, lost, notPublished: notPublished.map((t) => `${t.content}: ${t.status} ${t.error_message ?? ''}`) }).toEqual({ duplicates: 0, lost: 0, notPublished: [] });
    for (const t of texts) expect(byText.get(t)?.platform_post_id).toMatch(/^scripted-\d+$/);
    // The outage is not the platform's failure: it spent no post's attempt (a run it interrupted
    // before the visible call gave its target back, which gives the claim's attempt back).
    expect(attempts).toEqual({ 1: POSTS });
  }, 90_000);
});
