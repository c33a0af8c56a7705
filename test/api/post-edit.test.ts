/**
 * POST /v1/posts/{postId}/edit through the real app and the Mastodon adapter against the Mastodon
 * simulator (which enforces PUT /api/v1/statuses/:id: author only, the instance's character limit):
 * the edit reaches the platform, the target's stored text changes, the publishing log records who,
 * what and the platform's answer; the text is checked against the platform's rules first; platforms
 * without an edit endpoint answer 400 naming the platform and why; a post not published answers 409;
 * another tenant's post 404; idempotency keys replay; a platform refusal changes nothing stored.
 */
import { describe, expect, it } from 'vitest';
import { startMastodonSimulator, type MastodonSimulator } from '../../sim/mastodon/server.ts';
import { createProfile, createTenant, insertAccount } from '../support/app.ts';
import { platformHarness } from '../support/harness.ts';

let sim: MastodonSimulator;
const h = platformHarness({
  platform: 'mastodon', tag: 'edit',
  async setup() {
    sim = await startMastodonSimulator({ domain: 'edit.example', limits: { maxCharacters: 60 } });
    return { env: { HERALD_ALLOW_PRIVATE_URLS: 'true' } };
  },
  teardown: async () => { await sim?.close(); },
  // The instance named, then OAuth there (decision 0055).
  async connectWithout(hh, profileId, tenant, redirectUrl) {
    const q = new URLSearchParams({ profileId, instance: sim.url, redirect_url: redirectUrl });
    const start = await hh.ctx.app.inject({ method: 'GET', url: `/v1/connect/mastodon?${q}`, headers: tenant.headers });
    if (start.statusCode !== 200) throw new Error(start.body);
    const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    const done = await hh.ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    return { authUrl: start.json().authUrl, done };
  },
});

const edit = (postId: string, payload: object, headers: Record<string, string> = h.tenant.headers) =>
  h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/edit`, headers, payload });

/** A post published now on the harness's Mastodon account; answers its id and the status on the simulator. */
async function published(content: string, accountId?: string) {
  const acc = accountId ?? (h.accountId ||= await h.connectNew());
  const res = await h.post({ content, publishNow: true, platforms: [{ platform: 'mastodon', accountId: acc }] });
  expect(res.statusCode, res.body).toBe(201);
  const post = res.json().post;
  expect(post.platforms[0].status).toBe('published');
  return { postId: post._id as string, status: sim.statuses.find((s) => s.id === post.platforms[0].platformPostId)! };
}

describe('POST /v1/posts/{postId}/edit', () => {
  it('edits the status on Mastodon, stores the new text on the target and logs who, what and the answer', async () => {
    const { postId, status } = await published('first words');
    const res = await edit(postId, { platform: 'mastodon', content: 'better words' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, id: status.id, url: expect.stringContaining(status.id) });
    expect(status.text).toBe('better words');
    expect(status.history).toEqual(['first words']);
    expect(sim.calls.get('PUT /api/v1/statuses/:id')).toBe(1);

    const view = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: h.tenant.headers })).json().post;
    expect(view.platforms[0]).toMatchObject({ customContent: 'better words', status: 'published', platformPostId: status.id });

    const logs = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}/logs?action=edit`, headers: h.tenant.headers })).json().logs;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      action: 'edit', status: 'success', platform: 'mastodon', actorId: h.tenant.userId, requestId: expect.any(String),
      changes: { content: { from: 'first words', to: 'better words' } },
    });
  });

  it('checks the text against the platform\'s rules before calling it: 400 naming content and the rule, nothing sent', async () => {
    const { postId, status } = await published('short one');
    const before = sim.calls.get('PUT /api/v1/statuses/:id') ?? 0;
    const res = await edit(postId, { platform: 'mastodon', content: 'x'.repeat(61) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(res.json().details.fields.content[0]).toMatch(/\[rule mastodon\.text\.max_length\]|60/);
    expect(sim.calls.get('PUT /api/v1/statuses/:id') ?? 0).toBe(before);
    expect(status.text).toBe('short one');
    // Empty text, a missing platform and unknown fields are the schema's 400s, never 500.
    for (const payload of [{ platform: 'mastodon', content: '   ' }, { content: 'x' }, { platform: 'mastodon', content: 'x', extra: 1 }, { platform: 'myspace', content: 'x' }]) {
      const bad = await edit(postId, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('answers the same text without calling the platform', async () => {
    const { postId } = await published('same text');
    const before = sim.calls.get('PUT /api/v1/statuses/:id') ?? 0;
    const res = await edit(postId, { platform: 'mastodon', content: 'same text' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/already has this text/);
    expect(sim.calls.get('PUT /api/v1/statuses/:id') ?? 0).toBe(before);
  });

  it('a platform refusal is 502 naming the platform and its answer; the stored text stays and the log keeps the failure', async () => {
    const { postId, status } = await published('keep me');
    sim.addFault({ op: 'edit', kind: 'server_error', count: 1 });
    const res = await edit(postId, { platform: 'mastodon', content: 'will fail' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'PLATFORM_ERROR', details: { platform: 'mastodon', platformStatus: 503 } });
    expect(status.text).toBe('keep me');
    const view = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: h.tenant.headers })).json().post;
    expect(view.platforms[0].customContent).toBeNull();
    const logs = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}/logs?action=edit`, headers: h.tenant.headers })).json().logs;
    expect(logs[0]).toMatchObject({ status: 'failed', httpStatus: 503, errorMessage: expect.stringMatching(/mastodon refused the edit/) });
  });

  it('a status deleted on Mastodon meanwhile: the platform\'s 404 comes back as 502, nothing stored', async () => {
    const { postId, status } = await published('gone soon');
    sim.statuses.splice(sim.statuses.indexOf(status), 1);
    const res = await edit(postId, { platform: 'mastodon', content: 'too late' });
    expect(res.statusCode).toBe(502);
    expect(res.json().details.platformStatus).toBe(404);
  });

  it('replays an Idempotency-Key: one platform call, the same answer; another body with the key is 422', async () => {
    const { postId, status } = await published('idem one');
    const headers = { ...h.tenant.headers, 'idempotency-key': `edit-${postId}` };
    const first = await edit(postId, { platform: 'mastodon', content: 'idem two' }, headers);
    expect(first.statusCode).toBe(200);
    const calls = sim.calls.get('PUT /api/v1/statuses/:id');
    const again = await edit(postId, { platform: 'mastodon', content: 'idem two' }, headers);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(sim.calls.get('PUT /api/v1/statuses/:id')).toBe(calls);
    expect(status.history).toEqual(['idem one']);
    expect((await edit(postId, { platform: 'mastodon', content: 'idem three' }, headers)).statusCode).toBe(422);
  });

  it('a failed edit frees its Idempotency-Key: the same request then runs', async () => {
    const { postId, status } = await published('retry me');
    const headers = { ...h.tenant.headers, 'idempotency-key': `edit-fail-${postId}` };
    sim.addFault({ op: 'edit', kind: 'server_error', count: 1 });
    expect((await edit(postId, { platform: 'mastodon', content: 'retried' }, headers)).statusCode).toBe(502);
    const ok = await edit(postId, { platform: 'mastodon', content: 'retried' }, headers);
    expect(ok.statusCode).toBe(200);
    expect(status.text).toBe('retried');
  });

  it('answers 409 for a post not published yet, and 400 naming the platform when the post has no target there', async () => {
    const acc = h.accountId ||= await h.connectNew();
    const draft = await h.post({ content: 'later', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'mastodon', accountId: acc }] });
    const postId = draft.json().post._id;
    const res = await edit(postId, { platform: 'mastodon', content: 'now' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'INVALID_STATE', error: expect.stringMatching(/PUT \/v1\/posts/) });
    const none = await edit(postId, { platform: 'discord', content: 'now' });
    expect(none.statusCode).toBe(400);
    expect(none.json().details.fields.platform[0]).toMatch(/no discord target/);
    const otherAccount = await edit(postId, { platform: 'mastodon', content: 'now', accountId: 'a'.repeat(24) });
    expect(otherAccount.json().details.fields.accountId).toBeDefined();
  });

  it.each([
    ['instagram', /instagram posts cannot be edited after publishing.*comment_enabled/],
    ['bluesky', /bluesky posts cannot be edited/],
    ['twitter', /Herald does not edit twitter posts yet.*30 minutes/],
  ])('answers 400 naming %s and why it cannot be edited', async (platform, why) => {
    const { postId } = await published(`on ${platform}`);
    const acc = await insertAccount(h.ctx, h.tenant, h.profileId, platform);
    await h.ctx.db.query(
      `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, platform_post_id, platform_post_url, published_at)
       VALUES (substr(md5(random()::text), 1, 24), $1, $2, 1, $3, $4, 'published', 'p-1', 'https://example.com/p/1', now())`,
      [postId, h.tenant.userId, acc, platform]);
    const res = await edit(postId, { platform, content: 'changed' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.platform[0]).toMatch(why);
  });

  it('another tenant\'s post is 404, and a team member scoped to other profiles sees 404 too', async () => {
    const { postId, status } = await published('mine only');
    const other = await createTenant(h.ctx);
    await createProfile(h.ctx, other);
    const res = await edit(postId, { platform: 'mastodon', content: 'theirs' }, other.headers);
    expect(res.statusCode).toBe(404);
    expect(status.text).toBe('mine only');
  });
});
