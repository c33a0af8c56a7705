/**
 * Named queues through the official client `@getlatedev/node`, over real HTTP
 * (docs/decisions/0062-named-queues.md): `queue.createQueueSlot` (a named queue),
 * `queue.listQueueSlots` (one queue, by queueId, and `all: 'true'`), `queue.updateQueueSlot`
 * (rename, `setAsDefault`), `queue.previewQueue` and `queue.getNextQueueSlot` with `queueId`,
 * `posts.createPost` / `posts.updatePost` with `queueId`, and `queue.deleteQueueSlot` of a
 * non-default queue (the default refused while others exist).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Zernio, type ZernioApiError } from '@getlatedev/node';
import { nextSlots } from '../../src/core/queue-slots.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let t: Tenant;
let sdk: Zernio;
let profileId: string;
let accountId: string;

beforeAll(async () => {
  ctx = await createTestApp({ listen: true });
  t = await createTenant(ctx);
  profileId = await createProfile(ctx, t, 'Brand');
  accountId = await insertAccount(ctx, t, profileId, 'bluesky');
  sdk = new Zernio({ apiKey: t.apiKey, baseURL: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}` });
});
afterAll(async () => { await ctx?.close(); });

const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ZernioApiError);
const MORNING = [{ dayOfWeek: 1, time: '09:00' }, { dayOfWeek: 4, time: '09:00' }];
const EVENING = [{ dayOfWeek: 2, time: '19:00' }, { dayOfWeek: 5, time: '19:30' }];
const iso = (slots: typeof MORNING, tz: string, n: number) => nextSlots(slots, tz, new Date(), n).map((d) => d.toISOString());

describe('named queues through the official client', () => {
  it('creates, lists, uses, promotes and deletes queues', async () => {
    // The single-queue call creates the default queue.
    const def = await sdk.queue.updateQueueSlot({ body: { profileId, timezone: 'America/New_York', slots: MORNING } });
    expect(def.data).toMatchObject({ success: true, isNewQueue: true, schedule: { name: 'Default', isDefault: true } });
    const defaultId = def.data.schedule!._id!;

    const created = await sdk.queue.createQueueSlot({ body: { profileId, name: 'Evening Posts', timezone: 'Europe/Berlin', slots: EVENING } });
    expect(created.response.status).toBe(201);
    expect(created.data.schedule).toMatchObject({ profileId, name: 'Evening Posts', isDefault: false, active: true, timezone: 'Europe/Berlin', slots: EVENING });
    expect(created.data.nextSlots).toEqual(iso(EVENING, 'Europe/Berlin', 10));
    const eveningId = created.data.schedule!._id!;

    const all = await sdk.queue.listQueueSlots({ query: { profileId, all: 'true' } });
    expect(all.data).toMatchObject({ count: 2, queues: [{ _id: defaultId, isDefault: true }, { _id: eveningId, name: 'Evening Posts' }] });
    const one = await sdk.queue.listQueueSlots({ query: { profileId, queueId: eveningId } });
    expect(one.data).toMatchObject({ exists: true, schedule: { _id: eveningId } });
    expect((await sdk.queue.listQueueSlots({ query: { profileId } })).data).toMatchObject({ exists: true, schedule: { _id: defaultId } });

    const preview = await sdk.queue.previewQueue({ query: { profileId, queueId: eveningId, count: 3 } });
    expect(preview.data).toMatchObject({ profileId, queueId: eveningId, queueName: 'Evening Posts', count: 3, slots: iso(EVENING, 'Europe/Berlin', 3) });
    const next = await sdk.queue.getNextQueueSlot({ query: { profileId, queueId: eveningId } });
    expect(next.data).toEqual({ profileId, nextSlot: iso(EVENING, 'Europe/Berlin', 1)[0], timezone: 'Europe/Berlin', queueId: eveningId, queueName: 'Evening Posts' });

    // A post queued into the named queue takes its next free slot; one without queueId the default queue's.
    const post = await sdk.posts.createPost({ body: { content: 'evening post', queuedFromProfile: profileId, queueId: eveningId, platforms: [{ platform: 'bluesky', accountId }] } });
    expect(post.response.status).toBe(201);
    expect(post.data.post).toMatchObject({ status: 'scheduled', queuedFromProfile: profileId, queueId: eveningId, scheduledFor: iso(EVENING, 'Europe/Berlin', 1)[0] });
    const plain = await sdk.posts.createPost({ body: { content: 'morning post', queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId }] } });
    expect(plain.data.post).toMatchObject({ queueId: defaultId, scheduledFor: iso(MORNING, 'America/New_York', 1)[0] });
    expect((await sdk.queue.getNextQueueSlot({ query: { profileId, queueId: eveningId } })).data.nextSlot).toBe(iso(EVENING, 'Europe/Berlin', 2)[1]);

    // Move the morning post into the evening queue.
    const moved = await sdk.posts.updatePost({ path: { postId: plain.data.post!._id! }, body: { queuedFromProfile: profileId, queueId: eveningId } });
    expect(moved.data.post).toMatchObject({ queueId: eveningId, scheduledFor: iso(EVENING, 'Europe/Berlin', 2)[1] });

    // Rename and promote the evening queue; the default one cannot be deleted while it is the default.
    const promoted = await sdk.queue.updateQueueSlot({ body: { profileId, queueId: eveningId, name: 'Evenings', timezone: 'Europe/Berlin', slots: EVENING, setAsDefault: true } });
    expect(promoted.data).toMatchObject({ isNewQueue: false, schedule: { _id: eveningId, name: 'Evenings', isDefault: true } });
    const refused = await refusal(sdk.queue.deleteQueueSlot({ query: { profileId, queueId: eveningId } }));
    expect(refused?.statusCode).toBe(400);
    const deleted = await sdk.queue.deleteQueueSlot({ query: { profileId, queueId: defaultId } });
    expect(deleted.data).toMatchObject({ success: true, deleted: true, deletedCount: 1 });
    expect((await sdk.queue.listQueueSlots({ query: { profileId, all: 'true' } })).data).toMatchObject({ count: 1, queues: [{ _id: eveningId, isDefault: true }] });
  });

  it('refuses bad input naming the field, and another profile\'s queue id', async () => {
    const dup = await refusal(sdk.queue.createQueueSlot({ body: { profileId, name: 'evenings', timezone: 'UTC', slots: MORNING } }));
    expect(dup?.statusCode).toBe(400);
    const zone = await refusal(sdk.queue.createQueueSlot({ body: { profileId, name: 'Night', timezone: 'Moon/Base', slots: MORNING } }));
    expect(zone?.statusCode).toBe(400);
    const other = await createProfile(ctx, t, 'Other brand');
    const otherQueue = (await sdk.queue.createQueueSlot({ body: { profileId: other, name: 'Theirs', timezone: 'UTC', slots: MORNING } })).data.schedule!._id!;
    expect((await refusal(sdk.queue.previewQueue({ query: { profileId, queueId: otherQueue } })))?.statusCode).toBe(404);
    const post = await refusal(sdk.posts.createPost({ body: { content: 'x', queuedFromProfile: profileId, queueId: otherQueue, platforms: [{ platform: 'bluesky', accountId }] } }));
    expect(post?.statusCode).toBe(404);
  });
});
