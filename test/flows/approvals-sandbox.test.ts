/**
 * Issue 28's "done when", end to end in sandbox mode (docs/decisions/0059-approvals.md): the owner
 * connects the sandbox X account and turns approvals on for its profile; a member invited to the
 * team (invite token, then signup: a real team member with a dashboard session) schedules a post a
 * few seconds ahead, which waits `pending_approval`; the client opens the review link over HTTP with
 * no login and approves it; the real worker (polling, not forced) publishes it at its time to the X
 * simulator, exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SIMULATORS, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { startTestPublisher } from '../support/publishing.ts';
import { startWorker, type Worker } from '../../src/publishing/worker.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { freePort, waitFor } from '../support/net.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let worker: Worker;
let base: string;
let owner: Tenant;
let profileId: string;
let accountId: string;
const origin = { origin: 'http://localhost:80', host: 'localhost:80' };

beforeAll(async () => {
  sandbox = await startSandbox({ simulators: SANDBOX_SIMULATORS.filter((s) => s.platform === 'twitter'), bluesky: false });
  const port = await freePort();
  ctx = await createTestApp({ listen: true, env: { HERALD_SANDBOX: 'on', PORT: String(port) }, deps: { sandbox } });
  base = `http://127.0.0.1:${port}`;
  const publisher = await startTestPublisher(ctx, 'appr-sandbox');
  worker = await startWorker({ db: ctx.db, publisher, concurrency: 2, pollMs: 200, staleMs: 5_000 });
  owner = await createTenant(ctx);
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await ctx?.close();
  await sandbox?.close();
});

const api = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });

describe('approvals in sandbox mode, end to end', () => {
  it('owner turns approvals on, an invited member schedules, the client approves through the link, the worker publishes it at its time, once', async () => {
    // The owner: a profile, the sandbox X account connected through the simulator's consent page, approvals on.
    profileId = await createProfile(ctx, owner, 'Client brand (sandbox)');
    const start = await api('GET', `/v1/connect/twitter?profileId=${profileId}`, owner.headers);
    expect(start.statusCode, start.body).toBe(200);
    const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    expect((await ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search })).statusCode).toBe(302);
    accountId = (await api('GET', `/v1/accounts?profileId=${profileId}`, owner.headers)).json().accounts[0]._id;
    const rule = await api('PUT', `/v1/profiles/${profileId}/approval-rule`, owner.headers, { required: true, clientApproval: true });
    expect(rule.statusCode, rule.body).toBe(200);

    // A member joins through a team invite and signs up (a dashboard session, not an owner key).
    const invite = await api('POST', '/v1/invite/tokens', owner.headers, { scope: 'all' });
    expect(invite.statusCode, invite.body).toBe(201);
    const signup = await ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin,
      payload: { inviteToken: invite.json().token, name: 'Mia Member', email: `mia${Date.now()}@example.test`, password: 'member password 1' } });
    expect(signup.statusCode, signup.body).toBe(201);
    const member = { cookie: String(signup.headers['set-cookie']).split(';')[0], 'x-csrf-token': signup.json().csrfToken as string, ...origin };

    // The member schedules a post a few seconds ahead: it waits for review.
    const at = new Date(Date.now() + 8_000);
    at.setUTCMilliseconds(0);
    const content = `Reviewed by the client ${Date.now()}`;
    const created = await api('POST', '/v1/posts', member, { content, scheduledFor: at.toISOString(), platforms: [{ platform: 'twitter', accountId }] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ message: 'Post submitted for approval', post: { status: 'pending_approval' } });
    const postId = created.json().post._id as string;

    // The owner makes a review link; the client uses it over HTTP with no login.
    const link = await api('POST', '/v1/review-links', owner.headers, { postId, label: 'This week' });
    expect(link.statusCode, link.body).toBe(201);
    const { token } = link.json();
    const view = await fetch(`${base}/review-api/${token}`);
    expect(view.status).toBe(200);
    const shown = await view.json() as { posts: Array<{ _id: string; content: string; review: { state: string } }> };
    expect(shown.posts).toMatchObject([{ _id: postId, content, review: { state: 'pending' } }]);
    const approve = await fetch(`${base}/review-api/${token}/posts/${postId}/approve`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Carla Client', comment: 'Good to go' }),
    });
    expect(approve.status, await approve.clone().text()).toBe(200);
    expect(((await approve.json()) as { post: { review: { state: string } } }).post.review.state).toBe('approved');

    // Approved before its time: scheduled at the time the member gave, not published yet.
    const scheduled = (await api('GET', `/v1/posts/${postId}`, owner.headers)).json().post;
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduledFor: at.toISOString() });
    expect(Date.now()).toBeLessThan(at.getTime());

    // The worker publishes it at its time, to the X simulator, once.
    const published = await waitFor(async () => {
      const p = (await api('GET', `/v1/posts/${postId}`, owner.headers)).json().post;
      return p.status === 'published' ? p : null;
    }, { timeoutMs: 30_000, intervalMs: 250, what: 'the approved post to publish at its time' });
    expect(new Date(published.platforms[0].publishedAt).getTime()).toBeGreaterThanOrEqual(at.getTime());
    const tweets = (await api('GET', '/v1/sandbox/twitter/state', owner.headers)).json().state.tweets as Array<{ id: string; text: string }>;
    const mine = tweets.filter((t) => t.text === content);
    expect(mine).toHaveLength(1);
    expect(mine[0].id).toBe(published.platforms[0].platformPostId);
    // Every step is on record: the member's submission and the client's approval.
    const review = (await api('GET', `/v1/posts/${postId}/approval`, owner.headers)).json().approval;
    expect(review.events.map((e: { kind: string; actor: { type: string } }) => `${e.kind}:${e.actor.type}`)).toEqual(['submitted:user', 'approved:client']);
  }, 60_000);
});
