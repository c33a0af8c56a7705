/**
 * Named queues (docs/decisions/0062-named-queues.md): several queues per profile through
 * /v1/queue/slots (GET all=true, POST, PUT with queueId and setAsDefault, DELETE with queueId),
 * queueId on preview, next-slot, arrange and posts (create and update), and migration 0031 turning
 * each existing schedule into its profile's default queue.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nextSlots } from '../../src/core/queue-slots.ts';
import { newId } from '../../src/core/ids.ts';
import { createDb } from '../../src/storage/db.ts';
import { MIGRATIONS_DIR, migrate } from '../../src/storage/migrate.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx?.close(); });

const MORNING = [{ dayOfWeek: 1, time: '09:00' }, { dayOfWeek: 3, time: '09:00' }];
const EVENING = [{ dayOfWeek: 1, time: '18:30' }, { dayOfWeek: 4, time: '20:00' }];

async function setup() {
  const t = await createTenant(ctx);
  const profileId = await createProfile(ctx, t);
  const accountId = await insertAccount(ctx, t, profileId);
  return { t, profileId, accountId };
}

const req = (t: Tenant, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });
const iso = (slots: typeof MORNING, tz: string, n: number) => nextSlots(slots, tz, new Date(), n).map((d) => d.toISOString());

/** A profile with its default queue (MORNING, UTC) and a named queue "Evening" (EVENING, Europe/Paris). */
async function twoQueues() {
  const s = await setup();
  const def = await req(s.t, 'PUT', '/v1/queue/slots', { profileId: s.profileId, timezone: 'UTC', slots: MORNING });
  expect(def.statusCode, def.body).toBe(200);
  expect(def.json()).toMatchObject({ isNewQueue: true, schedule: { name: 'Default', isDefault: true } });
  const eve = await req(s.t, 'POST', '/v1/queue/slots', { profileId: s.profileId, name: 'Evening', timezone: 'Europe/Paris', slots: EVENING });
  expect(eve.statusCode, eve.body).toBe(201);
  return { ...s, defaultId: def.json().schedule._id as string, eveningId: eve.json().schedule._id as string };
}

describe('queue CRUD with queue ids', () => {
  it('creates named queues, lists them all (default first), reads one by id, and the default without an id', async () => {
    const { t, profileId } = await setup();
    // The profile's first queue, created by POST, is its default.
    const first = await req(t, 'POST', '/v1/queue/slots', { profileId, name: 'Morning', timezone: 'America/New_York', slots: [...MORNING, MORNING[0]] });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ success: true, schedule: { profileId, name: 'Morning', isDefault: true, active: true, slots: MORNING, timezone: 'America/New_York' } });
    expect(first.json().nextSlots).toEqual(iso(MORNING, 'America/New_York', 10));
    const second = await req(t, 'POST', '/v1/queue/slots', { profileId, name: 'Evening', timezone: 'Europe/Paris', slots: EVENING, active: false });
    expect(second.json().schedule).toMatchObject({ name: 'Evening', isDefault: false, active: false });
    const all = (await req(t, 'GET', `/v1/queue/slots?profileId=${profileId}&all=true`)).json();
    expect(all.count).toBe(2);
    expect(all.queues.map((q: { name: string }) => q.name)).toEqual(['Morning', 'Evening']);
    const one = (await req(t, 'GET', `/v1/queue/slots?profileId=${profileId}&queueId=${second.json().schedule._id}`)).json();
    expect(one).toMatchObject({ exists: true, schedule: { _id: second.json().schedule._id, name: 'Evening' } });
    expect(one.nextSlots).toEqual(iso(EVENING, 'Europe/Paris', 10));
    expect((await req(t, 'GET', `/v1/queue/slots?profileId=${profileId}&all=false`)).json().schedule.name).toBe('Morning');
    // An empty profile lists no queues.
    const other = await createProfile(ctx, t);
    expect((await req(t, 'GET', `/v1/queue/slots?profileId=${other}&all=true`)).json()).toEqual({ queues: [], count: 0 });
  });

  it('refuses a taken or blank name, a bad zone and empty slots, naming the field, and writes nothing', async () => {
    const { t, profileId } = await twoQueues();
    const cases: Array<[object, string]> = [
      [{ profileId, name: 'evening', timezone: 'UTC', slots: MORNING }, 'name'],
      [{ profileId, name: '   ', timezone: 'UTC', slots: MORNING }, 'name'],
      [{ profileId, name: '', timezone: 'UTC', slots: MORNING }, 'name'],
      [{ profileId, name: 'x'.repeat(101), timezone: 'UTC', slots: MORNING }, 'name'],
      [{ profileId, name: 'Night', timezone: 'Mars/Olympus', slots: MORNING }, 'timezone'],
      [{ profileId, name: 'Night', timezone: 'UTC', slots: [] }, 'slots'],
      [{ profileId, timezone: 'UTC', slots: MORNING }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await req(t, 'POST', '/v1/queue/slots', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().details.fields), JSON.stringify(body)).toContain(field);
    }
    expect((await req(t, 'GET', `/v1/queue/slots?profileId=${profileId}&all=true`)).json().count).toBe(2);
  });

  it('renames a queue, makes it the default, and calls without queueId then address it', async () => {
    const { t, profileId, defaultId, eveningId } = await twoQueues();
    const taken = await req(t, 'PUT', '/v1/queue/slots', { profileId, queueId: eveningId, name: 'DEFAULT', timezone: 'UTC', slots: EVENING });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().details.fields.name).toBeTruthy();
    const res = await req(t, 'PUT', '/v1/queue/slots', { profileId, queueId: eveningId, name: 'Late evening', timezone: 'Asia/Tokyo', slots: EVENING, setAsDefault: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, isNewQueue: false, reshuffledCount: 0, schedule: { _id: eveningId, name: 'Late evening', isDefault: true, timezone: 'Asia/Tokyo' } });
    const all = (await req(t, 'GET', `/v1/queue/slots?profileId=${profileId}&all=true`)).json();
    expect(all.queues.map((q: { _id: string; isDefault: boolean }) => [q._id, q.isDefault])).toEqual([[eveningId, true], [defaultId, false]]);
    expect((await req(t, 'GET', `/v1/queue/slots?profileId=${profileId}`)).json().schedule._id).toBe(eveningId);
    expect((await req(t, 'GET', `/v1/queue/preview?profileId=${profileId}&count=2`)).json()).toMatchObject({ queueId: eveningId, queueName: 'Late evening' });
    // A single-queue PUT (no queueId) now updates the new default, keeping its name.
    const single = await req(t, 'PUT', '/v1/queue/slots', { profileId, timezone: 'UTC', slots: MORNING });
    expect(single.json()).toMatchObject({ isNewQueue: false, schedule: { _id: eveningId, name: 'Late evening', slots: MORNING } });
    // An unknown queue id is a 404 and creates nothing.
    expect((await req(t, 'PUT', '/v1/queue/slots', { profileId, queueId: newId(), timezone: 'UTC', slots: MORNING })).statusCode).toBe(404);
    expect((await req(t, 'GET', `/v1/queue/slots?profileId=${profileId}&all=true`)).json().count).toBe(2);
  });

  it('deletes a non-default queue; the default only with the others or as the last one', async () => {
    const { t, profileId, accountId, defaultId, eveningId } = await twoQueues();
    const post = (await req(t, 'POST', '/v1/posts', { content: 'evening', queuedFromProfile: profileId, queueId: eveningId, platforms: [{ platform: 'bluesky', accountId }] })).json().post;
    const refused = await req(t, 'DELETE', `/v1/queue/slots?profileId=${profileId}&queueId=${defaultId}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.fields.queueId[0]).toMatch(/default/);
    const del = await req(t, 'DELETE', `/v1/queue/slots?profileId=${profileId}&queueId=${eveningId}`);
    expect(del.json()).toMatchObject({ success: true, deleted: true, deletedCount: 1 });
    expect((await req(t, 'DELETE', `/v1/queue/slots?profileId=${profileId}&queueId=${eveningId}`)).statusCode).toBe(404);
    // Its post keeps its time and profile, outside any queue (it counts against the default queue's slots).
    const after = (await req(t, 'GET', `/v1/posts/${post._id}`)).json().post;
    expect(after).toMatchObject({ status: 'scheduled', scheduledFor: post.scheduledFor, queuedFromProfile: profileId, queueId: null });
    // The default queue is now the last one and may go by id.
    const last = await req(t, 'DELETE', `/v1/queue/slots?profileId=${profileId}&queueId=${defaultId}`);
    expect(last.json()).toMatchObject({ deletedCount: 1 });
    // Without queueId: every queue of the profile.
    await req(t, 'POST', '/v1/queue/slots', { profileId, name: 'A', timezone: 'UTC', slots: MORNING });
    await req(t, 'POST', '/v1/queue/slots', { profileId, name: 'B', timezone: 'UTC', slots: EVENING });
    expect((await req(t, 'DELETE', `/v1/queue/slots?profileId=${profileId}`)).json()).toMatchObject({ deletedCount: 2 });
    expect((await req(t, 'GET', `/v1/queue/slots?profileId=${profileId}`)).json()).toEqual({ exists: false, schedule: null, nextSlots: [] });
  });
});

describe('queued posts in named queues', () => {
  it('a post with queueId takes that queue\'s next free slot; without it the default queue\'s; both queues may use one instant', async () => {
    const { t, profileId, accountId, defaultId, eveningId } = await twoQueues();
    const eve = iso(EVENING, 'Europe/Paris', 3);
    const morning = iso(MORNING, 'UTC', 2);
    expect((await req(t, 'GET', `/v1/queue/next-slot?profileId=${profileId}&queueId=${eveningId}`)).json())
      .toEqual({ profileId, nextSlot: eve[0], timezone: 'Europe/Paris', queueId: eveningId, queueName: 'Evening' });
    const preview = (await req(t, 'GET', `/v1/queue/preview?profileId=${profileId}&queueId=${eveningId}&count=3`)).json();
    expect(preview).toMatchObject({ queueId: eveningId, queueName: 'Evening', timezone: 'Europe/Paris', slots: eve });
    const a = await req(t, 'POST', '/v1/posts', { content: 'a', queuedFromProfile: profileId, queueId: eveningId, platforms: [{ platform: 'bluesky', accountId }] });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json().post).toMatchObject({ scheduledFor: eve[0], timezone: 'Europe/Paris', queuedFromProfile: profileId, queueId: eveningId });
    const b = (await req(t, 'POST', '/v1/posts', { content: 'b', queuedFromProfile: profileId })).json().post;
    expect(b).toMatchObject({ scheduledFor: morning[0], queueId: defaultId });
    expect((await req(t, 'GET', `/v1/queue/next-slot?profileId=${profileId}&queueId=${eveningId}`)).json().nextSlot).toBe(eve[1]);
    expect((await req(t, 'GET', `/v1/queue/next-slot?profileId=${profileId}`)).json()).toMatchObject({ nextSlot: morning[1], queueId: defaultId });
    // A third queue with the evening queue's slots: its first post takes the same instant (slots are per queue).
    const twin = (await req(t, 'POST', '/v1/queue/slots', { profileId, name: 'Twin', timezone: 'Europe/Paris', slots: EVENING })).json().schedule._id;
    const c = (await req(t, 'POST', '/v1/posts', { content: 'c', queuedFromProfile: profileId, queueId: twin })).json().post;
    expect(c).toMatchObject({ scheduledFor: eve[0], queueId: twin });
    // A batch of creates at one moment: distinct slots of the queue.
    const race = await Promise.all([0, 1, 2, 3].map((i) => req(t, 'POST', '/v1/posts', { content: `race ${i}`, queuedFromProfile: profileId, queueId: eveningId })));
    expect(race.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(race.map((r) => r.json().post.scheduledFor).sort()).toEqual(iso(EVENING, 'Europe/Paris', 5).slice(1));
  });

  it('moves a post to another queue on update; a reshuffle of one queue leaves the other alone', async () => {
    const { t, profileId, accountId, defaultId, eveningId } = await twoQueues();
    const p = (await req(t, 'POST', '/v1/posts', { content: 'move me', queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId }] })).json().post;
    const q = (await req(t, 'POST', '/v1/posts', { content: 'stay', queuedFromProfile: profileId, queueId: eveningId })).json().post;
    expect(p.queueId).toBe(defaultId);
    const moved = await req(t, 'PUT', `/v1/posts/${p._id}`, { queuedFromProfile: profileId, queueId: eveningId });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().post).toMatchObject({ queueId: eveningId, scheduledFor: iso(EVENING, 'Europe/Paris', 2)[1] });
    const { rows } = await ctx.db.query<{ run_at: Date }>('SELECT run_at FROM post_targets WHERE post_id = $1', [p._id]);
    expect(rows[0].run_at.toISOString()).toBe(iso(EVENING, 'Europe/Paris', 2)[1]);
    // Reshuffle the default queue (now empty): the evening posts keep their times.
    const res = await req(t, 'PUT', '/v1/queue/slots', { profileId, timezone: 'UTC', slots: [{ dayOfWeek: 2, time: '07:00' }], reshuffleExisting: true });
    expect(res.json().reshuffledCount).toBe(0);
    expect((await req(t, 'GET', `/v1/posts/${q._id}`)).json().post.scheduledFor).toBe(q.scheduledFor);
    // Reshuffle the evening queue: both its posts move, in order.
    const newSlots = [{ dayOfWeek: 5, time: '21:15' }];
    const eve = await req(t, 'PUT', '/v1/queue/slots', { profileId, queueId: eveningId, timezone: 'UTC', slots: newSlots, reshuffleExisting: true });
    expect(eve.json()).toMatchObject({ reshuffledCount: 2, schedule: { _id: eveningId, isDefault: false } });
    expect((await req(t, 'GET', `/v1/posts/${q._id}`)).json().post.scheduledFor).toBe(iso(newSlots, 'UTC', 1)[0]);
    // Arrange in the named queue: the two posts trade slots.
    const [s0, s1] = iso(newSlots, 'UTC', 2);
    const swap = await req(t, 'POST', '/v1/queue/arrange', { profileId, queueId: eveningId, moves: [{ postId: q._id, slot: s1 }, { postId: p._id, slot: s0 }] });
    expect(swap.statusCode, swap.body).toBe(200);
    expect((await req(t, 'GET', `/v1/posts/${p._id}`)).json().post.scheduledFor).toBe(s0);
    // Arranging them in the default queue: they are not waiting there.
    const wrong = await req(t, 'POST', '/v1/queue/arrange', { profileId, moves: [{ postId: q._id, slot: iso([{ dayOfWeek: 2, time: '07:00' }], 'UTC', 1)[0] }] });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details.fields['moves.0.postId']).toBeTruthy();
  });

  it('refuses queueId without queuedFromProfile, a queue of another profile, and an inactive queue; nothing is written', async () => {
    const { t, profileId, eveningId } = await twoQueues();
    const otherProfile = await createProfile(ctx, t);
    const otherQueue = (await req(t, 'POST', '/v1/queue/slots', { profileId: otherProfile, name: 'Other', timezone: 'UTC', slots: MORNING })).json().schedule._id;
    const alone = await req(t, 'POST', '/v1/posts', { content: 'x', queueId: eveningId, scheduledFor: '2031-01-01T00:00:00Z' });
    expect(alone.statusCode).toBe(400);
    expect(alone.json().details.fields.queueId).toBeTruthy();
    const foreign = await req(t, 'POST', '/v1/posts', { content: 'x', queuedFromProfile: profileId, queueId: otherQueue });
    expect(foreign.statusCode).toBe(404);
    expect((await req(t, 'GET', `/v1/queue/next-slot?profileId=${profileId}&queueId=${otherQueue}`)).statusCode).toBe(404);
    expect((await req(t, 'GET', `/v1/queue/preview?profileId=${profileId}&queueId=${otherQueue}`)).statusCode).toBe(404);
    await req(t, 'PUT', '/v1/queue/slots', { profileId, queueId: eveningId, timezone: 'Europe/Paris', slots: EVENING, active: false });
    const inactive = await req(t, 'POST', '/v1/posts', { content: 'x', queuedFromProfile: profileId, queueId: eveningId });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().details.fields.queueId[0]).toMatch(/inactive/);
    const next = await req(t, 'GET', `/v1/queue/next-slot?profileId=${profileId}&queueId=${eveningId}`);
    expect(next.statusCode).toBe(400);
    expect(next.json().details.fields.queueId).toBeTruthy();
    expect((await req(t, 'GET', '/v1/posts')).json().pagination.total).toBe(0);
  });

  it('another tenant\'s queue id is a 404 everywhere, and B\'s queues are unchanged', async () => {
    const a = await twoQueues();
    const b = await twoQueues();
    const before = (await req(b.t, 'GET', `/v1/queue/slots?profileId=${b.profileId}&all=true`)).json();
    const calls: Array<[string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, object?]> = [
      ['get', 'GET', `/v1/queue/slots?profileId=${a.profileId}&queueId=${b.eveningId}`],
      ['get B', 'GET', `/v1/queue/slots?profileId=${b.profileId}&all=true`],
      ['preview', 'GET', `/v1/queue/preview?profileId=${a.profileId}&queueId=${b.eveningId}`],
      ['next', 'GET', `/v1/queue/next-slot?profileId=${a.profileId}&queueId=${b.eveningId}`],
      ['delete', 'DELETE', `/v1/queue/slots?profileId=${a.profileId}&queueId=${b.eveningId}`],
      ['delete B', 'DELETE', `/v1/queue/slots?profileId=${b.profileId}&queueId=${b.eveningId}`],
      ['put', 'PUT', '/v1/queue/slots', { profileId: a.profileId, queueId: b.eveningId, name: 'hijacked', timezone: 'UTC', slots: MORNING, setAsDefault: true }],
      ['post B', 'POST', '/v1/queue/slots', { profileId: b.profileId, name: 'hijacked', timezone: 'UTC', slots: MORNING }],
      ['arrange', 'POST', '/v1/queue/arrange', { profileId: a.profileId, queueId: b.eveningId, moves: [{ postId: newId(), slot: '2031-01-01T00:00:00Z' }] }],
      ['create post', 'POST', '/v1/posts', { content: 'x', queuedFromProfile: a.profileId, queueId: b.eveningId }],
    ];
    for (const [what, method, url, body] of calls) {
      const res = await req(a.t, method, url, body);
      expect(res.statusCode, what).toBe(404);
      expect(res.json().code, what).toBe('NOT_FOUND');
    }
    expect((await req(b.t, 'GET', `/v1/queue/slots?profileId=${b.profileId}&all=true`)).json()).toEqual(before);
  });
});

describe('migration 0031', () => {
  it('turns each profile\'s schedule into its default queue named "Default" and places its queued posts in it', async () => {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    const name = `t_mig31_${process.pid}_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
    const u = new URL(inject('pgAdminUrl'));
    u.pathname = `/${name}`;
    const db = createDb(u.toString(), { max: 2 });
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-mig-'));
    try {
      for (const f of fs.readdirSync(MIGRATIONS_DIR).filter((x) => x < '0031')) fs.symlinkSync(path.join(MIGRATIONS_DIR, f), path.join(before, f));
      await migrate(db, before);
      const tenant = newId();
      const [withQueue, without] = [newId(), newId()];
      await db.query(`INSERT INTO users (id, tenant_id, email) VALUES ($1, $1, $2)`, [tenant, `${tenant}@example.test`]);
      for (const p of [withQueue, without]) await db.query(`INSERT INTO profiles (id, tenant_id, name) VALUES ($1, $2, $3)`, [p, tenant, `p${p}`]);
      const scheduleId = newId();
      await db.query(`INSERT INTO queue_schedules (id, tenant_id, profile_id, timezone, slots) VALUES ($1, $2, $3, 'UTC', $4)`, [scheduleId, tenant, withQueue, JSON.stringify(MORNING)]);
      const [queued, orphan, plain] = [newId(), newId(), newId()];
      for (const [id, from, at] of [[queued, withQueue, '2031-01-06T09:00:00Z'], [orphan, without, '2031-01-06T09:00:00Z'], [plain, null, '2031-01-06T09:00:00Z']] as const) {
        await db.query(`INSERT INTO posts (id, tenant_id, created_by, content, status, scheduled_for, timezone, queued_from_profile)
                        VALUES ($1, $2, $2, 'c', 'scheduled', $3, 'UTC', $4)`, [id, tenant, at, from]);
      }
      expect(await migrate(db)).toContain('0031_named_queues');
      const { rows: queues } = await db.query('SELECT id, profile_id, name, is_default FROM queue_schedules');
      expect(queues).toEqual([{ id: scheduleId, profile_id: withQueue, name: 'Default', is_default: true }]);
      const { rows: posts } = await db.query<{ id: string; queue_id: string | null }>('SELECT id, queue_id FROM posts ORDER BY id');
      expect(Object.fromEntries(posts.map((r) => [r.id, r.queue_id]))).toEqual({ [queued]: scheduleId, [orphan]: null, [plain]: null });
      // One default per profile, enforced by the database.
      await expect(db.query(`INSERT INTO queue_schedules (id, tenant_id, profile_id, name, is_default, timezone, slots) VALUES ($1, $2, $3, 'Second', true, 'UTC', '[]')`,
        [newId(), tenant, withQueue])).rejects.toThrow(/queue_schedules_default_key/);
    } finally {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      fs.rmSync(before, { recursive: true, force: true });
    }
    // Every migration from an empty database: seconds here, over a minute on a loaded CI machine.
  }, 240_000);
});
