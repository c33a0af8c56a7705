/**
 * Per-target times through the official client `@getlatedev/node` over real HTTP (decision 0064):
 * `platforms[].scheduledFor` ("Optional per-platform scheduled time override (uses
 * post.scheduledFor when omitted)" in the client's types) is accepted by createPost and updatePost,
 * echoed on the target by getPost only where set, and a time in the past comes back as the client's
 * ValidationError naming `platforms.0.scheduledFor`.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError, Zernio, type Post } from '@getlatedev/node';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let t: Tenant;
let sdk: Zernio;
let a1: string;
let a2: string;

beforeAll(async () => {
  ctx = await createTestApp({ listen: true });
  t = await createTenant(ctx);
  const profile = await createProfile(ctx, t, 'SDK timed');
  a1 = await insertAccount(ctx, t, profile, 'bluesky');
  a2 = await insertAccount(ctx, t, profile, 'twitter');
  sdk = new Zernio({ apiKey: t.apiKey, baseURL: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}` });
});
afterAll(async () => { await ctx?.close(); });

describe('platforms[].scheduledFor through the official client', () => {
  it('creates a post whose X target runs at its own time, reads it back, and moves it with updatePost', async () => {
    const created = await sdk.posts.createPost({ body: {
      content: 'One launch, two times', scheduledFor: '2031-10-01T09:00:00Z',
      platforms: [{ platform: 'bluesky', accountId: a1 }, { platform: 'twitter', accountId: a2, scheduledFor: '2031-10-01T15:30:00Z' }],
    } });
    expect(created.response.status).toBe(201);
    const post = (created.data as { post: Post }).post;
    expect(post.scheduledFor).toBe('2031-10-01T09:00:00.000Z');
    expect(post.platforms?.[0]).not.toHaveProperty('scheduledFor');
    expect(post.platforms?.[1].scheduledFor).toBe('2031-10-01T15:30:00.000Z');

    const got = (await sdk.posts.getPost({ path: { postId: post._id! } })).data as { post: Post };
    expect(got.post.platforms?.map((p) => p.scheduledFor ?? null)).toEqual([null, '2031-10-01T15:30:00.000Z']);

    const updated = await sdk.posts.updatePost({ path: { postId: post._id! }, body: {
      platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: '2031-10-02T08:00' }, { platform: 'twitter', accountId: a2 }], timezone: 'Europe/Berlin',
    } });
    const after = (updated.data as { post: Post }).post;
    expect(after.platforms?.map((p) => p.scheduledFor ?? null)).toEqual(['2031-10-02T06:00:00.000Z', null]);
    const { rows } = await ctx.db.query<{ run_at: Date }>('SELECT run_at FROM post_targets WHERE post_id = $1 ORDER BY position', [post._id]);
    expect(rows.map((r) => r.run_at.toISOString())).toEqual(['2031-10-02T06:00:00.000Z', '2031-10-01T09:00:00.000Z']);
  });

  it('a per-target time in the past is the client\'s ValidationError naming the field', async () => {
    let err: unknown;
    try {
      await sdk.posts.createPost({ body: {
        content: 'too late', scheduledFor: '2031-10-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: '2021-10-01T09:00:00Z' }],
      } });
    } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).statusCode).toBe(400);
    expect(JSON.stringify((err as ValidationError).details)).toContain('platforms.0.scheduledFor');
  });
});
