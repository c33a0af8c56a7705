/**
 * The publishing state machine with a scripted platform: retries with backoff, an
 * unanswered commit verified before anything is sent again, and post status derivation.
 */
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs, createPublisher, MAX_ATTEMPTS, type Publisher } from '../../src/publishing/publisher.ts';
import { reconcile, releaseDeadLocalProcesses } from '../../src/publishing/reconciler.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { runDue as runDueTargets } from '../support/publishing.ts';
import { waitFor } from '../support/net.ts';
import { startWorker } from '../../src/publishing/worker.ts';

let ctx: TestContext;
let adapter: ScriptedAdapter;
let worker: Publisher;

beforeAll(async () => {
  adapter = new ScriptedAdapter();
  ctx = await createTestApp({ env: { HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }, deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter }) } });
  const s = ctx.services;
  worker = createPublisher({ db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock, workerId: `worker-pub-${process.pid}` });
  await ctx.db.query('INSERT INTO workers (id, hostname, pid) VALUES ($1, $2, $3)', [worker.workerId, 'test', process.pid]);
});
afterAll(async () => { await ctx.close(); });

/** Makes the post's pending targets due now and runs one worker pass over them. */
const runDue = (postId: string) => runDueTargets(ctx, worker, postId);

async function state(postId: string) {
  const { rows: [post] } = await ctx.db.query<{ status: string }>('SELECT status FROM posts WHERE id = $1', [postId]);
  const { rows: targets } = await ctx.db.query<{ status: string; attempts: number; error_message: string | null; error_category: string | null; platform_post_id: string | null }>(
    'SELECT status, attempts, error_message, error_category, platform_post_id FROM post_targets WHERE post_id = $1 ORDER BY position', [postId]);
  const { rows: attempts } = await ctx.db.query<{ phase: string; outcome: string | null }>(
    'SELECT a.phase, a.outcome FROM publish_attempts a JOIN post_targets t ON t.id = a.target_id WHERE t.post_id = $1 ORDER BY a.id', [postId]);
  return { post: post.status, targets, attempts };
}

async function scheduled(text: string, accounts: string[]) {
  const t = tenant!;
  const res = await ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: t.headers,
    payload: { content: text, scheduledFor: '2030-01-01T00:00:00Z', platforms: accounts.map((accountId) => ({ platform: 'bluesky', accountId })) },
  });
  expect(res.statusCode).toBe(201);
  return res.json().post._id as string;
}

let tenant: Awaited<ReturnType<typeof createTenant>> | undefined;
let acc1: string;
let acc2: string;

describe('publisher', () => {
  it('sets up', async () => {
    tenant = await createTenant(ctx);
    const profileId = await createProfile(ctx, tenant);
    acc1 = await insertAccount(ctx, tenant, profileId);
    acc2 = await insertAccount(ctx, tenant, profileId);
  });

  it('verifies an unanswered commit and records the post without sending it again', async () => {
    const postId = await scheduled('answer lost #lost', [acc1]);
    await runDue(postId);
    let s = await state(postId);
    expect(s.targets[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect(s.attempts).toEqual([{ phase: 'commit', outcome: 'unknown' }]);
    const commitsBefore = adapter.commits.length;
    await runDue(postId);
    s = await state(postId);
    expect(s.post).toBe('published');
    expect(s.targets[0]).toMatchObject({ status: 'published', attempts: 2 });
    expect(s.attempts).toEqual([{ phase: 'commit', outcome: 'unknown' }, { phase: 'verify', outcome: 'published' }]);
    expect(adapter.commits.length).toBe(commitsBefore);
  });

  it('a rate-limited verify waits for the platform without spending the verify budget, then settles the post', async () => {
    const postId = await scheduled('answer lost, look-up throttled #lost #verifylimited', [acc2]);
    await runDue(postId);
    const commits = adapter.commits.length;
    for (let i = 0; i < 2; i++) {
      await runDue(postId);
      const { rows: [t] } = await ctx.db.query<{ status: string; run_at: Date; error_category: string }>('SELECT status, run_at, error_category FROM post_targets WHERE post_id = $1', [postId]);
      expect(t).toMatchObject({ status: 'pending', error_category: 'platform_error' });
      // The platform's Retry-After (60 s), not the short verify backoff.
      expect(t.run_at.getTime() - Date.now()).toBeGreaterThan(50_000);
    }
    await runDue(postId);
    const s = await state(postId);
    expect(s.post).toBe('published');
    expect(s.attempts).toEqual([
      { phase: 'commit', outcome: 'unknown' }, { phase: 'verify', outcome: 'unknown' }, { phase: 'verify', outcome: 'unknown' }, { phase: 'verify', outcome: 'published' },
    ]);
    expect(adapter.commits.length).toBe(commits);
  });

  it('commits again with the same prepared state when verify says it was not published', async () => {
    const postId = await scheduled('once flaky #flaky', [acc2]);
    await runDue(postId);
    await runDue(postId);
    const s = await state(postId);
    expect(s.post).toBe('published');
    expect(s.attempts).toEqual([
      { phase: 'commit', outcome: 'unknown' },
      { phase: 'verify', outcome: 'not_published' },
      { phase: 'commit', outcome: 'published' },
    ]);
    expect(adapter.commits.filter((c) => c.text === 'once flaky #flaky')).toHaveLength(1);
  });

  it('after MAX_ATTEMPTS unanswered commits, the platform\'s record settles it: failed, and safe to retry, when it has no post', async () => {
    const postId = await scheduled('always down #transient', [acc1]);
    let runs = 0;
    while (runs < MAX_ATTEMPTS * 3 && (await state(postId)).targets[0].status === 'pending') {
      await runDue(postId);
      runs++;
    }
    const s = await state(postId);
    expect(s.post).toBe('failed');
    expect(s.targets[0].status).toBe('failed');
    // Five commits, each but the first after a verify that found nothing, then one last verify.
    expect(s.targets[0].attempts).toBe(MAX_ATTEMPTS + 1);
    expect(s.attempts.filter((a) => a.phase === 'commit')).toHaveLength(MAX_ATTEMPTS);
    expect(s.attempts.at(-1)).toEqual({ phase: 'verify', outcome: 'not_published' });
    // A platform failure (safe to retry), not an unknown outcome; the last error is kept.
    expect(s.targets[0].error_category).toBe('platform_error');
    expect(s.targets[0].error_message).toContain('connection reset (scripted)');
  });

  it('a commit that failed before reaching the platform (notSent) is retried without a verify, even where verify cannot tell', async () => {
    const postId = await scheduled('refused connection #notsent #blind', [acc2]);
    await runDue(postId);
    await runDue(postId);
    const s = await state(postId);
    expect(s.post).toBe('published');
    expect(s.attempts).toEqual([{ phase: 'commit', outcome: 'retry' }, { phase: 'commit', outcome: 'published' }]);
  });

  it('says "may have been published" only when the platform cannot tell, and never commits again meanwhile', async () => {
    const postId = await scheduled('never answers, cannot tell #transient #blind', [acc2]);
    for (let runs = 0; runs < MAX_ATTEMPTS * 3 && (await state(postId)).targets[0].status === 'pending'; runs++) await runDue(postId);
    const s = await state(postId);
    expect(s.targets[0].status).toBe('failed');
    expect(s.targets[0].error_category).toBe('unknown');
    expect(s.attempts.filter((a) => a.phase === 'commit')).toHaveLength(1);
    expect(s.attempts.at(-1)).toEqual({ phase: 'verify', outcome: 'unknown' });
  });

  it('a failed post whose last commit got no answer stays in doubt when retried: its next run verifies before committing', async () => {
    const postId = await scheduled('never answers, retried #transient #blind', [acc2]);
    for (let runs = 0; runs < MAX_ATTEMPTS * 3 && (await state(postId)).targets[0].status === 'pending'; runs++) await runDue(postId);
    let s = await state(postId);
    expect(s.targets[0].status).toBe('failed');
    expect(s.attempts.at(-1)).toEqual({ phase: 'verify', outcome: 'unknown' });

    const retry = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/retry`, headers: tenant!.headers });
    expect(retry.statusCode).toBe(200);
    const { rows: [t] } = await ctx.db.query<{ in_doubt: boolean }>('SELECT in_doubt FROM post_targets WHERE post_id = $1', [postId]);
    expect(t.in_doubt).toBe(true);
    const before = s.attempts.length;
    await runDue(postId);
    s = await state(postId);
    expect(s.attempts.slice(before)).toEqual([{ phase: 'verify', outcome: 'unknown' }]);
  });

  it('derives partial when one target is rejected and the other published', async () => {
    const postId = await scheduled('mixed', [acc1, acc2]);
    await ctx.db.query(`UPDATE post_targets SET custom_content = 'no #reject' WHERE post_id = $1 AND account_id = $2`, [postId, acc2]);
    await runDue(postId);
    const s = await state(postId);
    expect(s.post).toBe('partial');
    expect(s.targets.map((t) => t.status).sort()).toEqual(['failed', 'published']);
  });

  it('fails targets of a disconnected account with a reconnect message', async () => {
    const postId = await scheduled('account gone', [acc1]);
    await ctx.db.query(`UPDATE accounts SET is_active = false, inactive_reason = 'token revoked' WHERE id = $1`, [acc1]);
    await runDue(postId);
    const s = await state(postId);
    expect(s.post).toBe('failed');
    expect(s.targets[0].error_message).toMatch(/reconnect/i);
    await ctx.db.query(`UPDATE accounts SET is_active = true, inactive_reason = NULL WHERE id = $1`, [acc1]);
  });

  it('claims each due target once across concurrent workers', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => scheduled(`race ${i}`, [acc1, acc2])));
    await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = ANY($1::char(24)[])`, [ids]);
    const [a, b, c] = await Promise.all([worker.claimDue(30), worker.claimDue(30), worker.claimDue(30)]);
    const all = [...a, ...b, ...c].map((t) => t.id);
    expect(all).toHaveLength(40);
    expect(new Set(all).size).toBe(40);
    await Promise.all([...a, ...b, ...c].map((t) => worker.runTarget(t)));
    for (const id of ids) expect((await state(id)).post).toBe('published');
  });

  it('backs off exponentially with jitter, bounded', () => {
    expect(backoffMs(1, () => 0)).toBe(2_500);
    expect(backoffMs(1, () => 1)).toBe(5_000);
    expect(backoffMs(3, () => 1)).toBe(20_000);
    expect(backoffMs(30, () => 1)).toBe(600_000);
  });
});

/** The pid of a process that has exited (so no process has it now, barring reuse). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

async function target(postId: string) {
  const { rows } = await ctx.db.query<{ id: string; status: string; attempts: number; in_doubt: boolean; crash_count: number; locked_by: string | null }>(
    'SELECT id, status, attempts, in_doubt, crash_count, locked_by FROM post_targets WHERE post_id = $1', [postId]);
  return rows[0];
}

/** Puts the post's target in the state a process leaves when it dies after writing its commit attempt. */
async function crashMidCommit(postId: string, workerId: string, token: string) {
  const t = await target(postId);
  await ctx.db.query(`UPDATE post_targets SET status = 'publishing', locked_by = $2, locked_until = now() + interval '1 minute', attempts = attempts + 1 WHERE id = $1`, [t.id, workerId]);
  await ctx.db.query(`INSERT INTO publish_attempts (target_id, attempt, worker_id, phase, prepared) VALUES ($1, 1, $2, 'commit', $3)`, [t.id, workerId, JSON.stringify({ token })]);
  return t.id;
}

describe('publisher: crashes (docs/decisions/0018-exact-verify.md)', () => {
  let acc3: string;
  let acc4: string;
  let inDoubt: string;

  it('a restarted process releases the publishes of its dead predecessor at once: in doubt, and the crash costs no attempt', async () => {
    const profileId = await createProfile(ctx, tenant!);
    acc3 = await insertAccount(ctx, tenant!, profileId);
    acc4 = await insertAccount(ctx, tenant!, profileId);
    const instance = `/tmp/herald-instance-${process.pid}`;
    const dead = `worker-dead-${process.pid}`;
    const alive = `worker-alive-${process.pid}`;
    await ctx.db.query(`INSERT INTO workers (id, hostname, pid, instance) VALUES ($1, $2, $3, $4), ($5, $2, $6, $4)`,
      [dead, hostname(), await deadPid(), instance, alive, process.ppid]);
    const postId = await scheduled('crashed mid-commit', [acc3]);
    inDoubt = await crashMidCommit(postId, dead, 'never-committed');
    const livePost = await scheduled('still running elsewhere', [acc4]);
    await crashMidCommit(livePost, alive, 'running');

    // Another installation (other data directory) does not judge these processes.
    expect(await releaseDeadLocalProcesses(ctx.db, { id: 'worker-other', hostname: hostname(), instance: '/tmp/another-installation' })).toBe(0);
    expect(await releaseDeadLocalProcesses(ctx.db, { id: 'worker-new', hostname: hostname(), instance })).toBe(1);
    expect(await target(postId)).toMatchObject({ status: 'pending', in_doubt: true, attempts: 0, crash_count: 1, locked_by: null });
    expect(await target(livePost)).toMatchObject({ status: 'publishing', locked_by: alive });
    const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM workers WHERE id = ANY($1::text[])', [[dead, alive]]);
    expect(rows.map((r) => r.id)).toEqual([alive]);
    // Clean up the sibling for the next test: its heartbeat stops, so its lease runs out, and the reconciler releases it.
    await ctx.db.query(`UPDATE workers SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [alive]);
    await reconcile(ctx.db, { staleMs: 30_000 });
    expect(await target(livePost)).toMatchObject({ status: 'publishing', locked_by: alive });
    await ctx.db.query(`UPDATE post_targets SET locked_until = now() - interval '1 second' WHERE locked_by = $1`, [alive]);
    await reconcile(ctx.db, { staleMs: 30_000 });
    expect(await target(livePost)).toMatchObject({ status: 'pending', in_doubt: true, attempts: 0 });
    await ctx.db.query(`UPDATE post_targets SET run_at = '2030-01-01', in_doubt = false WHERE post_id = $1`, [livePost]);
  });

  it('an in-doubt target is claimed first, and fresh targets of its account wait until it is verified', async () => {
    const sameAccount = await scheduled('fresh on the in-doubt account', [acc3]);
    const otherAccount = await scheduled('fresh on another account', [acc4]);
    await ctx.db.query(`UPDATE post_targets SET run_at = now() - interval '1 minute' WHERE post_id = ANY($1::char(24)[])`, [[sameAccount, otherAccount]]);
    const fresh = { same: (await target(sameAccount)).id, other: (await target(otherAccount)).id };
    const first = await worker.claimDue(10);
    const ids = first.map((t) => t.id);
    expect(ids[0]).toBe(inDoubt);
    expect(ids).toContain(fresh.other);
    expect(ids).not.toContain(fresh.same);
    const commitsBefore = adapter.commits.length;
    await Promise.all(first.map((t) => worker.runTarget(t)));
    // Verified (the scripted platform has no post for that commit token), then committed once.
    expect(adapter.commits.slice(commitsBefore).map((c) => c.token)).toContain('never-committed');
    const { rows: attempts } = await ctx.db.query<{ phase: string; outcome: string | null }>('SELECT phase, outcome FROM publish_attempts WHERE target_id = $1 ORDER BY id', [inDoubt]);
    expect(attempts).toEqual([{ phase: 'commit', outcome: null }, { phase: 'verify', outcome: 'not_published' }, { phase: 'commit', outcome: 'published' }]);
    expect(await target(sameAccount)).toMatchObject({ status: 'pending' });
    const second = await worker.claimDue(10);
    expect(second.map((t) => t.id)).toContain(fresh.same);
    await Promise.all(second.map((t) => worker.runTarget(t)));
    expect(await target(sameAccount)).toMatchObject({ status: 'published', in_doubt: false });
  });
});


describe('publisher: fencing and late landings (docs/decisions/0045-fencing-and-late-landings.md)', () => {
  let acc5: string;

  it('after an unanswered commit, a verify that finds nothing within the settle time waits; after it, commits once', async () => {
    const profileId = await createProfile(ctx, tenant!);
    acc5 = await insertAccount(ctx, tenant!, profileId);
    const s = ctx.services;
    const settling = createPublisher({
      db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, clock: s.clock, workerId: `worker-settle-${process.pid}`,
      config: { ...ctx.config, commitSettleMs: { default: 0, byPlatform: { bluesky: 60_000 } } },
    });
    const postId = await scheduled('settles first #flaky', [acc5]);
    await runDueTargets(ctx, settling, postId);
    expect((await state(postId)).attempts).toEqual([{ phase: 'commit', outcome: 'unknown' }]);
    await runDueTargets(ctx, settling, postId);
    let st = await state(postId);
    // Not there yet, but the call may still land: in doubt, checked again when 60 s have passed since it was sent.
    expect(st.attempts.at(-1)).toEqual({ phase: 'verify', outcome: 'unknown' });
    expect(st.targets[0].status).toBe('pending');
    expect(st.targets[0].error_message).toMatch(/can still land for 60 s after it was sent/);
    const { rows: [t] } = await ctx.db.query<{ in_doubt: boolean; wait: number }>(
      `SELECT in_doubt, extract(epoch FROM run_at - now())::float8 AS wait FROM post_targets WHERE post_id = $1`, [postId]);
    expect(t.in_doubt).toBe(true);
    expect(t.wait).toBeGreaterThan(50);
    expect(t.wait).toBeLessThanOrEqual(60);
    expect(adapter.commits.filter((c) => c.text === 'settles first #flaky')).toHaveLength(0);
    // The settle time passes (the commit was sent 61 s ago): verify again, nothing, so commit once.
    await ctx.db.query(`UPDATE publish_attempts SET started_at = started_at - interval '61 seconds'
                         WHERE target_id = (SELECT id FROM post_targets WHERE post_id = $1)`, [postId]);
    await runDueTargets(ctx, settling, postId);
    st = await state(postId);
    expect(st.post).toBe('published');
    expect(st.attempts.slice(-2)).toEqual([{ phase: 'verify', outcome: 'not_published' }, { phase: 'commit', outcome: 'published' }]);
    expect(adapter.commits.filter((c) => c.text === 'settles first #flaky')).toHaveLength(1);
  });

  it('a worker whose lease ran out writes no attempt and makes no call; the new holder publishes once', async () => {
    const postId = await scheduled('lease lost while paused', [acc5]);
    await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = $1`, [postId]);
    const [claimed] = await worker.claimDue(1);
    expect(claimed.post_id).toBe(postId);
    // The worker is paused past its lease; the reconciler hands the target on; another worker claims it.
    await ctx.db.query(`UPDATE post_targets SET locked_until = now() - interval '1 second' WHERE id = $1`, [claimed.id]);
    await reconcile(ctx.db, { staleMs: 30_000 });
    const other = createPublisher({
      db: ctx.db, accounts: ctx.services.accountsRepository, adapters: ctx.services.adapters, mediaStorage: ctx.services.mediaStorage, config: ctx.config,
      clock: ctx.services.clock, workerId: `worker-other-${process.pid}`,
    });
    const [taken] = await other.claimByIds([claimed.id]);
    expect(taken?.id).toBe(claimed.id);
    // The paused worker wakes and runs what it had claimed: the fenced attempt row refuses it.
    const commits = adapter.commits.length;
    await worker.runTarget(claimed);
    expect(adapter.commits.length).toBe(commits);
    const { rows: rowsByWorker } = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM publish_attempts WHERE target_id = $1 AND worker_id = $2', [claimed.id, worker.workerId]);
    expect(rowsByWorker[0].n).toBe(0);
    await other.runTarget(taken);
    const st = await state(postId);
    expect(st.post).toBe('published');
    expect(adapter.commits.filter((c) => c.text === 'lease lost while paused')).toHaveLength(1);
  });

  it('a claim that waited past half its lease (the process was paused) is given back, not run, and costs no attempt', async () => {
    const s = ctx.services;
    const shortLease = createPublisher({
      db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, clock: s.clock, workerId: `worker-short-${process.pid}`,
      config: { ...ctx.config, workerStaleMs: 1_000 },
    });
    const postId = await scheduled('waited in the buffer', [acc5]);
    await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = $1`, [postId]);
    const [claimed] = await shortLease.claimDue(1);
    expect(claimed.attempts).toBe(1);
    await new Promise((r) => setTimeout(r, 600));
    expect(shortLease.leaseRemainingMs(claimed.id)).toBeLessThan(500);
    const commits = adapter.commits.length;
    await shortLease.runTarget(claimed);
    expect(adapter.commits.length).toBe(commits);
    expect(await target(postId)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null });
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM publish_attempts WHERE target_id = $1', [claimed.id]);
    expect(rows[0].n).toBe(0);
    await ctx.db.query(`UPDATE post_targets SET run_at = '2030-01-01' WHERE id = $1`, [claimed.id]);
  });

  it('the fence holds without the local clock: an attempt row is refused for a target held elsewhere', async () => {
    const postId = await scheduled('fenced by the database', [acc5]);
    await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = $1`, [postId]);
    const [claimed] = await worker.claimDue(1);
    // Another process took it over (released and claimed again) while this worker's local lease still looks fine.
    await ctx.db.query(`UPDATE post_targets SET locked_by = 'worker-elsewhere', locked_until = now() + interval '1 minute' WHERE id = $1`, [claimed.id]);
    expect(worker.leaseRemainingMs(claimed.id)).toBeGreaterThan(1_000);
    const commits = adapter.commits.length;
    await worker.runTarget(claimed);
    expect(adapter.commits.length).toBe(commits);
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM publish_attempts WHERE target_id = $1', [claimed.id]);
    expect(rows[0].n).toBe(0);
    await ctx.db.query(`UPDATE post_targets SET status = 'pending', locked_by = NULL, locked_until = NULL, run_at = '2030-01-01' WHERE id = $1`, [claimed.id]);
  });

  it('a refused finish that did publish records the second copy on the target and as post.platform.duplicate', async () => {
    const postId = await scheduled('published twice by a stale worker', [acc5]);
    await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = $1`, [postId]);
    const [claimed] = await worker.claimDue(1);
    // This worker's call is in flight when its lease is handed on and the new holder publishes.
    const { rows: [{ id: attemptId }] } = await ctx.db.query<{ id: number }>(
      `INSERT INTO publish_attempts (target_id, attempt, worker_id, phase, prepared) VALUES ($1, 1, $2, 'commit', '{"token":"stale"}') RETURNING id`,
      [claimed.id, worker.workerId]);
    await ctx.db.query(`UPDATE post_targets SET status = 'published', locked_by = NULL, locked_until = NULL, platform_post_id = 'scripted-first',
                               platform_post_url = 'https://example.test/post/first' WHERE id = $1`, [claimed.id]);
    const hook = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/settings', headers: tenant!.headers,
      payload: { name: 'duplicates', url: 'http://127.0.0.1:9/dup', events: ['post.platform.duplicate'] } });
    expect(hook.statusCode, hook.body).toBe(200);
    const duplicate = await worker.targets.recordStalePublish(claimed, attemptId, { platformPostId: 'scripted-second', platformPostUrl: 'https://example.test/post/second' });
    expect(duplicate).toBe(true);
    // The same post again (the new holder's verify found this worker's own post): no duplicate.
    expect(await worker.targets.recordStalePublish(claimed, attemptId, { platformPostId: 'scripted-first', platformPostUrl: 'https://example.test/post/first' })).toBe(false);
    const post = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: tenant!.headers })).json().post;
    expect(post.platforms[0].platformPostId).toBe('scripted-first');
    expect(post.platforms[0].duplicates).toEqual([{ platformPostId: 'scripted-second', platformPostUrl: 'https://example.test/post/second' }]);
    const { rows: events } = await ctx.db.query<{ event: string; payload: { duplicate: { platformPostId: string }; post: { id: string } } }>(
      `SELECT event, payload FROM webhook_deliveries WHERE tenant_id = $1 AND event = 'post.platform.duplicate'`, [tenant!.userId]);
    expect(events).toHaveLength(1);
    expect(events[0].payload.post.id).toBe(postId);
    expect(events[0].payload.duplicate.platformPostId).toBe('scripted-second');
    await ctx.app.inject({ method: 'DELETE', url: `/v1/webhooks/settings/${hook.json().webhook._id}`, headers: tenant!.headers });
  });
});

describe('publisher: a claim whose answer was lost', () => {
  it('gives back the targets locked by this process that it neither runs nor holds, and keeps those it holds', async () => {
    const profileId = await createProfile(ctx, tenant!);
    const acc = await insertAccount(ctx, tenant!, profileId);
    const lost = await scheduled('claimed, answer lost', [acc]);
    const held = await scheduled('claimed and held', [acc]);
    await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = ANY($1::char(24)[])`, [[lost, held]]);
    // This process claims one target normally ...
    const [mine] = await worker.claimByIds([(await target(held)).id]);
    expect(mine.post_id).toBe(held);
    // ... and the database committed another claim of its whose answer never arrived.
    await worker.targets.claim(worker.workerId, 1, 30, [(await target(lost)).id]);
    expect(await target(lost)).toMatchObject({ status: 'publishing', locked_by: worker.workerId, attempts: 1 });
    expect(await worker.giveBackUnknownClaims()).toBe(1);
    expect(await target(lost)).toMatchObject({ status: 'pending', locked_by: null, attempts: 0 });
    expect(await target(held)).toMatchObject({ status: 'publishing', locked_by: worker.workerId });
    await worker.runTarget(mine);
    expect((await target(held)).status).toBe('published');
  });
});

describe('publisher: attempt rows written while a target waits for a slot (docs/decisions/0076-attempt-rows-ahead.md)', () => {
  let acc: string;
  /** A slot the test hands over when it says: `give()` lets the run make its platform requests. */
  const heldSlot = () => {
    let give!: () => void;
    const gate = new Promise<void>((r) => { give = r; });
    const slot = { acquired: false, releases: 0, acquire: async () => { await gate; slot.acquired = true; }, release: () => { slot.releases++; } };
    return { slot, give };
  };
  const attemptsOf = async (targetId: string) => (await ctx.db.query<{ phase: string; outcome: string | null }>(
    'SELECT phase, outcome FROM publish_attempts WHERE target_id = $1 ORDER BY id', [targetId])).rows;
  const dueNow = async (text: string) => {
    const postId = await scheduled(text, [acc]);
    await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = $1`, [postId]);
    const [claimed] = await worker.claimByIds([(await target(postId)).id]);
    expect(claimed.post_id).toBe(postId);
    return { postId, claimed };
  };

  it('a target prepared offline has its attempt row written before it holds a slot, and calls the platform only once it does', async () => {
    acc = await insertAccount(ctx, tenant!, await createProfile(ctx, tenant!));
    const { postId, claimed } = await dueNow('attempt row ahead');
    const { slot, give } = heldSlot();
    const run = worker.runTarget(claimed, slot);
    await waitFor(async () => (await attemptsOf(claimed.id)).length > 0, { what: 'the attempt row' });
    expect(await attemptsOf(claimed.id)).toEqual([{ phase: 'commit', outcome: null }]);
    await new Promise((r) => setTimeout(r, 100));
    expect(adapter.commits.filter((c) => c.text === 'attempt row ahead')).toHaveLength(0);
    expect(slot.acquired).toBe(false);
    give();
    await run;
    expect(slot.acquired).toBe(true);
    expect(slot.releases).toBeGreaterThan(0);
    expect((await state(postId)).post).toBe('published');
    expect(await attemptsOf(claimed.id)).toEqual([{ phase: 'commit', outcome: 'published' }]);
    expect(adapter.commits.filter((c) => c.text === 'attempt row ahead')).toHaveLength(1);
  });

  it('a target whose prepare may call the platform writes nothing and prepares nothing before it holds a slot', async () => {
    adapter.offline = false;
    try {
      const { postId, claimed } = await dueNow('prepared in the slot');
      const { slot, give } = heldSlot();
      const run = worker.runTarget(claimed, slot);
      await new Promise((r) => setTimeout(r, 200));
      expect(await attemptsOf(claimed.id)).toEqual([]);
      expect(slot.acquired).toBe(false);
      give();
      await run;
      expect((await state(postId)).post).toBe('published');
      expect(adapter.commits.filter((c) => c.text === 'prepared in the slot')).toHaveLength(1);
    } finally {
      adapter.offline = true;
    }
  });

  it('a target that waited for a slot past half its lease with no attempt row (the process was paused) is given back, not run', async () => {
    adapter.offline = false;
    const s = ctx.services;
    const shortLease = createPublisher({
      db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, clock: s.clock, workerId: `worker-slot-${process.pid}`,
      config: { ...ctx.config, workerStaleMs: 1_000 },
    });
    try {
      const postId = await scheduled('waited for a slot', [acc]);
      await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = $1`, [postId]);
      const [claimed] = await shortLease.claimByIds([(await target(postId)).id]);
      const { slot, give } = heldSlot();
      const run = shortLease.runTarget(claimed, slot);
      await new Promise((r) => setTimeout(r, 600));
      give();
      await run;
      expect(await target(postId)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null });
      expect(await attemptsOf(claimed.id)).toEqual([]);
      expect(adapter.commits.filter((c) => c.text === 'waited for a slot')).toHaveLength(0);
      await ctx.db.query(`UPDATE post_targets SET run_at = '2030-01-01' WHERE id = $1`, [claimed.id]);
    } finally {
      adapter.offline = true;
    }
  });

  it('a worker keeps its calls within its concurrency while a whole wave of targets waits after them with their attempt rows written', async () => {
    const profileId = await createProfile(ctx, tenant!);
    const accounts = [await insertAccount(ctx, tenant!, profileId), await insertAccount(ctx, tenant!, profileId), await insertAccount(ctx, tenant!, profileId)];
    const texts = Array.from({ length: 9 }, (_, i) => `wave ${i} #held`);
    const posts: string[] = [];
    for (const [i, text] of texts.entries()) posts.push(await scheduled(text, [accounts[i % 3]]));
    const s = ctx.services;
    const pub = createPublisher({ db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock, workerId: `worker-waves-${process.pid}` });
    adapter.maxInFlight = adapter.inFlight;
    // Only these are due: a target an earlier test left pending (one given back, say) would take a slot and
    // change how many this worker claims ahead.
    await ctx.db.query(`UPDATE post_targets SET run_at = now() + interval '1 day' WHERE status = 'pending' AND run_at <= now()`);
    await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = ANY($1::char(24)[])`, [posts]);
    const counts = async () => (await ctx.db.query<{ held: number; attempts: number }>(
      `SELECT count(*) FILTER (WHERE t.locked_by = $2)::int AS held,
              (SELECT count(*)::int FROM publish_attempts a JOIN post_targets x ON x.id = a.target_id WHERE x.post_id = ANY($1::char(24)[]) AND a.phase = 'commit') AS attempts
         FROM post_targets t WHERE t.post_id = ANY($1::char(24)[])`, [posts, pub.workerId])).rows[0];
    const w = await startWorker({ db: ctx.db, publisher: pub, concurrency: 3, pollMs: 100 });
    try {
      // The platform answers nothing yet: three calls are out and, claimed ahead to take the slots as they free
      // (decision 0077), as many targets again wait with their attempt rows written.
      await waitFor(async () => adapter.inFlight === 3 && (await counts()).attempts === 6, { timeoutMs: 30_000, what: 'three calls out and three targets waiting with their attempt rows' });
      // Nothing more is claimed or called while no slot frees.
      await new Promise((r) => setTimeout(r, 300));
      expect(await counts()).toEqual({ held: 6, attempts: 6 });
      expect(adapter.inFlight).toBe(3);
      adapter.releaseHeld();
      await waitFor(async () => (await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM posts WHERE id = ANY($1::char(24)[]) AND status = 'published'`, [posts])).rows[0].n === posts.length,
      { timeoutMs: 30_000, what: 'the nine posts published' });
    } finally {
      adapter.releaseHeld();
      await w.stop();
    }
    expect(adapter.maxInFlight).toBeLessThanOrEqual(3);
    for (const text of texts) expect(adapter.commits.filter((c) => c.text === text)).toHaveLength(1);
  });

  it('a stopping worker runs the targets waiting for its slot, and claims no more', async () => {
    const profileId = await createProfile(ctx, tenant!);
    const account = await insertAccount(ctx, tenant!, profileId);
    const texts = Array.from({ length: 4 }, (_, i) => `stopping ${i} #slow`);
    const posts: string[] = [];
    for (const text of texts) posts.push(await scheduled(text, [account]));
    const s = ctx.services;
    const pub = createPublisher({ db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock, workerId: `worker-stopping-${process.pid}` });
    await ctx.db.query(`UPDATE post_targets SET run_at = now() WHERE post_id = ANY($1::char(24)[])`, [posts]);
    const w = await startWorker({ db: ctx.db, publisher: pub, concurrency: 1, pollMs: 100 });
    // One call in flight (500 ms) and one target claimed ahead, waiting for the slot with its attempt row written.
    const held = async () => (await ctx.db.query<{ id: string }>(
      `SELECT id FROM post_targets WHERE post_id = ANY($1::char(24)[]) AND locked_by = $2`, [posts, pub.workerId])).rows.map((r) => r.id);
    const atStop = await waitFor(async () => { const ids = await held(); return ids.length === 2 && ids; }, { what: 'a call in flight and a target waiting' });
    await w.stop();
    // What it held when told to stop is published; nothing is left claimed; the rest was never claimed.
    const { rows } = await ctx.db.query<{ id: string; status: string }>(
      `SELECT id, status FROM post_targets WHERE post_id = ANY($1::char(24)[])`, [posts]);
    for (const id of atStop) expect(rows.find((r) => r.id === id)?.status).toBe('published');
    expect(rows.filter((r) => r.status === 'pending').length).toBeGreaterThan(0);
    expect(rows.every((r) => r.status === 'pending' || r.status === 'published')).toBe(true);
    expect(await held()).toEqual([]);
    const published = adapter.commits.filter((c) => texts.includes(c.text));
    expect(published).toHaveLength(rows.filter((r) => r.status === 'published').length);
    expect(new Set(published.map((c) => c.text)).size).toBe(published.length);
    await ctx.db.query(`UPDATE post_targets SET run_at = '2030-01-01' WHERE post_id = ANY($1::char(24)[]) AND status = 'pending'`, [posts]);
  });
});
