/**
 * POST /v1/posts/{postId}/retry with a body naming one target (Herald extension): only that failed
 * target is published again, the post's other failed targets stay failed; a target that does not
 * exist or is not failed answers 400 naming the field. Without a body the whole post is retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

let ctx: TestContext;
let worker: Publisher;
beforeAll(async () => {
  ctx = await createTestApp({ deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
  worker = await startTestPublisher(ctx, 'retry-target');
});
afterAll(async () => { await ctx.close(); });

interface TargetView { _id: string; status: string; accountId: { _id: string } }

/** A partial post: published on `ok`, rejected on `b` and `c`. */
async function partialPost(t: Tenant) {
  const profileId = await createProfile(ctx, t);
  const ok = await insertAccount(ctx, t, profileId, 'bluesky');
  const b = await insertAccount(ctx, t, profileId, 'bluesky');
  const c = await insertAccount(ctx, t, profileId, 'bluesky');
  const res = await ctx.app.inject({
    method: 'POST', url: '/v1/posts', headers: t.headers, payload: {
      content: 'three ways', publishNow: true, platforms: [
        { platform: 'bluesky', accountId: ok },
        { platform: 'bluesky', accountId: b, customContent: 'b #reject' },
        { platform: 'bluesky', accountId: c, customContent: 'c #reject' },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(207);
  expect(res.json().post.status).toBe('partial');
  const targets = res.json().post.platforms as TargetView[];
  const targetOf = (aid: string) => targets.find((x) => x.accountId._id === aid)!._id;
  return { postId: res.json().post._id as string, ok, b, c, targetOf };
}

const retry = (t: Tenant, postId: string, payload?: object) =>
  ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/retry`, headers: t.headers, ...(payload ? { payload } : {}) });
const statusOf = (post: { platforms: TargetView[] }, aid: string) => post.platforms.find((x) => x.accountId._id === aid)!.status;

describe('POST /v1/posts/{postId}/retry with a target', () => {
  it('retries only the named failed target; the other failed target stays failed; the publishing log shows the new attempt of that target only', async () => {
    const t = await createTenant(ctx);
    const { postId, ok, b, c, targetOf } = await partialPost(t);
    // The reason b failed is fixed (its text no longer rejected); c's is not.
    await ctx.db.query(`UPDATE post_targets SET custom_content = 'b fixed' WHERE id = $1`, [targetOf(b)]);
    const logsBefore = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}/logs`, headers: t.headers })).json().logs as Array<{ _id: string; targetId: string }>;

    const res = await retry(t, postId, { accountId: b });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Target queued for retry');
    const post = res.json().post;
    expect(post.status).toBe('publishing');
    expect(statusOf(post, ok)).toBe('published');
    expect(statusOf(post, b)).toBe('pending');
    expect(statusOf(post, c)).toBe('failed');

    expect(await runDue(ctx, worker, postId)).toBe(1);
    const after = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: t.headers })).json().post;
    expect(statusOf(after, b)).toBe('published');
    expect(statusOf(after, c)).toBe('failed');
    expect(after.status).toBe('partial');

    const logs = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}/logs`, headers: t.headers })).json().logs as Array<{ _id: string; targetId: string; status: string }>;
    const seen = new Set(logsBefore.map((l) => l._id));
    const added = logs.filter((l) => !seen.has(l._id));
    expect(added.length).toBeGreaterThan(0);
    expect(new Set(added.map((l) => l.targetId))).toEqual(new Set([targetOf(b)]));
    expect(added[0]).toMatchObject({ status: 'success' });

    // c can be retried on its own later (the post is partial again).
    const cRes = await retry(t, postId, { accountId: c.toUpperCase() });
    expect(cRes.statusCode, cRes.body).toBe(200);
    expect(statusOf(cRes.json().post, c)).toBe('pending');
  });

  it('answers 400 naming the field for a target that is not failed or not in the post, and changes nothing', async () => {
    const t = await createTenant(ctx);
    const { postId, ok, b, c } = await partialPost(t);
    const published = await retry(t, postId, { accountId: ok });
    expect(published.statusCode).toBe(400);
    expect(published.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { accountId: [expect.stringMatching(/not failed.*published/)] } } });

    const stranger = await retry(t, postId, { accountId: 'a'.repeat(24) });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().details.fields.accountId[0]).toMatch(/not a target of this post/);

    const otherPlatform = await retry(t, postId, { platform: 'twitter' });
    expect(otherPlatform.statusCode).toBe(400);
    expect(otherPlatform.json().details.fields.platform[0]).toMatch(/not a target of this post/);

    const bad = await retry(t, postId, { accountId: 'nope' });
    expect(bad.statusCode).toBe(400);
    const unknown = await retry(t, postId, { target: 'x' });
    expect(unknown.statusCode).toBe(400);

    const post = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: t.headers })).json().post;
    expect(post.status).toBe('partial');
    expect([statusOf(post, b), statusOf(post, c)]).toEqual(['failed', 'failed']);
  });

  it('retries the failed targets of one platform with `platform`, and every failed target without a body (or with an empty one)', async () => {
    const t = await createTenant(ctx);
    const { postId, b, c } = await partialPost(t);
    const res = await retry(t, postId, { platform: 'bluesky' });
    expect(res.statusCode, res.body).toBe(200);
    expect([statusOf(res.json().post, b), statusOf(res.json().post, c)]).toEqual(['pending', 'pending']);

    for (const payload of [undefined, {}]) {
      const again = await partialPost(t);
      const whole = await retry(t, again.postId, payload);
      expect(whole.statusCode, whole.body).toBe(200);
      expect(whole.json().message).toBe('Post queued for retry');
      expect([statusOf(whole.json().post, again.b), statusOf(whole.json().post, again.c)]).toEqual(['pending', 'pending']);
    }
  });

  it('keeps the post-level rules: 409 for a post that is not failed or partial, even with a target', async () => {
    const t = await createTenant(ctx);
    const { postId, b } = await partialPost(t);
    expect((await retry(t, postId, { accountId: b })).statusCode).toBe(200);
    const again = await retry(t, postId, { accountId: b });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'INVALID_STATE', details: { status: 'publishing' } });
  });
});
