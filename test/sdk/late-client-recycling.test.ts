/**
 * Recycling (docs/decisions/0061-recycling.md) through the official client `@getlatedev/node`
 * against a running Herald over real HTTP: createPost with a RecyclingConfig, getPost reading the
 * RecyclingState (the client's shape), the copy the recycling job makes read back with
 * `recycledFromPostId`, updatePost pausing and removing recycling, refusals arriving as the
 * client's ValidationError with the fields naming the rule, and the `post.recycled` webhook, subscribed
 * to with `webhooks.createWebhookSettings`, reaching a receiver in the client's WebhookPayloadPost shape.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError, Zernio, ZernioApiError, type Post, type RecyclingState, type WebhookPayloadPost } from '@getlatedev/node';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { startWebhookWorker, type WebhookWorker } from '../../src/publishing/webhook-delivery.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

let ctx: TestContext;
let sdk: Zernio;
let accountId: string;
let xAccountId: string;
let webhooks: WebhookWorker;
let hookUrl: string;
const received: Array<WebhookPayloadPost & { recycling?: Record<string, unknown> }> = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => { received.push(JSON.parse(Buffer.concat(chunks).toString('utf8'))); res.writeHead(204).end(); });
});

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/recycled`;
  ctx = await createTestApp({ listen: true, env: { HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }, deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
  const t = await createTenant(ctx);
  const profileId = await createProfile(ctx, t);
  accountId = await insertAccount(ctx, t, profileId, 'bluesky');
  xAccountId = await insertAccount(ctx, t, profileId, 'twitter');
  sdk = new Zernio({ apiKey: t.apiKey, baseURL: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}` });
  webhooks = startWebhookWorker({ webhooks: ctx.services.webhooks, workerId: 'sdk-recycling', concurrency: 2, pollMs: 50 });
});
afterAll(async () => { await webhooks?.stop(); await ctx?.close(); receiver.close(); });

async function rejection(p: Promise<unknown>): Promise<ZernioApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ZernioApiError);
    return err as ZernioApiError;
  }
  throw new Error('expected the SDK call to reject, but it resolved');
}

describe('recycling through the official client', () => {
  it('creates, reads, recycles, pauses and removes', async () => {
    const created = await sdk.posts.createPost({ body: {
      content: 'Evergreen via SDK', scheduledFor: '2030-05-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId }],
      recycling: { gap: 2, gapFreq: 'week', expireCount: 4, contentVariations: ['SDK copy one', 'SDK copy two'] },
    } });
    expect(created.response.status).toBe(201);
    const post = (created.data as { post: Post }).post;
    const state: RecyclingState = post.recycling!;
    expect(state).toEqual({
      enabled: true, gap: 2, gapFreq: 'week', startDate: '2030-05-01T09:00:00.000Z', expireCount: 4,
      contentVariations: ['SDK copy one', 'SDK copy two'], contentVariationIndex: 0, recycleCount: 0, nextRecycleAt: '2030-05-15T09:00:00.000Z',
    });
    const got = await sdk.posts.getPost({ path: { postId: post._id! } });
    expect((got.data as { post: Post }).post.recycling).toEqual(state);

    // Published, then its due time comes: the job makes a copy, read back through the client.
    await ctx.db.query(`UPDATE post_targets SET status = 'published', run_at = NULL, platform_post_id = 'at://sdk', published_at = now() WHERE post_id = $1`, [post._id]);
    await ctx.db.query(`UPDATE posts SET status = 'published', published_at = now(), recycle_next_at = now() - interval '1 minute' WHERE id = $1`, [post._id]);
    expect((await ctx.services.posts.recycleDue()).created).toBe(1);
    const { rows: [copy] } = await ctx.db.query<{ id: string }>('SELECT id FROM posts WHERE recycled_from_post_id = $1', [post._id]);
    const copyPost = ((await sdk.posts.getPost({ path: { postId: copy.id } })).data as { post: Post }).post;
    expect(copyPost).toMatchObject({ recycledFromPostId: post._id, content: 'SDK copy one', status: 'scheduled' });
    const source = ((await sdk.posts.getPost({ path: { postId: post._id! } })).data as { post: Post }).post;
    expect(source.recycling).toMatchObject({ recycleCount: 1, contentVariationIndex: 1, enabled: true });
    expect(source.recycling!.lastRecycledAt).toEqual(expect.any(String));

    // Pause on the published post (only recycling in the body), then remove it.
    const paused = await sdk.posts.updatePost({ path: { postId: post._id! }, body: { recycling: { enabled: false } } });
    expect(paused.response.status).toBe(200);
    const pausedState = (paused.data as { post: Post }).post.recycling!;
    expect(pausedState).toMatchObject({ enabled: false, recycleCount: 1 });
    expect(pausedState.nextRecycleAt).toBeUndefined();
    const removed = await sdk.posts.updatePost({ path: { postId: post._id! }, body: { recycling: null as never } });
    expect((removed.data as { post: Post }).post.recycling).toBeUndefined();
  });

  it('the post.recycled webhook, subscribed to through the client, names the copy and its source', async () => {
    const hook = await sdk.webhooks.createWebhookSettings({ body: { name: 'Recycled', url: hookUrl, events: ['post.recycled'] } });
    expect(hook.response.status).toBe(200);
    const created = await sdk.posts.createPost({ body: {
      content: 'Evergreen with a hook', scheduledFor: '2030-07-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId }],
      recycling: { gap: 1, gapFreq: 'month', contentVariations: ['Hook copy one', 'Hook copy two'] },
    } });
    const source = (created.data as { post: Post }).post;
    await ctx.db.query(`UPDATE post_targets SET status = 'published', run_at = NULL, platform_post_id = 'at://sdk-hook', published_at = now() WHERE post_id = $1`, [source._id]);
    await ctx.db.query(`UPDATE posts SET status = 'published', published_at = now(), recycle_next_at = now() - interval '1 minute' WHERE id = $1`, [source._id]);
    expect((await ctx.services.posts.recycleDue()).created).toBe(1);
    const { rows: [copy] } = await ctx.db.query<{ id: string }>('SELECT id FROM posts WHERE recycled_from_post_id = $1', [source._id]);

    await expect.poll(() => received.filter((e) => e.event === 'post.recycled').length, { timeout: 10_000 }).toBe(1);
    const event = received.find((e) => e.event === 'post.recycled')!;
    expect(event.post).toMatchObject({ id: copy.id, content: 'Hook copy one', status: 'scheduled', platforms: [{ platform: 'bluesky', accountId }] });
    expect(event.recycling).toMatchObject({ sourcePostId: source._id, recycleCount: 1 });
    // The delivery is in the log the client reads (written once the receiver's answer is in, so
    // it can trail the receiver's copy by a moment).
    const logged = async () => {
      const logs = await sdk.webhooks.getWebhookLogs({ query: { webhookId: hook.data!.webhook!._id!, limit: 10 } });
      return logs.data!.logs!.map((l: { event?: string; status?: string }) => [l.event, l.status]);
    };
    await expect.poll(logged, { timeout: 10_000 }).toEqual([['post.recycled', 'success']]);
  });

  it('refusals arrive as the client\'s ValidationError naming the field and rule', async () => {
    const err = await rejection(sdk.posts.createPost({ body: {
      content: 'Same every time', scheduledFor: '2030-05-01T09:00:00Z', platforms: [{ platform: 'twitter', accountId: xAccountId }], recycling: { gap: 1 },
    } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.statusCode).toBe(400);
    expect((err as ValidationError).fields?.['recycling.contentVariations']?.[0]).toMatch(/twitter\.recycling\.duplicate_content/);

    const one = await rejection(sdk.posts.createPost({ body: {
      content: 'x', scheduledFor: '2030-05-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId }], recycling: { gap: 1, contentVariations: ['just one'] },
    } }));
    expect((one as ValidationError).fields?.['recycling.contentVariations']?.[0]).toMatch(/2 or more/);
  });
});
