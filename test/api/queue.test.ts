import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSlots } from '../../src/core/queue-slots.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx.close(); });

const SLOTS = [{ dayOfWeek: 1, time: '09:00' }, { dayOfWeek: 3, time: '14:30' }, { dayOfWeek: 5, time: '18:00' }];

async function setup() {
  const t = await createTenant(ctx);
  const profileId = await createProfile(ctx, t);
  const accountId = await insertAccount(ctx, t, profileId);
  return { t, profileId, accountId };
}

const put = (t: Tenant, body: object) => ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: t.headers, payload: body });
const get = (t: Tenant, url: string) => ctx.app.inject({ method: 'GET', url, headers: t.headers });
const createPost = (t: Tenant, body: object) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: body });

describe('queue schedule', () => {
  it('creates, reads, previews and deletes a schedule', async () => {
    const { t, profileId } = await setup();
    expect((await get(t, `/v1/queue/slots?profileId=${profileId}`)).json()).toEqual({ exists: false, schedule: null, nextSlots: [] });
    const res = await put(t, { profileId, timezone: 'America/New_York', slots: [...SLOTS, SLOTS[0]] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, reshuffledCount: 0, schedule: { profileId, timezone: 'America/New_York', slots: SLOTS, active: true } });
    const expected = nextSlots(SLOTS, 'America/New_York', new Date(), 10).map((d) => d.toISOString());
    expect(body.nextSlots).toEqual(expected);
    const got = (await get(t, `/v1/queue/slots?profileId=${profileId}`)).json();
    expect(got).toMatchObject({ exists: true, schedule: { timezone: 'America/New_York' } });
    const preview = (await get(t, `/v1/queue/preview?profileId=${profileId}&count=5`)).json();
    expect(preview).toMatchObject({ profileId, count: 5 });
    expect(preview.slots).toEqual(expected.slice(0, 5));
    expect((await get(t, `/v1/queue/preview?profileId=${profileId}`)).json().slots).toHaveLength(20);
    for (const count of [0, 101, 'Infinity', '1e309', '-Infinity']) {
      const bad = await get(t, `/v1/queue/preview?profileId=${profileId}&count=${count}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.fields.count).toBeTruthy();
    }
    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/queue/slots?profileId=${profileId}`, headers: t.headers });
    expect(del.json()).toMatchObject({ success: true, deleted: true });
    expect((await get(t, `/v1/queue/slots?profileId=${profileId}`)).json().exists).toBe(false);
  });

  it('validates days, times and zones, naming the field', async () => {
    const { t, profileId } = await setup();
    const cases: Array<[object, string]> = [
      [{ profileId, timezone: 'Nowhere/Town', slots: SLOTS }, 'timezone'],
      [{ profileId, timezone: 'UTC', slots: [{ dayOfWeek: 7, time: '09:00' }] }, 'slots.0.dayOfWeek'],
      [{ profileId, timezone: 'UTC', slots: [{ dayOfWeek: 1, time: '9:00' }] }, 'slots.0.time'],
      [{ profileId, timezone: 'UTC', slots: [{ dayOfWeek: 1, time: '24:00' }] }, 'slots.0.time'],
      [{ profileId, timezone: 'UTC', slots: [] }, 'slots'],
    ];
    for (const [body, field] of cases) {
      const res = await put(t, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().details.fields)).toContain(field);
    }
  });
});

describe('queued posts', () => {
  it('puts a post in the next free slot; next-slot skips occupied times', async () => {
    const { t, profileId, accountId } = await setup();
    await put(t, { profileId, timezone: 'Europe/Paris', slots: SLOTS });
    const slots = nextSlots(SLOTS, 'Europe/Paris', new Date(), 3).map((d) => d.toISOString());
    const next = (await get(t, `/v1/queue/next-slot?profileId=${profileId}`)).json();
    expect(next).toMatchObject({ profileId, nextSlot: slots[0], timezone: 'Europe/Paris' });
    const a = await createPost(t, { content: 'first', queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId }] });
    expect(a.statusCode).toBe(201);
    expect(a.json().post).toMatchObject({ status: 'scheduled', queuedFromProfile: profileId, scheduledFor: slots[0], timezone: 'Europe/Paris' });
    expect((await get(t, `/v1/queue/next-slot?profileId=${profileId}`)).json().nextSlot).toBe(slots[1]);
    // platforms omitted: the queue profile's accounts
    const b = await createPost(t, { content: 'second', queuedFromProfile: profileId });
    expect(b.json().post.scheduledFor).toBe(slots[1]);
    expect(b.json().post.platforms.map((p: { accountId: { _id: string } }) => p.accountId._id)).toEqual([accountId]);
    // The docs' flow: next-slot time + queuedFromProfile keeps that time when it is free.
    const c = await createPost(t, { content: 'third', scheduledFor: slots[2], timezone: 'America/New_York', queuedFromProfile: profileId });
    expect(c.json().post.scheduledFor).toBe(slots[2]);
    // ...and takes the next free slot when it is not.
    const d = await createPost(t, { content: 'fourth', scheduledFor: slots[0], queuedFromProfile: profileId });
    expect(d.json().post.scheduledFor).toBe(nextSlots(SLOTS, 'Europe/Paris', new Date(), 4)[3].toISOString());
  });

  it('never gives the same slot to posts created at the same moment', async () => {
    const { t, profileId } = await setup();
    await put(t, { profileId, timezone: 'UTC', slots: SLOTS });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => createPost(t, { content: `race ${i}`, queuedFromProfile: profileId })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const times = results.map((r) => r.json().post.scheduledFor);
    expect(new Set(times).size).toBe(12);
    expect(times.sort()).toEqual(nextSlots(SLOTS, 'UTC', new Date(), 12).map((d) => d.toISOString()));
  });

  it('refuses an inactive queue and a profile without a queue', async () => {
    const { t, profileId } = await setup();
    const none = await createPost(t, { content: 'x', queuedFromProfile: profileId });
    expect(none.statusCode).toBe(400);
    expect(none.json().details.fields.queuedFromProfile[0]).toMatch(/no queue/);
    await put(t, { profileId, timezone: 'UTC', slots: SLOTS, active: false });
    const inactive = await createPost(t, { content: 'x', queuedFromProfile: profileId });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().details.fields.queuedFromProfile[0]).toMatch(/inactive/);
    expect((await get(t, `/v1/queue/next-slot?profileId=${profileId}`)).statusCode).toBe(400);
    expect((await get(t, '/v1/posts')).json().pagination.total).toBe(0);
  });

  it('moves a draft into the queue, takes a post out keeping its time, and keeps times when the schedule is deleted', async () => {
    const { t, profileId, accountId } = await setup();
    await put(t, { profileId, timezone: 'UTC', slots: SLOTS });
    const slots = nextSlots(SLOTS, 'UTC', new Date(), 2).map((d) => d.toISOString());
    const draft = (await createPost(t, { content: 'draft', isDraft: true, platforms: [{ platform: 'bluesky', accountId }] })).json().post;
    const moved = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${draft._id}`, headers: t.headers, payload: { queuedFromProfile: profileId } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().post).toMatchObject({ status: 'scheduled', queuedFromProfile: profileId, scheduledFor: slots[0] });
    const { rows } = await ctx.db.query<{ run_at: Date }>('SELECT run_at FROM post_targets WHERE post_id = $1', [draft._id]);
    expect(rows[0].run_at.toISOString()).toBe(slots[0]);
    const out = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${draft._id}`, headers: t.headers, payload: { queuedFromProfile: null } });
    expect(out.json().post).toMatchObject({ queuedFromProfile: null, scheduledFor: slots[0], status: 'scheduled' });
    // its slot is free again
    expect((await get(t, `/v1/queue/next-slot?profileId=${profileId}`)).json().nextSlot).toBe(slots[0]);
    const queued = (await createPost(t, { content: 'queued', queuedFromProfile: profileId })).json().post;
    await ctx.app.inject({ method: 'DELETE', url: `/v1/queue/slots?profileId=${profileId}`, headers: t.headers });
    const after = (await get(t, `/v1/posts/${queued._id}`)).json().post;
    expect(after).toMatchObject({ status: 'scheduled', scheduledFor: queued.scheduledFor });
  });

  it('a queued post turned back into a draft leaves the queue (its slot is free again)', async () => {
    const { t, profileId, accountId } = await setup();
    await put(t, { profileId, timezone: 'UTC', slots: SLOTS });
    const slots = nextSlots(SLOTS, 'UTC', new Date(), 2).map((d) => d.toISOString());
    const queued = (await createPost(t, { content: 'queued then drafted', queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId }] })).json().post;
    expect(queued).toMatchObject({ status: 'scheduled', queuedFromProfile: profileId, scheduledFor: slots[0] });
    const drafted = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${queued._id}`, headers: t.headers, payload: { isDraft: true } });
    expect(drafted.statusCode, drafted.body).toBe(200);
    expect(drafted.json().post).toMatchObject({ status: 'draft', queuedFromProfile: null });
    expect((await get(t, `/v1/posts/${queued._id}`)).json().post.queuedFromProfile).toBeNull();
    expect((await get(t, `/v1/queue/next-slot?profileId=${profileId}`)).json().nextSlot).toBe(slots[0]);
  });

  it('reshuffles queued posts over new slots in order and reports how many moved', async () => {
    const { t, profileId } = await setup();
    await put(t, { profileId, timezone: 'UTC', slots: SLOTS });
    const posts = [];
    for (let i = 0; i < 3; i++) posts.push((await createPost(t, { content: `q${i}`, queuedFromProfile: profileId })).json().post);
    const newSlots = [{ dayOfWeek: 2, time: '07:15' }];
    const keep = await put(t, { profileId, timezone: 'UTC', slots: newSlots });
    expect(keep.json().reshuffledCount).toBe(0);
    expect((await get(t, `/v1/posts/${posts[0]._id}`)).json().post.scheduledFor).toBe(posts[0].scheduledFor);
    const res = await put(t, { profileId, timezone: 'Asia/Tokyo', slots: newSlots, reshuffleExisting: true });
    expect(res.json().reshuffledCount).toBe(3);
    const expected = nextSlots(newSlots, 'Asia/Tokyo', new Date(), 3).map((d) => d.toISOString());
    const got = await Promise.all(posts.map(async (p) => (await get(t, `/v1/posts/${p._id}`)).json().post));
    expect(got.map((p) => p.scheduledFor)).toEqual(expected);
    expect(got.every((p) => p.timezone === 'Asia/Tokyo')).toBe(true);
    const { rows } = await ctx.db.query<{ run_at: Date }>('SELECT run_at FROM post_targets WHERE post_id = ANY($1::char(24)[]) ORDER BY run_at', [posts.map((p) => p._id)]);
    expect(rows.map((r) => r.run_at.toISOString())).toEqual(expected);
  });

  it('a reshuffle runs each target by the one run-at rule: a YouTube target uploads ahead at once, as when it was created', async () => {
    const { t, profileId, accountId } = await setup();
    const yt = await insertAccount(ctx, t, profileId, 'youtube');
    await put(t, { profileId, timezone: 'UTC', slots: SLOTS });
    const video = (await createPost(t, {
      content: 'A video', queuedFromProfile: profileId, mediaItems: [{ url: 'https://cdn.example.com/clip.mp4' }], platforms: [{ platform: 'youtube', accountId: yt }],
    })).json().post;
    const text = (await createPost(t, { content: 'A text', queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId }] })).json().post;
    const runAt = async (postId: string) => (await ctx.db.query<{ run_at: Date }>('SELECT run_at FROM post_targets WHERE post_id = $1', [postId])).rows[0].run_at;
    const created = await runAt(video._id);
    expect(created.getTime()).toBeLessThan(new Date(video.scheduledFor).getTime()); // uploads ahead (decision 0017)
    const newSlots = [{ dayOfWeek: 2, time: '07:15' }];
    const before = Date.now();
    const res = await put(t, { profileId, timezone: 'UTC', slots: newSlots, reshuffleExisting: true });
    expect(res.json().reshuffledCount).toBe(2);
    const expected = nextSlots(newSlots, 'UTC', new Date(), 2);
    expect((await get(t, `/v1/posts/${video._id}`)).json().post.scheduledFor).toBe(expected[0].toISOString());
    // Not the new slot (that would upload the video only at its time): at once, by the reshuffle's clock.
    const moved = await runAt(video._id);
    expect(moved.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(moved.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await runAt(text._id)).toEqual(expected[1]);
  });

  it('a reshuffle leaves the run_at of a target the platform already holds (a video uploaded ahead), as an edit does', async () => {
    const { t, profileId } = await setup();
    const yt = await insertAccount(ctx, t, profileId, 'youtube');
    await put(t, { profileId, timezone: 'UTC', slots: SLOTS });
    const video = (await createPost(t, {
      content: 'A video', queuedFromProfile: profileId, mediaItems: [{ url: 'https://cdn.example.com/clip.mp4' }], platforms: [{ platform: 'youtube', accountId: yt }],
    })).json().post;
    // As the publisher leaves it: uploaded, private until publishAt, confirmed at the post's time.
    const goesLiveAt = new Date(video.scheduledFor);
    await ctx.db.query(`UPDATE post_targets SET platform_post_id = 'vid1', run_at = $2, result = jsonb_build_object('goesLiveAt', $3::text) WHERE post_id = $1`,
      [video._id, goesLiveAt, goesLiveAt.toISOString()]);
    const res = await put(t, { profileId, timezone: 'UTC', slots: [{ dayOfWeek: 2, time: '07:15' }], reshuffleExisting: true });
    expect(res.json().reshuffledCount).toBe(1);
    const { rows } = await ctx.db.query<{ run_at: Date; status: string }>('SELECT run_at, status FROM post_targets WHERE post_id = $1', [video._id]);
    expect(rows).toEqual([{ run_at: goesLiveAt, status: 'pending' }]);
  });

  it("another tenant's queue is a 404", async () => {
    const a = await setup();
    const b = await setup();
    await put(b.t, { profileId: b.profileId, timezone: 'UTC', slots: SLOTS });
    expect((await get(a.t, `/v1/queue/slots?profileId=${b.profileId}`)).statusCode).toBe(404);
    expect((await put(a.t, { profileId: b.profileId, timezone: 'UTC', slots: SLOTS })).statusCode).toBe(404);
    const p = await createPost(a.t, { content: 'x', queuedFromProfile: b.profileId });
    expect(p.statusCode).toBe(404);
  });
});
