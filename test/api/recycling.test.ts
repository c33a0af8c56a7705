/**
 * Recycling (docs/decisions/0061-recycling.md) through the real app and PostgreSQL: the config on
 * create, get and update (its 400s naming field and rule, nothing stored on a refusal), the limit
 * per account, the job creating one copy per due time (time driven by moving the source's next due
 * time into the past in SQL), the copy published by the ordinary pipeline, expiry, pause and stop,
 * the post.recycled event, and two workers racing for one due time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createRecycler } from '../../src/modules/posts/recycle-job.ts';
import { targetRunAt } from '../../src/modules/posts/targets.ts';
import { createDb, type Db } from '../../src/storage/db.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';

let ctx: TestContext;
let t: Tenant;
let other: Tenant;
let sky: string;
let sky2: string;
let x: string;
let yt: string;
let worker: Publisher;
const adapter = new ScriptedAdapter();

beforeAll(async () => {
  ctx = await createTestApp({ env: { HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }, deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter }) } });
  t = await createTenant(ctx);
  other = await createTenant(ctx);
  const profile = await createProfile(ctx, t);
  sky = await insertAccount(ctx, t, profile, 'bluesky');
  sky2 = await insertAccount(ctx, t, profile, 'bluesky');
  x = await insertAccount(ctx, t, profile, 'twitter');
  yt = await insertAccount(ctx, t, profile, 'youtube');
  worker = await startTestPublisher(ctx, 'recycling');
});
afterAll(async () => { await ctx.close(); });

const create = (payload: Record<string, unknown>, who: Tenant = t) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: who.headers, payload });
const update = (id: string, payload: Record<string, unknown>, who: Tenant = t) => ctx.app.inject({ method: 'PUT', url: `/v1/posts/${id}`, headers: who.headers, payload });
const get = async (id: string) => (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: t.headers })).json().post;
const postCount = async () => Number((await ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM posts WHERE tenant_id = $1', [t.userId])).rows[0].n);
const recycler = () => createRecycler({ db: ctx.db, clock: () => new Date(), publisher: ctx.services.publisher, runAt: (p, at, now) => targetRunAt(ctx.services.adapters, p, at, now) });

/** The source's next due time moved into the past (as if that time had come). */
const makeDue = (id: string) => ctx.db.query(`UPDATE posts SET recycle_next_at = now() - interval '1 minute' WHERE id = $1`, [id]);
/** Marks a post published as the publisher would (its targets and status). */
async function markPublished(id: string) {
  await ctx.db.query(`UPDATE post_targets SET status = 'published', run_at = NULL, platform_post_id = 'p-' || id, published_at = now() WHERE post_id = $1`, [id]);
  await ctx.db.query(`UPDATE posts SET status = 'published', published_at = now() WHERE id = $1`, [id]);
}
const copiesOf = async (id: string) => (await ctx.db.query<{ id: string; content: string; status: string; recycle_due_at: Date }>(
  'SELECT id, content, status, recycle_due_at FROM posts WHERE recycled_from_post_id = $1 ORDER BY created_at, recycle_due_at', [id])).rows;

describe('recycling config on create, get and update', () => {
  it('accepts recycling on create and returns its state on get', async () => {
    const res = await create({
      content: 'Evergreen guide', scheduledFor: '2031-03-31T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: sky }],
      recycling: { gap: 1, gapFreq: 'month', expireCount: 3, contentVariations: ['Guide, take one', 'Guide, take two'] },
    });
    expect(res.statusCode).toBe(201);
    const expected = {
      enabled: true, gap: 1, gapFreq: 'month', startDate: '2031-03-31T09:00:00.000Z', expireCount: 3,
      contentVariations: ['Guide, take one', 'Guide, take two'], contentVariationIndex: 0, recycleCount: 0,
      nextRecycleAt: '2031-04-30T09:00:00.000Z', // a month later, the last day of a shorter month
    };
    expect(res.json().post.recycling).toEqual(expected);
    expect(await get(res.json().post._id)).toMatchObject({ recycling: expected });
  });

  it('defaults gapFreq to month and the start to the post time; a week gap counts 7 days', async () => {
    const res = await create({ content: 'Weekly', scheduledFor: '2031-01-05T10:00:00Z', platforms: [{ platform: 'bluesky', accountId: sky2 }], recycling: { gap: 2, gapFreq: 'week' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().post.recycling).toMatchObject({ gapFreq: 'week', startDate: '2031-01-05T10:00:00.000Z', nextRecycleAt: '2031-01-19T10:00:00.000Z' });
    const monthly = await create({ content: 'Monthly', scheduledFor: '2031-01-05T10:00:00Z', platforms: [{ platform: 'bluesky', accountId: sky2 }], recycling: { gap: 1 } });
    expect(monthly.json().post.recycling).toMatchObject({ gapFreq: 'month', nextRecycleAt: '2031-02-05T10:00:00.000Z' });
  });

  const bad: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['gap missing', { platforms: [{ platform: 'bluesky', accountId: 'SKY' }], recycling: { gapFreq: 'week' } }, 'recycling.gap', /required.*recycling\.gap/],
    ['one variation', { platforms: [{ platform: 'bluesky', accountId: 'SKY' }], recycling: { gap: 1, contentVariations: ['only one'] } }, 'recycling.contentVariations', /2 or more.*recycling\.variations/],
    ['repeated variation', { platforms: [{ platform: 'bluesky', accountId: 'SKY' }], recycling: { gap: 1, contentVariations: ['a', 'b', 'a'] } }, 'recycling.contentVariations.2', /differ/],
    ['bad start date', { platforms: [{ platform: 'bluesky', accountId: 'SKY' }], recycling: { gap: 1, startDate: 'next tuesday' } }, 'recycling.startDate', /ISO 8601/],
    ['expireDate before the first copy', { platforms: [{ platform: 'bluesky', accountId: 'SKY' }], recycling: { gap: 1, expireDate: '2031-01-10T00:00:00Z' } }, 'recycling.expireDate', /recycling\.expire/],
    ['YouTube target', { platforms: [{ platform: 'youtube', accountId: 'YT', platformSpecificData: { title: 'T' } }], mediaItems: [{ type: 'video', url: 'https://cdn.example/v.mp4' }], recycling: { gap: 1 } }, 'platforms.0.platform', /recycling\.platform_excluded/],
    ['X without variations', { platforms: [{ platform: 'twitter', accountId: 'X' }], recycling: { gap: 1 } }, 'recycling.contentVariations', /twitter\.recycling\.duplicate_content/],
    ['X target pinning its text', { platforms: [{ platform: 'twitter', accountId: 'X', customContent: 'pinned' }], recycling: { gap: 1, contentVariations: ['v1', 'v2'] } }, 'platforms.0.customContent', /twitter\.recycling\.duplicate_content/],
    ['an X variation repeating the post', { platforms: [{ platform: 'twitter', accountId: 'X' }], recycling: { gap: 1, contentVariations: ['Other words', 'Evergreen'] } }, 'recycling.contentVariations.1', /repeats the post's own text.*twitter\.recycling\.duplicate_content/],
    ['a variation too long for X', { platforms: [{ platform: 'twitter', accountId: 'X' }], recycling: { gap: 1, contentVariations: ['x'.repeat(300), 'short'] } }, 'recycling.contentVariations.0', /twitter\.text\.max_weighted_length/],
    ['a draft without a start', { isDraft: true, scheduledFor: null, platforms: [{ platform: 'bluesky', accountId: 'SKY' }], recycling: { gap: 1 } }, 'recycling.startDate', /required/],
    ['gapFreq day', { platforms: [{ platform: 'bluesky', accountId: 'SKY' }], recycling: { gap: 1, gapFreq: 'day' } }, 'recycling.gapFreq', /./],
    ['gap 0', { platforms: [{ platform: 'bluesky', accountId: 'SKY' }], recycling: { gap: 0 } }, 'recycling.gap', /./],
  ];
  it.each(bad)('refuses %s with a 400 naming the field and rule, storing nothing', async (_name, body, field, rule) => {
    const before = await postCount();
    const platforms = (body.platforms as Array<Record<string, unknown>>).map((p) => ({ ...p, accountId: ({ SKY: sky, X: x, YT: yt } as Record<string, string>)[p.accountId as string] }));
    const res = await create({ content: 'Evergreen', scheduledFor: '2031-01-15T09:00:00Z', ...body, platforms });
    expect(res.statusCode, res.body).toBe(400);
    const fields = res.json().details.fields as Record<string, string[]>;
    const key = Object.keys(fields).find((k) => k === field || k.startsWith(`${field}`) || k === `body/${field.replace(/\./g, '/')}`);
    expect(key, JSON.stringify(fields)).toBeDefined();
    expect(fields[key!].join(' ')).toMatch(rule);
    expect(await postCount()).toBe(before);
  });

  it('accepts X with 2+ variations', async () => {
    const res = await create({ content: 'X evergreen', scheduledFor: '2031-01-15T09:00:00Z', platforms: [{ platform: 'twitter', accountId: x }], recycling: { gap: 1, gapFreq: 'week', contentVariations: ['X one', 'X two'] } });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('allows at most 10 active recycling posts per account; pausing one frees a place', async () => {
    const acc = await insertAccount(ctx, t, await createProfile(ctx, t), 'bluesky');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await create({ content: `Limit ${i}`, scheduledFor: '2031-02-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }], recycling: { gap: 1 } });
      expect(r.statusCode, r.body).toBe(201);
      ids.push(r.json().post._id);
    }
    const before = await postCount();
    const eleventh = await create({ content: 'Limit 10', scheduledFor: '2031-02-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }], recycling: { gap: 1 } });
    expect(eleventh.statusCode).toBe(400);
    expect(eleventh.json().details.fields.recycling[0]).toMatch(/at most 10 per account.*recycling\.max_active_per_account/);
    expect(await postCount()).toBe(before);
    // A post without recycling on that account is fine.
    expect((await create({ content: 'No recycling', scheduledFor: '2031-02-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }] })).statusCode).toBe(201);
    // Updating one of the ten (its own config does not count against itself) is fine; null clears a limit.
    const withEnd = await update(ids[0], { recycling: { gap: 2, expireDate: '2040-01-01', expireCount: 5 } });
    expect(withEnd.json().post.recycling).toMatchObject({ expireDate: '2040-01-01T00:00:00.000Z', expireCount: 5 });
    const cleared = await update(ids[0], { recycling: { expireDate: null, expireCount: null, startDate: null } });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().post.recycling).toMatchObject({ gap: 2, startDate: '2031-02-01T09:00:00.000Z' });
    expect(cleared.json().post.recycling.expireDate).toBeUndefined();
    expect(cleared.json().post.recycling.expireCount).toBeUndefined();
    const paused = await update(ids[0], { recycling: { enabled: false } });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().post.recycling).toMatchObject({ enabled: false, gap: 2 });
    expect(paused.json().post.recycling.nextRecycleAt).toBeUndefined();
    expect((await create({ content: 'Limit 10', scheduledFor: '2031-02-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }], recycling: { gap: 1 } })).statusCode).toBe(201);
    // Re-enabling the paused one is now the eleventh.
    const again = await update(ids[0], { recycling: { enabled: true } });
    expect(again.statusCode).toBe(400);
    expect(again.json().details.fields.recycling[0]).toMatch(/recycling\.max_active_per_account/);
  });

  it('two creates racing for the tenth place: one is saved, the other refused naming the rule', async () => {
    const acc = await insertAccount(ctx, t, await createProfile(ctx, t), 'bluesky');
    for (let i = 0; i < 9; i++) {
      expect((await create({ content: `Race ${i}`, scheduledFor: '2031-02-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }], recycling: { gap: 1 } })).statusCode).toBe(201);
    }
    const both = await Promise.all(['Race A', 'Race B'].map((content) => create({ content, scheduledFor: '2031-02-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc }], recycling: { gap: 1 } })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(DISTINCT p.id)::int AS n FROM posts p JOIN post_targets pt ON pt.post_id = p.id WHERE pt.account_id = $1 AND (p.recycling->>'enabled')::boolean`, [acc]);
    expect(rows[0].n).toBe(10);
  });

  it('a queued post without startDate counts its copies from the queue slot it gets', async () => {
    const profile = await createProfile(ctx, t);
    const acc = await insertAccount(ctx, t, profile, 'bluesky');
    const slots = await ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: t.headers, payload: { profileId: profile, timezone: 'UTC', slots: [{ dayOfWeek: 1, time: '09:00' }] } });
    expect(slots.statusCode, slots.body).toBe(200);
    const res = await create({ content: 'Queued evergreen', queuedFromProfile: profile, platforms: [{ platform: 'bluesky', accountId: acc }], recycling: { gap: 1, gapFreq: 'week' } });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json().post;
    expect(new Date(post.scheduledFor).getUTCDay()).toBe(1);
    expect(post.recycling.startDate).toBe(post.scheduledFor);
    expect(Date.parse(post.recycling.nextRecycleAt) - Date.parse(post.scheduledFor)).toBe(7 * 86_400_000);
    expect((await get(post._id)).recycling).toEqual(post.recycling);
  });

  it('another tenant\'s post answers 404 and is left as it was', async () => {
    const res = await create({ content: 'Mine', scheduledFor: '2031-01-15T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: sky }], recycling: { gap: 1 } });
    const id = res.json().post._id;
    expect((await update(id, { recycling: null }, other)).statusCode).toBe(404);
    expect((await get(id)).recycling).toMatchObject({ enabled: true });
  });
});

describe('the recycling job', () => {
  it('creates one copy per due time with the next variation, publishes it, and stops after expireCount', async () => {
    const hook = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/settings', headers: t.headers, payload: { name: 'r', url: 'http://127.0.0.1:9/hook', events: ['post.recycled'] } });
    expect(hook.statusCode, hook.body).toBe(200);
    const res = await create({
      content: 'Source text', scheduledFor: '2030-06-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: sky }],
      recycling: { gap: 1, gapFreq: 'week', expireCount: 2, contentVariations: ['Variation A', 'Variation B'] },
    });
    const id = res.json().post._id;
    // Not published yet: a due time waits for the source's publication.
    await makeDue(id);
    expect(await recycler().runDue()).toEqual({ created: 0, finished: 0 });
    await markPublished(id);

    expect(await recycler().runDue()).toEqual({ created: 1, finished: 0 });
    expect(await recycler().runDue()).toEqual({ created: 0, finished: 0 }); // the next due time is a week on
    let copies = await copiesOf(id);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ content: 'Variation A', status: 'scheduled' });
    const copy = await get(copies[0].id);
    expect(copy).toMatchObject({ recycledFromPostId: id, status: 'scheduled', platforms: [{ status: 'pending', accountId: { _id: sky } }] });
    expect(copy.recycling).toBeUndefined();
    let source = await get(id);
    expect(source.recycling).toMatchObject({ enabled: true, recycleCount: 1, contentVariationIndex: 1 });
    expect(Date.parse(source.recycling.nextRecycleAt)).toBeGreaterThan(Date.now());
    expect(Date.parse(source.recycling.lastRecycledAt)).toBeLessThanOrEqual(Date.now());

    // The copy is an ordinary post: the publisher publishes it through its own target.
    expect(await runDue(ctx, worker, copies[0].id)).toBe(1);
    expect((await get(copies[0].id)).status).toBe('published');
    expect(adapter.commits.at(-1)).toMatchObject({ accountId: sky, text: 'Variation A' });

    // The post.recycled event names the copy and its source.
    const { rows: events } = await ctx.db.query<{ payload: { post: { id: string }; recycling: Record<string, unknown> } }>(
      `SELECT payload FROM webhook_deliveries WHERE tenant_id = $1 AND event = 'post.recycled'`, [t.userId]);
    expect(events).toHaveLength(1);
    expect(events[0].payload.post.id).toBe(copies[0].id);
    expect(events[0].payload.recycling).toMatchObject({ sourcePostId: id, recycleCount: 1, contentVariationIndex: 0 });

    await makeDue(id);
    expect(await recycler().runDue()).toEqual({ created: 1, finished: 1 });
    copies = await copiesOf(id);
    expect(copies.map((c) => c.content)).toEqual(['Variation A', 'Variation B']);
    source = await get(id);
    expect(source.recycling).toMatchObject({ enabled: false, recycleCount: 2 });
    expect(source.recycling.nextRecycleAt).toBeUndefined();
    await ctx.db.query(`UPDATE posts SET recycle_next_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    expect((await recycler().runDue()).created).toBe(0);
  });

  it('stops at expireDate and uses the source content without variations', async () => {
    const res = await create({ content: 'Plain source', scheduledFor: '2030-06-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: sky2 }], recycling: { gap: 1, gapFreq: 'week', expireDate: '2099-01-01T00:00:00Z' } });
    const id = res.json().post._id;
    await markPublished(id);
    await makeDue(id);
    expect((await recycler().runDue()).created).toBe(1);
    expect((await copiesOf(id))[0].content).toBe('Plain source');
    // The end date passes: the next due time ends the series instead of copying.
    await ctx.db.query(`UPDATE posts SET recycling = jsonb_set(recycling, '{expireDate}', to_jsonb($2::text)), recycle_next_at = now() - interval '1 minute' WHERE id = $1`,
      [id, new Date(Date.now() - 3_600_000).toISOString()]);
    expect(await recycler().runDue()).toEqual({ created: 0, finished: 1 });
    expect(await copiesOf(id)).toHaveLength(1);
    expect((await get(id)).recycling).toMatchObject({ enabled: false, recycleCount: 1 });
  });

  it('pauses and stops through an update of a published post (recycling only), which changes nothing else', async () => {
    const res = await create({ content: 'Published one', scheduledFor: '2030-06-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: sky }], recycling: { gap: 1 } });
    const id = res.json().post._id;
    await markPublished(id);
    const paused = await update(id, { recycling: { enabled: false } });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().post).toMatchObject({ status: 'published', recycling: { enabled: false } });
    // Paused: no due time, so no pass copies it.
    expect((await ctx.db.query('SELECT 1 FROM posts WHERE id = $1 AND recycle_next_at IS NULL', [id])).rowCount).toBe(1);
    expect((await recycler().runDue()).created).toBe(0);
    const resumed = await update(id, { recycling: { enabled: true } });
    expect(Date.parse(resumed.json().post.recycling.nextRecycleAt)).toBeGreaterThan(Date.now());
    const stopped = await update(id, { recycling: null });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().post.recycling).toBeUndefined();
    expect(stopped.json().post.platforms[0].status).toBe('published');
    // Other fields on a published post are still refused as before.
    expect((await update(id, { content: 'edited', recycling: { gap: 1 } })).statusCode).toBe(409);
  });

  it('two workers racing for the same due times create exactly one copy each time', async () => {
    const res = await create({ content: 'Race source', scheduledFor: '2030-06-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: sky2 }], recycling: { gap: 1, gapFreq: 'week' } });
    const id = res.json().post._id;
    await markPublished(id);
    const pools: Db[] = [createDb(ctx.databaseUrl, { max: 4 }), createDb(ctx.databaseUrl, { max: 4 })];
    try {
      const workers = pools.map((db) => createRecycler({ db, clock: () => new Date(), publisher: ctx.services.publisher, runAt: (p, at, now) => targetRunAt(ctx.services.adapters, p, at, now) }));
      for (let round = 0; round < 5; round++) {
        await makeDue(id);
        const passes = await Promise.all([...workers, ...workers].map((w) => w.runDue()));
        expect(passes.reduce((n, p) => n + p.created, 0)).toBe(1);
      }
      const copies = await copiesOf(id);
      expect(copies).toHaveLength(5);
      expect(new Set(copies.map((c) => c.recycle_due_at.getTime())).size).toBe(5);
      expect((await get(id)).recycling.recycleCount).toBe(5);
      // The database itself refuses a second copy of one due time.
      await expect(ctx.db.query('UPDATE posts SET recycle_due_at = $2 WHERE id = $1', [copies[1].id, copies[0].recycle_due_at])).rejects.toThrow(/posts_one_repost_per_due_time/);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });
});
