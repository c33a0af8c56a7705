/**
 * POST /v1/posts/{id}/unpublish through the real app and the X adapter against the X simulator
 * (which enforces DELETE /2/tweets/:id): deletes every post of a thread, says which platforms
 * cannot delete (Instagram), cancels targets not published yet, and is idempotent.
 */
import { describe, expect, it } from 'vitest';
import { startXSimulator, type XSimulator } from '../../sim/twitter/server.ts';
import { insertAccount } from '../support/app.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';

let sim: XSimulator;
const h = platformHarness({
  platform: 'twitter', tag: 'unpublish',
  async setup() {
    sim = await startXSimulator({});
    return { env: platformEnv('twitter', sim) };
  },
  teardown: async () => { await sim?.close(); },
});

const unpublish = (postId: string, payload: object = {}, headers = h.tenant.headers) =>
  h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/unpublish`, headers, payload });

describe('unpublish', () => {
  it('deletes a published X thread from X, marks the post cancelled and is idempotent', async () => {
    const x = await h.connectNew();
    const res = await h.post({
      content: 'take me back 1/2', publishNow: true,
      platforms: [{ platform: 'twitter', accountId: x, platformSpecificData: { threadItems: [{ content: 'take me back 1/2' }, { content: 'take me back 2/2' }] } }],
    });
    expect(res.statusCode).toBe(201);
    const postId = res.json().post._id;
    expect(sim.tweets.filter((t) => t.sent.startsWith('take me back'))).toHaveLength(2);

    const first = await unpublish(postId);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, post: { status: 'cancelled' }, results: [{ platform: 'twitter', outcome: 'deleted' }] });
    expect(first.json().post.platforms[0].status).toBe('cancelled');
    expect(sim.tweets.filter((t) => t.sent.startsWith('take me back'))).toHaveLength(0);
    expect(sim.calls.get('DELETE /2/tweets/:id')).toBe(2);
    const { rows } = await h.ctx.db.query('SELECT removed_from_platform_at FROM post_targets WHERE post_id = $1', [postId]);
    expect(rows[0].removed_from_platform_at).toBeInstanceOf(Date);
    // The post's view says so, in the list and on its own.
    const removedAt = (rows[0].removed_from_platform_at as Date).toISOString();
    expect(first.json().post.platforms[0].removedFromPlatformAt).toBe(removedAt);
    const listed = (await h.ctx.app.inject({ method: 'GET', url: '/v1/posts?status=cancelled', headers: h.tenant.headers })).json().posts;
    expect(listed.find((p: { _id: string }) => p._id === postId).platforms[0].removedFromPlatformAt).toBe(removedAt);

    const again = await unpublish(postId);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ success: true, post: { status: 'cancelled' }, results: [{ outcome: 'already_removed' }] });
    expect(sim.calls.get('DELETE /2/tweets/:id')).toBe(2);

    const logs = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}/logs?action=unpublish`, headers: h.tenant.headers })).json().logs;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ action: 'unpublish', status: 'success', platform: 'twitter' });
    // The content may be posted again now.
    expect((await h.post({ content: 'take me back 1/2', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId: x }] })).statusCode).toBe(201);
  });

  it('says which platforms cannot delete, leaving the post partial, and cancels targets not published yet', async () => {
    const x = await h.connectNew();
    const ig = await insertAccount(h.ctx, h.tenant, h.profileId, 'instagram');
    const res = await h.post({ content: 'mixed bag', publishNow: true, platforms: [{ platform: 'twitter', accountId: x }] });
    const postId = res.json().post._id;
    // A second target, published on Instagram (which has no delete endpoint).
    await h.ctx.db.query(
      `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, platform_post_id, platform_post_url, published_at)
       VALUES (substr(md5(random()::text), 1, 24), $1, $2, 1, $3, 'instagram', 'published', '17900000000000001', 'https://www.instagram.com/p/abc/', now())`,
      [postId, h.tenant.userId, ig]);
    const out = await unpublish(postId);
    expect(out.statusCode).toBe(200);
    const body = out.json();
    expect(body.success).toBe(false);
    expect(body.post.status).toBe('partial');
    const byPlatform = Object.fromEntries(body.results.map((r: { platform: string }) => [r.platform, r]));
    expect(byPlatform.twitter.outcome).toBe('deleted');
    expect(byPlatform.instagram.outcome).toBe('not_supported');
    expect(byPlatform.instagram.error).toMatch(/instagram/i);
    const igView = body.post.platforms.find((t: { platform: string }) => t.platform === 'instagram');
    expect(igView.unpublishError).toMatch(/instagram/i);
    expect(igView.removedFromPlatformAt).toBeUndefined();

    const later = await h.post({ content: 'never mind', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId: x }] });
    const scheduledId = later.json().post._id;
    const cancelled = (await unpublish(scheduledId)).json();
    expect(cancelled).toMatchObject({ success: true, post: { status: 'cancelled' }, results: [{ outcome: 'cancelled' }] });
    expect(await h.runDue(scheduledId)).toBe(0);
  });

  it('answers 404 for another tenant\'s post and 400 for an unknown platform', async () => {
    const x = await h.connectNew();
    const postId = (await h.post({ content: 'mine only', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId: x }] })).json().post._id;
    const { createTenant } = await import('../support/app.ts');
    const other = await createTenant(h.ctx);
    expect((await unpublish(postId, {}, other.headers)).statusCode).toBe(404);
    const bad = await unpublish(postId, { platform: 'myspace' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().details.fields).join()).toContain('platform');
  });
});

describe('token refresh in the publishing log', () => {
  it('logs each refresh with its account and platform, and a refused refresh with X\'s answer', async () => {
    const { refreshExpiringTokens } = await import('../../src/publishing/token-refresh.ts');
    const x = await h.connectNew();
    await h.expireSoon(x);
    const deps = { db: h.ctx.db, adapters: h.ctx.services.adapters, accounts: h.ctx.services.accountsRepository };
    expect((await refreshExpiringTokens(deps)).refreshed).toBeGreaterThanOrEqual(1);
    const logs = (await h.ctx.app.inject({ method: 'GET', url: `/v1/logs?action=token_refresh&accountId=${x}`, headers: h.tenant.headers })).json().logs;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ action: 'token_refresh', status: 'success', platform: 'twitter', accountId: x, postId: null });
    expect(logs[0].durationMs).toBeGreaterThanOrEqual(0);
  });
});
