/**
 * Many targets due at the same instant (issue 31): the helpers that create them the way Herald's
 * create route stores them, and the (l) burst section (`--burst[=N]`): N targets due in the same
 * second, drained by the in-process worker (concurrency 50, the 50 ms bench adapter), as (g).
 *
 * The posts are written by `insertPostsWithTargets` (src/modules/posts/storage.ts), the statement
 * the create route and the bulk upload use, in batches of 1,000 posts: each post `scheduled` with
 * one `pending` target whose run_at is the post's time (the job row, as the scheduler expects it),
 * counted toward the plan, with its content claim (duplicate protection), over the accounts of a
 * burst tenant (100 Bluesky accounts on the bench adapter, one profile). What the route does
 * besides the insert (validation, the upload-limit check: unlimited on the Advanced plan, the
 * accounts' row-version check) does not change the rows.
 */
import { performance } from 'node:perf_hooks';
import { newId } from '../src/core/ids.ts';
import { contentHash } from '../src/modules/posts/duplicates.ts';
import { insertPostsWithTargets, type NewPost, type NewTarget } from '../src/modules/posts/storage.ts';
import type { Services } from '../src/services.ts';
import type { Db } from '../src/storage/db.ts';
import type { BenchAdapter } from './bench-adapter.ts';
import { line, loadavg, ms, percentile, pgDelta, pgTreeCpu, pool, statCpuMs } from './load.ts';

export interface BenchTenant { userId: string; accountIds: string[] }

/** A tenant (Advanced plan) with one profile and `accounts` Bluesky accounts (on the bench adapter), written by SQL. */
export async function createBenchTenant(db: Db, services: Services, email: string, accounts: number): Promise<BenchTenant> {
  const { userId } = await services.users.createRootUser({ email, plan: 'advanced' });
  const profileId = newId();
  await db.query(`INSERT INTO profiles (id, tenant_id, name) VALUES ($1, $2, 'Burst')`, [profileId, userId]);
  const accountIds = Array.from({ length: accounts }, () => newId());
  await db.query(
    `INSERT INTO accounts (id, tenant_id, profile_id, platform, platform_user_id, username, credentials, is_active)
     SELECT id, $2, $3, 'bluesky', 'did:plc:' || id, 'burst' || n || '.test', $4, true FROM unnest($1::char(24)[]) WITH ORDINALITY AS u(id, n)`,
    [accountIds, userId, profileId, services.secrets.sealJson({})]);
  return { userId, accountIds };
}

/**
 * Creates `n` posts with one target each, due at `at`, over the tenant's accounts (post i on account
 * i mod count), content `${prefix}${i}`; batches of 1,000 posts, two statements in flight. Answers
 * the post ids and how long it took (s).
 */
export async function createDueTargets(db: Db, tenant: BenchTenant, n: number, at: Date, prefix: string): Promise<{ ids: string[]; seconds: number }> {
  const t0 = performance.now();
  const BATCH = 1_000;
  const ids: string[] = [];
  await pool(Math.ceil(n / BATCH), 2, async (b) => {
    const now = new Date();
    const posts: NewPost[] = [];
    const targets: NewTarget[] = [];
    const claims: Array<{ accountId: string; hash: Buffer; postId: string }> = [];
    for (let i = b * BATCH; i < Math.min(n, (b + 1) * BATCH); i++) {
      const id = newId();
      const content = `${prefix}${i}`;
      const accountId = tenant.accountIds[i % tenant.accountIds.length];
      ids.push(id);
      posts.push({
        id, title: null, content, status: 'scheduled', scheduledFor: at, timezone: 'UTC', publishNow: false, isDraft: false, visibility: 'public',
        tags: [], hashtags: [], mentions: [], media: [], hidden: false, metadata: {}, countedAt: now, queuedFromProfile: null, queueId: null,
      });
      targets.push({ id: newId(), postId: id, position: 0, accountId, platform: 'bluesky', customContent: null, platformSpecificData: {}, status: 'pending', runAt: at, scheduledFor: null });
      claims.push({ accountId, hash: contentHash(content, [], {}), postId: id });
    }
    await insertPostsWithTargets(db, tenant.userId, tenant.userId, posts, targets, now, claims, [], null);
  });
  return { ids, seconds: (performance.now() - t0) / 1000 };
}

export interface BurstFigures { n: number; drainMs: number; ratio: number; pgCpuPerTarget: number; heraldCpuPerTarget: number; exactlyOnce: boolean; createSeconds: number }

/**
 * (l) `n` targets due in the same second T, drained by the running worker (in this process,
 * `concurrency` slots, the adapter's commit time). T is `leadMs` away (after the creation). Prints the
 * drain, targets/s, the ideal and ratio, lateness (commit start - due), PostgreSQL's and Herald's
 * main-thread CPU per target (from /proc, between T and the last finish), and commits against
 * distinct posts.
 */
export async function runBurst(o: {
  db: Db; adapter: BenchAdapter; tenant: BenchTenant; n: number; leadMs: number; pgPid: number; concurrency: number; tag: string;
  notifyDue: (at: Date) => void;
}): Promise<BurstFigures> {
  const { db, adapter, n } = o;
  const commitMs = adapter.commitMs;
  const T = Math.ceil((Date.now() + o.leadMs) / 1000) * 1000;
  const prefix = `burst${o.tag} `;
  console.log(`\n(l) burst: ${n.toLocaleString('en-US')} targets due at T = ${new Date(T).toISOString()}, worker concurrency ${o.concurrency}, commit ${commitMs} ms`);
  // Commits of this burst, counted incrementally (a rescan of every commit each poll would cost the drain CPU), from
  // before the creation (if it overruns T, commits start while the targets are being created).
  let counted = 0;
  let scanned = adapter.commits.length;
  const { ids, seconds } = await createDueTargets(db, o.tenant, n, new Date(T), prefix);
  o.notifyDue(new Date(T)); // as the create route does
  line('created in', `${seconds.toFixed(1)} s (insertPostsWithTargets, 1,000 posts a statement; ${Math.round(n / seconds)} posts/s); T is ${((T - Date.now()) / 1000).toFixed(1)} s away`);
  if (Date.now() >= T) console.log('  WARNING: creating the targets took longer than the lead time; lateness figures are skewed');

  const commitCount = () => {
    for (; scanned < adapter.commits.length; scanned++) if (adapter.commits[scanned].text.startsWith(prefix)) counted++;
    return counted;
  };
  await new Promise((r) => setTimeout(r, Math.max(0, T - Date.now())));
  const mainCpu = () => statCpuMs(`/proc/${process.pid}/task/${process.pid}/stat`);
  const pg0 = pgTreeCpu(o.pgPid);
  const main0 = mainCpu();
  const deadline = T + Math.max(120_000, 4 * (n * commitMs) / o.concurrency);
  const finalCounts = async () => (await db.query<{ published: number; failed: number }>(
    `SELECT count(*) FILTER (WHERE status = 'published')::int AS published, count(*) FILTER (WHERE status = 'failed')::int AS failed
       FROM post_targets WHERE post_id = ANY($1::char(24)[])`, [ids])).rows[0];
  let done = { published: 0, failed: 0 };
  while (Date.now() < deadline) {
    if (commitCount() < n) { await new Promise((r) => setTimeout(r, 50)); continue; }
    done = await finalCounts();
    if (done.published + done.failed >= n) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const pgMs = pgDelta(pg0, pgTreeCpu(o.pgPid));
  const heraldMs = mainCpu() - main0;
  if (done.published + done.failed < n) done = await finalCounts();
  const commits = adapter.commits.filter((c) => c.text.startsWith(prefix));
  const late = commits.map((c) => c.startedAt - T).sort((a, b) => a - b);
  const distinct = new Set(commits.map((c) => c.text)).size;
  const last = (await db.query<{ last: Date | null }>('SELECT max(published_at) AS last FROM post_targets WHERE post_id = ANY($1::char(24)[])', [ids])).rows[0].last;
  const drainMs = last ? last.getTime() - T : NaN;
  const ideal = (n * commitMs) / o.concurrency;
  const exactlyOnce = commits.length === n && distinct === n;
  line('targets', `${done.published} published, ${done.failed} failed${done.published + done.failed < n ? ` - ${n - done.published - done.failed} NOT FINISHED within ${((deadline - T) / 1000).toFixed(0)} s` : ''}`);
  line('commits', `${commits.length} (distinct posts ${distinct}, duplicates ${commits.length - distinct})${exactlyOnce ? ' - exactly one commit per post' : ' - MISMATCH'}`);
  line('drain (last published_at - T)', `${ms(drainMs)}: ${Math.round(n / (drainMs / 1000))} targets/s; ideal ${ms(ideal)} = ${n} x ${commitMs} ms / ${o.concurrency}; ratio ${(drainMs / ideal).toFixed(2)}`);
  line('lateness p50 / p99 / max', `${ms(percentile(late, 50))} / ${ms(percentile(late, 99))} / ${ms(late.at(-1) ?? NaN)} (commit start - due)`);
  line('CPU per target', `PostgreSQL ${(pgMs / n).toFixed(3)} ms, Herald main thread ${(heraldMs / n).toFixed(3)} ms (${(pgMs / 1000).toFixed(1)} s and ${(heraldMs / 1000).toFixed(1)} s over the drain)`);
  line('load average', loadavg());
  return { n, drainMs, ratio: drainMs / ideal, pgCpuPerTarget: pgMs / n, heraldCpuPerTarget: heraldMs / n, exactlyOnce, createSeconds: seconds };
}
