/**
 * POST /v1/queue/arrange: queued posts move to other slots of their profile's queue together
 * (a swap, a move into a free slot), their pending targets following; a slot held by a post that
 * does not move, a time that is not a slot, a post not in the queue and another tenant's profile
 * are refused; queue:write is required.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx?.close(); });

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6].flatMap((dayOfWeek) => ['09:00', '13:00', '18:00'].map((time) => ({ dayOfWeek, time })));

async function setup() {
  const t = await createTenant(ctx);
  const profileId = await createProfile(ctx, t);
  const accountId = await insertAccount(ctx, t, profileId);
  const put = await ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: t.headers, payload: { profileId, timezone: 'UTC', slots: EVERY_DAY } });
  expect(put.statusCode, put.body).toBe(200);
  const slots = (await ctx.app.inject({ method: 'GET', url: `/v1/queue/preview?profileId=${profileId}&count=6`, headers: t.headers })).json().slots as string[];
  const queue = async (content: string) => {
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: { content, queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId }] } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().post as { _id: string; scheduledFor: string };
  };
  return { t, profileId, slots, queue };
}

const arrange = (t: Tenant, payload: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url: '/v1/queue/arrange', headers: t.headers, payload });
const timeOf = async (t: Tenant, id: string) => {
  const post = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: t.headers })).json().post;
  return new Date(post.scheduledFor).toISOString();
};

describe('POST /v1/queue/arrange', () => {
  it('swaps two queued posts and moves one into a free slot; the targets follow', async () => {
    const { t, profileId, slots, queue } = await setup();
    const a = await queue('First in line');
    const b = await queue('Second in line');
    expect([await timeOf(t, a._id), await timeOf(t, b._id)]).toEqual([slots[0], slots[1]]);
    const swap = await arrange(t, { profileId, moves: [{ postId: a._id, slot: slots[1] }, { postId: b._id, slot: slots[0] }] });
    expect(swap.statusCode, swap.body).toBe(200);
    expect(swap.json()).toEqual({ success: true, moved: [{ _id: a._id, scheduledFor: slots[1] }, { _id: b._id, scheduledFor: slots[0] }] });
    expect([await timeOf(t, a._id), await timeOf(t, b._id)]).toEqual([slots[1], slots[0]]);
    const { rows } = await ctx.db.query<{ run_at: Date }>('SELECT run_at FROM post_targets WHERE post_id = $1', [a._id]);
    expect(rows[0].run_at.toISOString()).toBe(slots[1]);
    // Into a free slot.
    const fill = await arrange(t, { profileId, moves: [{ postId: a._id, slot: slots[4] }] });
    expect(fill.statusCode, fill.body).toBe(200);
    expect(await timeOf(t, a._id)).toBe(slots[4]);
    // "Add to queue" now takes the freed slot.
    const c = await queue('Third');
    expect(c.scheduledFor && new Date(c.scheduledFor).toISOString()).toBe(slots[1]);
  });

  it('refuses a held slot, a time that is not a slot, a post not queued here, and other tenants; needs queue:write', async () => {
    const { t, profileId, slots, queue } = await setup();
    const a = await queue('One');
    const b = await queue('Two');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ profileId, moves: [{ postId: a._id, slot: slots[1] }] }, 'moves.0.slot'],
      [{ profileId, moves: [{ postId: a._id, slot: new Date(new Date(slots[2]).getTime() + 60_000).toISOString() }] }, 'moves.0.slot'],
      [{ profileId, moves: [{ postId: a._id, slot: slots[2] }, { postId: b._id, slot: slots[2] }] }, 'moves.1.slot'],
      [{ profileId, moves: [{ postId: 'f'.repeat(24), slot: slots[2] }] }, 'moves.0.postId'],
      [{ profileId, moves: [] }, 'moves'],
    ];
    for (const [body, field] of cases) {
      const res = await arrange(t, body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(400);
      expect(Object.keys(res.json().details.fields)).toContain(field);
    }
    // Nothing moved.
    expect([await timeOf(t, a._id), await timeOf(t, b._id)]).toEqual([slots[0], slots[1]]);
    const other = await createTenant(ctx);
    expect((await arrange(other, { profileId, moves: [{ postId: a._id, slot: slots[2] }] })).statusCode).toBe(404);
    const readOnly = await createTenant(ctx, { permissions: ['queue:read'] });
    expect((await arrange(readOnly, { profileId, moves: [{ postId: a._id, slot: slots[2] }] })).statusCode).toBe(403);
  });
});
