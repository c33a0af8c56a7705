/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of Herald's hot statements at `--scale` size, written to a file in
 * the OS temporary directory: the post list (the measured profile's newest page and deep page, and
 * the tenant's unfiltered newest page), the create insert, and the publisher's claim, attempt and
 * finish statements.
 *
 * Each statement is the one Herald sends, with the values it builds: the bench calls Herald's own
 * functions (listPostPage, insertPostsWithTargets, the targets repository's claim / startAttempt /
 * finish) on a connection that explains every statement before running it. Everything runs in one
 * transaction that is rolled back (one for the list and the create, one for the publisher's); a write is
 * explained in a savepoint rolled back before it runs for real, so it is done once. The claim and finish run on 50 targets made due for it (a drain's first
 * claim asks for 50; finishes are grouped up to 100 a statement). Each statement is also shown
 * with its generic plan (`EXPLAIN (GENERIC_PLAN)`, no execution): Herald sends them as prepared
 * statements, which PostgreSQL may plan once for any values after five runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { newId } from '../src/core/ids.ts';
import { contentHash } from '../src/modules/posts/duplicates.ts';
import { listPostPage, type PostFilters } from '../src/modules/posts/list-queries.ts';
import { insertPostsWithTargets, type NewPost, type NewTarget } from '../src/modules/posts/storage.ts';
import { createTargetsRepository } from '../src/publishing/targets-repository.ts';
import type { Db, PreparedStatement, Queryable } from '../src/storage/db.ts';
import type { BenchTenant } from './burst.ts';

interface Explained { title: string; name: string; rows: number; plan: string[]; generic: string[] }

/**
 * A Queryable over `client` (in a transaction) that explains each statement before running it,
 * keeping per statement name the call with the most rows (array parameters' length).
 * One statement at a time (savepoints must not interleave).
 */
function explaining(client: pg.PoolClient, seen: Map<string, Explained>, title: () => string): Queryable {
  let chain: Promise<unknown> = Promise.resolve();
  const run = async (st: string | PreparedStatement, values?: unknown[]) => {
    const text = typeof st === 'string' ? st : st.text;
    const name = typeof st === 'string' ? text.replace(/\s+/g, ' ').slice(0, 60) : st.name;
    const rows = Array.isArray(values?.[0]) ? (values[0] as unknown[]).length : 1;
    if (!seen.has(name) || seen.get(name)!.rows < rows) {
      await client.query('SAVEPOINT bench_explain');
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values)).rows.map((r) => r['QUERY PLAN']);
      await client.query('ROLLBACK TO SAVEPOINT bench_explain');
      let generic: string[] = [];
      if (/\$1\b/.test(text)) {
        await client.query('SAVEPOINT bench_generic');
        generic = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (GENERIC_PLAN) ${text}`).then((r) => r.rows.map((x) => x['QUERY PLAN']),
          (err: Error) => [`(no generic plan: ${err.message})`]);
        await client.query('ROLLBACK TO SAVEPOINT bench_generic');
      }
      seen.set(name, { title: title(), name, rows, plan, generic });
    }
    return client.query(text, values);
  };
  return {
    query(st, values) {
      const p = chain.then(() => run(st, values));
      chain = p.catch(() => {});
      return p as never;
    },
  };
}

/** Explains the hot statements (see the file comment); answers the file written. */
export async function explainHotStatements(db: Db, o: {
  scale: { tenantId: string; profileId: string }; tenant: BenchTenant; deepOffset: number; pageSize: number;
}): Promise<string> {
  const seen = new Map<string, Explained>();
  let title = '';
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const q = explaining(client, seen, () => title);
    // The list, as GET /v1/posts builds it (src/modules/posts/read.ts): the dashboard's profile filter and order.
    const profile: PostFilters = { tenantId: o.scale.tenantId, profileId: o.scale.profileId, sortBy: 'scheduled-desc' };
    title = `list: profile ${o.scale.profileId}, sortBy=scheduled-desc, newest page (limit ${o.pageSize})`;
    await listPostPage(q, profile, o.pageSize, 0);
    title = `list: the same profile, deep page (offset ${o.deepOffset})`;
    await listPostPage(q, profile, o.pageSize, o.deepOffset);
    title = `list: the tenant's newest page, no filter (GET /v1/posts?limit=${o.pageSize})`;
    await listPostPage(q, { tenantId: o.scale.tenantId }, o.pageSize, 0);

    // The create insert, one post with one target, as the create route sends it.
    const now = new Date();
    const post = (content: string, at: Date): NewPost => ({
      id: newId(), title: null, content, status: 'scheduled', scheduledFor: at, timezone: 'UTC', publishNow: false, isDraft: false, visibility: 'public',
      tags: [], hashtags: [], mentions: [], media: [], hidden: false, metadata: {}, countedAt: now, queuedFromProfile: null, queueId: null,
    });
    const target = (postId: string, accountId: string, at: Date): NewTarget => ({
      id: newId(), postId, position: 0, accountId, platform: 'bluesky', customContent: null, platformSpecificData: {}, status: 'pending', runAt: at, scheduledFor: null,
    });
    const one = post('Explained create', new Date('2035-06-15T07:30:00Z'));
    const acc = o.tenant.accountIds[0];
    title = 'create: insert of one post with one target (POST /v1/posts)';
    await insertPostsWithTargets(q, o.tenant.userId, o.tenant.userId, [one], [target(one.id, acc, one.scheduledFor!)], now,
      [{ accountId: acc, hash: contentHash(one.content, [], {}), postId: one.id }], [], 'explain-request');

    // 50 targets due a minute ago (written for real, plainly; the claim compares run_at with now(), the
    // transaction's start), then the publisher's statements on them, in a transaction of their own.
    await client.query('ROLLBACK');
    await client.query('BEGIN');
    const due = new Date(Date.now() - 60_000);
    const posts = Array.from({ length: 50 }, (_, i) => post(`Explained due ${i}`, due));
    const targets = posts.map((p, i) => target(p.id, o.tenant.accountIds[i % o.tenant.accountIds.length], due));
    await insertPostsWithTargets(client, o.tenant.userId, o.tenant.userId, posts, targets, now,
      posts.map((p, i) => ({ accountId: targets[i].accountId, hash: contentHash(p.content, [], {}), postId: p.id })), [], null);
    const fake = { query: q.query, pool: db.pool, tx: <T>(fn: (c: pg.PoolClient) => Promise<T>) => fn(client), queryWithin: () => { throw new Error('not here'); } } as unknown as Db;
    const repo = createTargetsRepository(fake);
    const workerId = 'bench-explain';
    title = 'publisher: claim of 50 due targets (the first claim of a drain at concurrency 50)';
    const claimed = await repo.claim(workerId, 50, 30, null);
    title = 'publisher: attempt rows before the commits (grouped)';
    const attempts = await Promise.all(claimed.map((t) => repo.startAttempt(t, workerId, 'commit', { token: t.id }, 'publish', 30)));
    title = 'publisher: finish of single-target posts, published (grouped)';
    await Promise.all(claimed.map((t, i) => repo.finish(t, workerId, attempts[i], {
      status: 'published', result: { platformPostId: `explain-${i}`, platformPostUrl: `https://example.test/explain/${i}` }, attemptOutcome: 'published',
    }, true)));
    if (claimed.length !== 50) seen.set('note', { title: `NOTE: the claim took ${claimed.length} targets, not 50`, name: 'note', rows: 0, plan: [], generic: [] });
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
  const file = path.join(os.tmpdir(), `herald-bench-explain-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
  const text = [...seen.values()].map((e) =>
    `=== ${e.title}\n--- statement ${e.name}${e.rows > 1 ? ` (${e.rows} rows in its arrays)` : ''}\n${e.plan.join('\n')}` +
    (e.generic.length ? `\n--- generic plan (EXPLAIN (GENERIC_PLAN): the plan a prepared statement may keep for any values)\n${e.generic.join('\n')}` : '')).join('\n\n');
  fs.writeFileSync(file, `${text}\n`);
  return file;
}
