/**
 * The reconciler's safety net for post statuses (src/modules/posts/status.ts repairPostStatuses): a
 * scheduled or publishing post none of whose targets is still pending or publishing gets its status
 * derived again. A pass looks at a slice of the posts in id order and the sweep (kept by its worker) goes round, so its cost
 * does not grow with the posts table (bench/README.md, session 12).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repairPostStatuses } from '../../src/modules/posts/status.ts';
import { reconcile } from '../../src/publishing/reconciler.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx.close(); });

describe('repairPostStatuses', () => {
  it('fixes a status left behind, a slice per pass, and starts over after the last post', async () => {
    const t = await createTenant(ctx);
    const profile = await createProfile(ctx, t);
    const account = await insertAccount(ctx, t, profile, 'bluesky');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers,
        payload: { content: `repair ${i}`, scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: account }] } });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().post._id);
    }
    // A crash between a target's finish and its post's status (no writer leaves it so; this is what the net is for):
    // three posts say scheduled while their only target is published; the others are rightly scheduled.
    const stale = ids.filter((_, i) => i % 2 === 1);
    await ctx.db.query(`UPDATE post_targets SET status = 'published', published_at = now(), run_at = NULL WHERE post_id = ANY($1::char(24)[])`, [stale]);
    const status = async () => Object.fromEntries((await ctx.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM posts WHERE id = ANY($1::char(24)[])', [ids])).rows.map((r) => [r.id, r.status]));
    expect(Object.values(await status())).toEqual(Array(7).fill('scheduled'));

    // Passes of two posts each: every pass answers where the next starts, the last one null.
    let after: string | null = null;
    let fixed = 0;
    let passes = 0;
    const total = (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM posts')).rows[0].n;
    do {
      const r: { fixed: number; next: string | null } = await ctx.db.tx((c) => repairPostStatuses(c, after, 2));
      expect(r.fixed).toBeLessThanOrEqual(2);
      if (r.next !== null) expect(after === null || r.next > after).toBe(true);
      fixed += r.fixed;
      after = r.next;
      passes++;
    } while (after !== null && passes < 10_000);
    expect(passes).toBe(Math.floor(total / 2) + 1);
    expect(fixed).toBe(3);
    const now = await status();
    for (const id of ids) expect(now[id], id).toBe(stale.includes(id) ? 'published' : 'scheduled');
  });

  it('the reconciler fixes one within its passes', async () => {
    const t = await createTenant(ctx);
    const profile = await createProfile(ctx, t);
    const account = await insertAccount(ctx, t, profile, 'bluesky');
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers,
      payload: { content: 'left publishing', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: account }] } });
    const id = res.json().post._id as string;
    await ctx.db.query(`UPDATE posts SET status = 'publishing' WHERE id = $1`, [id]);
    await ctx.db.query(`UPDATE post_targets SET status = 'failed', run_at = NULL, error_message = 'gone' WHERE post_id = $1`, [id]);
    // The test database holds far fewer posts than a pass looks at: a worker's sweep that has gone past the post
    // reaches it on its next pass, which starts over from the first post.
    const sweep = { from: id };
    await reconcile(ctx.db, { staleMs: 30_000, sweep });
    expect(sweep.from).toBeNull();
    expect((await ctx.db.query<{ status: string }>('SELECT status FROM posts WHERE id = $1', [id])).rows[0].status).toBe('publishing');
    await reconcile(ctx.db, { staleMs: 30_000, sweep });
    expect((await ctx.db.query<{ status: string }>('SELECT status FROM posts WHERE id = $1', [id])).rows[0].status).toBe('failed');
  });
});
