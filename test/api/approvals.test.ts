/**
 * Approvals through the real app (docs/decisions/0059-approvals.md): a member's post on a profile
 * that requires approval waits `pending_approval` and is never claimed by the publisher until an
 * approver approves it; request changes sends it back as a draft; an approved post edited by a
 * member goes back to review; an approval after the submitted time takes the next queue slot;
 * client review links (no login) show and approve only their posts; comments stay apart from the
 * client; every step is recorded; webhook events and mail (a local SMTP server) are sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';
import { startLocalSmtp, type LocalSmtp } from '../support/smtp.ts';
import { multipart } from '../support/png.ts';
import { REVIEW_API_PER_MINUTE } from '../../src/modules/approvals/service.ts';

let ctx: TestContext;
let smtp: LocalSmtp;
let worker: Publisher;
let adapter: ScriptedAdapter;
let owner: Tenant;
let other: Tenant;
let profileId: string;
let plainProfile: string;
let accountId: string;
let plainAccount: string;
let otherPostId: string;
const ownerEmail = `owner${Date.now()}@example.test`;
const origin = { origin: 'http://localhost:80', host: 'localhost:80' };
let n = 0;

interface Member { userId: string; email: string; write: Record<string, string> }
let member: Member;
let approverMember: Member;

async function newMember(): Promise<Member> {
  const tok = (await ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: owner.headers, payload: { scope: 'all' } })).json().token as string;
  const email = `member${Date.now()}${n++}@example.test`;
  const res = await ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload: { inviteToken: tok, name: `Mia ${n}`, email, password: 'member password 1' } });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = String(res.headers['set-cookie']).split(';')[0];
  return { userId: res.json().user._id, email, write: { cookie, 'x-csrf-token': res.json().csrfToken as string, ...origin } };
}

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });

async function state(postId: string) {
  const { rows: [post] } = await ctx.db.query<{ status: string; scheduled_for: Date | null }>('SELECT status, scheduled_for FROM posts WHERE id = $1', [postId]);
  const { rows: targets } = await ctx.db.query<{ status: string; run_at: Date | null }>('SELECT status, run_at FROM post_targets WHERE post_id = $1', [postId]);
  return { post: post.status, scheduledFor: post.scheduled_for, targets };
}

async function memberPost(content: string, extra: object = {}) {
  const res = await api('POST', '/v1/posts', member.write, { content, scheduledFor: '2031-03-03T10:00:00Z', platforms: [{ platform: 'bluesky', accountId }], ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Waits for a mail to `to` whose text contains `text`. */
async function mailWith(to: string, text: string) {
  for (let i = 0; i < 200; i++) {
    const m = smtp.mails.find((x) => x.to.includes(to.toLowerCase()) && x.text.includes(text));
    if (m) return m;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} containing ${text}`);
}

async function events(postId: string, event: string) {
  const { rows } = await ctx.db.query<{ payload: Record<string, unknown> }>(`SELECT payload FROM webhook_deliveries WHERE event = $1 AND payload->'post'->>'id' = $2`, [event, postId]);
  return rows.map((r) => r.payload);
}

beforeAll(async () => {
  smtp = await startLocalSmtp();
  adapter = new ScriptedAdapter();
  ctx = await createTestApp({
    env: { ...smtp.env, HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' },
    deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter }) },
  });
  worker = await startTestPublisher(ctx, 'approvals');
  owner = await createTenant(ctx, { email: ownerEmail });
  other = await createTenant(ctx);
  profileId = await createProfile(ctx, owner, 'Client brand');
  plainProfile = await createProfile(ctx, owner, 'Own brand');
  accountId = await insertAccount(ctx, owner, profileId);
  plainAccount = await insertAccount(ctx, owner, plainProfile);
  member = await newMember();
  approverMember = await newMember();
  const otherProfile = await createProfile(ctx, other);
  const otherAccount = await insertAccount(ctx, other, otherProfile);
  otherPostId = (await api('POST', '/v1/posts', other.headers, { content: 'other tenant', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: otherAccount }] })).json().post._id;
  const hook = await api('POST', '/v1/webhooks/settings', owner.headers, {
    name: 'approvals', url: 'http://127.0.0.1:9/hook', events: ['post.submitted', 'post.approved', 'post.changes_requested', 'post.commented', 'post.scheduled'],
  });
  expect(hook.statusCode, hook.body).toBe(200);
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

describe('approval rules', () => {
  it('the owner turns approval on for a profile; members cannot change it; approvers must be team users', async () => {
    expect((await api('GET', `/v1/profiles/${profileId}/approval-rule`, owner.headers)).json().rule).toMatchObject({ required: false, approverIds: [], canApprove: true });
    const byMember = await api('PUT', `/v1/profiles/${profileId}/approval-rule`, member.write, { required: false });
    expect(byMember.statusCode).toBe(403);
    const bad = await api('PUT', `/v1/profiles/${profileId}/approval-rule`, owner.headers, { required: true, approverIds: [otherPostId] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields.approverIds).toBeTruthy();
    const res = await api('PUT', `/v1/profiles/${profileId}/approval-rule`, owner.headers, { required: true, approverIds: [approverMember.userId], clientApproval: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rule).toMatchObject({ required: true, approverIds: [approverMember.userId], clientApproval: true });
    expect((await api('GET', `/v1/profiles/${profileId}/approval-rule`, member.write)).json().rule.canApprove).toBe(false);
    expect((await api('GET', `/v1/profiles/${profileId}/approval-rule`, approverMember.write)).json().rule.canApprove).toBe(true);
  });
});

describe('a member\'s post waits for approval', () => {
  it('is saved pending_approval, is not claimed at its time, and publishes once the owner approves', async () => {
    const body = await memberPost('Launch day post');
    expect(body.message).toBe('Post submitted for approval');
    expect(body.post.status).toBe('pending_approval');
    const postId = body.post._id as string;
    expect((await state(postId)).targets).toEqual([{ status: 'draft', run_at: null }]);
    // Its time comes: the publisher's claim of due targets does not take it.
    await ctx.db.query(`UPDATE posts SET scheduled_for = now() - interval '1 minute' WHERE id = $1`, [postId]);
    const claimed = await worker.claimDue(100);
    expect(claimed.filter((t) => t.post_id === postId)).toEqual([]);
    expect(await runDue(ctx, worker, postId)).toBe(0);
    expect((await state(postId)).post).toBe('pending_approval');
    expect(adapter.commits.filter((c) => c.text.includes('Launch day'))).toEqual([]);
    // The approvers are mailed: the owner and the named member.
    expect((await mailWith(ownerEmail, 'Launch day post')).text).toContain('A post waits for your review');
    expect((await mailWith(approverMember.email, 'Launch day post')).text).toContain('A post waits for your review');
    expect(await events(postId, 'post.submitted')).toHaveLength(1);
    // The submitter may not approve it; a member not named either; the key needs posts:approve.
    expect((await api('POST', `/v1/posts/${postId}/approve`, member.write, {})).statusCode).toBe(403);
    const noPerm = await createTenant(ctx, { permissions: ['posts:read', 'posts:write'] });
    expect((await api('POST', `/v1/posts/${postId}/approve`, noPerm.headers, {})).statusCode).toBe(403);
    // Approved after its time passed, without a queue: published at once, and the answer says so.
    const ok = await api('POST', `/v1/posts/${postId}/approve`, owner.headers, { comment: 'Looks good' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ moved: true, post: { status: 'scheduled' } });
    expect(ok.json().message).toContain('has passed');
    const s = await state(postId);
    expect(s.post).toBe('scheduled');
    expect(s.targets[0].status).toBe('pending');
    expect(await runDue(ctx, worker, postId)).toBe(1);
    expect((await state(postId)).post).toBe('published');
    expect(adapter.commits.filter((c) => c.text.includes('Launch day'))).toHaveLength(1);
    // The submitter hears of the decision; the webhook event carries it.
    const approvedMail = (await mailWith(member.email, 'approved your post')).text;
    expect(approvedMail).toContain('Launch day post');
    // Its times are the post's zone's wall clock with the zone named, not the API's UTC instants.
    expect(approvedMail).toMatch(/It publishes at \w{3}, \w{3} \d{1,2}, \d{4}, \d{2}:\d{2} \(UTC\)\./);
    expect(approvedMail).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
    const [approved] = await events(postId, 'post.approved');
    expect(approved).toMatchObject({ event: 'post.approved', review: { kind: 'approved', by: owner.userId, comment: 'Looks good', moved: true } });
    // Every step is recorded and shown.
    const review = (await api('GET', `/v1/posts/${postId}/approval`, member.write)).json().approval;
    expect(review).toMatchObject({ state: 'approved', canApprove: false, required: true });
    expect(review.events.map((e: { kind: string }) => e.kind)).toEqual(['submitted', 'approved']);
    expect(review.events[1]).toMatchObject({ actor: { type: 'user', userId: owner.userId }, comment: 'Looks good' });
  });

  it('keeps its submitted time when approved before it, by a member the rule names', async () => {
    const postId = (await memberPost('Future post')).post._id as string;
    const ok = await api('POST', `/v1/posts/${postId}/approve`, approverMember.write, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ moved: false, scheduledFor: '2031-03-03T10:00:00.000Z' });
    const s = await state(postId);
    expect(s.targets[0]).toMatchObject({ status: 'pending', run_at: new Date('2031-03-03T10:00:00Z') });
  });

  it('the owner\'s own post and a post on a profile without the rule are scheduled as before', async () => {
    const own = await api('POST', '/v1/posts', owner.headers, { content: 'owner post', scheduledFor: '2031-03-04T10:00:00Z', platforms: [{ platform: 'bluesky', accountId }] });
    expect(own.json().post.status).toBe('scheduled');
    const plain = await api('POST', '/v1/posts', member.write, { content: 'plain', scheduledFor: '2031-03-04T10:00:00Z', platforms: [{ platform: 'bluesky', accountId: plainAccount }] });
    expect(plain.json().post.status).toBe('scheduled');
    // publishNow by a member on the approval profile waits too (nothing is published inline).
    const now = await api('POST', '/v1/posts', member.write, { content: 'right now please', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] });
    expect(now.statusCode, now.body).toBe(201);
    expect(now.json().post.status).toBe('pending_approval');
    expect(adapter.commits.filter((c) => c.text.includes('right now please'))).toEqual([]);
    // Approved, it is due at once (it asked for "now"), and publishes.
    const nowId = now.json().post._id as string;
    const ok = await api('POST', `/v1/posts/${nowId}/approve`, owner.headers, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(new Date(ok.json().scheduledFor).getTime()).toBeLessThanOrEqual(Date.now());
    expect((await state(nowId)).targets[0].status).toBe('pending');
    expect(await runDue(ctx, worker, nowId)).toBe(1);
    expect((await state(nowId)).post).toBe('published');
  });

  it('request changes sends it back as a draft; the member edits and submits again', async () => {
    const postId = (await memberPost('Needs work')).post._id as string;
    expect((await api('POST', `/v1/posts/${postId}/request-changes`, owner.headers, {})).statusCode).toBe(400); // a comment is required
    const back = await api('POST', `/v1/posts/${postId}/request-changes`, owner.headers, { comment: 'Mention the sale' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().post.status).toBe('draft');
    expect((await state(postId)).targets[0].status).toBe('draft');
    expect((await mailWith(member.email, 'Mention the sale')).text).toContain('requested changes on your post');
    expect(await events(postId, 'post.changes_requested')).toHaveLength(1);
    // Approving it now is refused: it is not waiting.
    expect((await api('POST', `/v1/posts/${postId}/approve`, owner.headers, {})).statusCode).toBe(409);
    const edit = await api('PUT', `/v1/posts/${postId}`, member.write, { content: 'Needs work: 20% sale' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().post.status).toBe('draft');
    const submit = await api('POST', `/v1/posts/${postId}/submit`, member.write);
    expect(submit.statusCode, submit.body).toBe(200);
    expect(submit.json().post).toMatchObject({ status: 'pending_approval', scheduledFor: '2031-03-03T10:00:00.000Z' });
    const review = (await api('GET', `/v1/posts/${postId}/approval`, owner.headers)).json().approval;
    expect(review.state).toBe('pending');
    expect(review.events.map((e: { kind: string }) => e.kind)).toEqual(['submitted', 'changes_requested', 'edited', 'submitted']);
    expect(review.events[1].comment).toBe('Mention the sale');
  });

  it('an approved post edited by a member goes back to review, with what changed', async () => {
    const postId = (await memberPost('Approved then edited')).post._id as string;
    expect((await api('POST', `/v1/posts/${postId}/approve`, owner.headers, {})).statusCode).toBe(200);
    expect((await state(postId)).post).toBe('scheduled');
    const edit = await api('PUT', `/v1/posts/${postId}`, member.write, { content: 'Approved then edited (typo fixed)' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ message: 'Post submitted for approval', post: { status: 'pending_approval' } });
    expect((await state(postId)).targets).toEqual([{ status: 'draft', run_at: null }]);
    const review = (await api('GET', `/v1/posts/${postId}/approval`, owner.headers)).json().approval;
    expect(review.events.map((e: { kind: string }) => e.kind)).toEqual(['submitted', 'approved', 'submitted']);
    expect(review.events[2].details).toMatchObject({ previousStatus: 'scheduled', changed: ['content'], contentBefore: 'Approved then edited', contentAfter: 'Approved then edited (typo fixed)' });
    // An owner's edit of an approved post stays approved (the owner may approve) and is recorded.
    expect((await api('POST', `/v1/posts/${postId}/approve`, owner.headers, {})).statusCode).toBe(200);
    const ownerEdit = await api('PUT', `/v1/posts/${postId}`, owner.headers, { content: 'Owner tweak' });
    expect(ownerEdit.json().post.status).toBe('scheduled');
    const after = (await api('GET', `/v1/posts/${postId}/approval`, owner.headers)).json().approval;
    expect(after.events.at(-1)).toMatchObject({ kind: 'edited', actor: { userId: owner.userId } });
  });

  it('a queued post approved after its slot passed takes the next free slot of the queue, and says so', async () => {
    const slots = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, time: '09:00' }));
    expect((await api('PUT', '/v1/queue/slots', owner.headers, { profileId, timezone: 'UTC', slots })).statusCode).toBe(200);
    const res = await api('POST', '/v1/posts', member.write, { content: 'queued for review', queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.statusCode, res.body).toBe(201);
    const postId = res.json().post._id as string;
    expect(res.json().post).toMatchObject({ status: 'pending_approval', queuedFromProfile: profileId });
    await ctx.db.query(`UPDATE posts SET scheduled_for = now() - interval '2 hours' WHERE id = $1`, [postId]);
    const ok = await api('POST', `/v1/posts/${postId}/approve`, owner.headers, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().moved).toBe(true);
    expect(ok.json().message).toContain('next free queue slot');
    const at = new Date(ok.json().scheduledFor);
    expect(at.getTime()).toBeGreaterThan(Date.now());
    expect(at.getUTCHours()).toBe(9);
    const [approved] = await events(postId, 'post.approved');
    expect((approved.review as { note: string }).note).toContain('next free queue slot');
  });

  it('a post queued into a named queue keeps that queue through review: approved after its slot passed, it takes that queue\'s next free slot (decision 0062)', async () => {
    const evenings = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, time: '18:00' }));
    const created = await api('POST', '/v1/queue/slots', owner.headers, { profileId, name: 'Review evenings', timezone: 'UTC', slots: evenings });
    expect(created.statusCode, created.body).toBe(201);
    const queueId = created.json().schedule._id as string;
    const res = await api('POST', '/v1/posts', member.write, { content: 'queued in the evening queue for review', queuedFromProfile: profileId, queueId, platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().post).toMatchObject({ status: 'pending_approval', queuedFromProfile: profileId, queueId });
    const postId = res.json().post._id as string;
    await ctx.db.query(`UPDATE posts SET scheduled_for = now() - interval '2 hours' WHERE id = $1`, [postId]);
    const ok = await api('POST', `/v1/posts/${postId}/approve`, owner.headers, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(new Date(ok.json().scheduledFor).getUTCHours()).toBe(18);
    expect((await api('GET', `/v1/posts/${postId}`, owner.headers)).json().post).toMatchObject({ status: 'scheduled', queueId });
  });

  it('a pending post may be deleted; scoped rules: another tenant cannot see or decide it', async () => {
    const postId = (await memberPost('to delete')).post._id as string;
    expect((await api('GET', `/v1/posts/${postId}/approval`, other.headers)).statusCode).toBe(404);
    expect((await api('POST', `/v1/posts/${postId}/approve`, other.headers, {})).statusCode).toBe(404);
    expect((await api('DELETE', `/v1/posts/${postId}`, member.write)).statusCode).toBe(200);
  });
});

describe('no publishing around review: failed, partial and published posts', () => {
  /** A member's post, approved by the owner and run by the publisher (a "#reject" text fails). */
  async function approvedAndRun(content: string, extra: object = {}) {
    const postId = (await memberPost(content, extra)).post._id as string;
    expect((await api('POST', `/v1/posts/${postId}/approve`, owner.headers, {})).statusCode).toBe(200);
    await runDue(ctx, worker, postId);
    return postId;
  }
  const committed = (text: string) => adapter.commits.filter((c) => c.text.includes(text));

  it('a member\'s text edit of a failed post goes to review, so the retry cannot publish it; the approved text may be retried', async () => {
    const postId = await approvedAndRun('Reviewed text #reject');
    expect((await state(postId)).post).toBe('failed');
    // The text as approved: the member may retry it (it fails again: the platform still rejects it).
    const again = await api('POST', `/v1/posts/${postId}/retry`, member.write, {});
    expect(again.statusCode, again.body).toBe(200);
    await runDue(ctx, worker, postId);
    expect((await state(postId)).post).toBe('failed');
    // An edit that changes nothing that would go out leaves it failed.
    const same = await api('PUT', `/v1/posts/${postId}`, member.write, { content: 'Reviewed text #reject', hidden: false });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().post.status).toBe('failed');
    // The member changes the text without a new time: it waits for review instead of staying retryable.
    const edit = await api('PUT', `/v1/posts/${postId}`, member.write, { content: 'Unreviewed text' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ message: 'Post submitted for approval', post: { status: 'pending_approval' } });
    expect((await state(postId)).targets).toEqual([{ status: 'draft', run_at: null }]);
    expect((await api('POST', `/v1/posts/${postId}/retry`, member.write, {})).statusCode).toBe(409);
    expect(await runDue(ctx, worker, postId)).toBe(0);
    expect(committed('Unreviewed text')).toEqual([]);
    const review = (await api('GET', `/v1/posts/${postId}/approval`, owner.headers)).json().approval;
    expect(review.events.at(-1)).toMatchObject({ kind: 'submitted', details: { previousStatus: 'failed', contentBefore: 'Reviewed text #reject', contentAfter: 'Unreviewed text' } });
    expect(await events(postId, 'post.submitted')).toHaveLength(2);
    // Approved, it goes out.
    expect((await api('POST', `/v1/posts/${postId}/approve`, owner.headers, {})).statusCode).toBe(200);
    expect(await runDue(ctx, worker, postId)).toBe(1);
    expect(committed('Unreviewed text')).toHaveLength(1);
  });

  it('a member\'s edit of a partial post\'s failed target goes to review; its published target stays as it is', async () => {
    const brand = await createProfile(ctx, owner, 'Two accounts brand');
    expect((await api('PUT', `/v1/profiles/${brand}/approval-rule`, owner.headers, { required: true })).statusCode).toBe(200);
    const [first, second] = [await insertAccount(ctx, owner, brand), await insertAccount(ctx, owner, brand)];
    const postId = await approvedAndRun('Partial base', { platforms: [{ platform: 'bluesky', accountId: first }, { platform: 'bluesky', accountId: second, customContent: 'Partial base #reject' }] });
    expect((await state(postId)).post).toBe('partial');
    const edit = await api('PUT', `/v1/posts/${postId}`, member.write, { platforms: [{ platform: 'bluesky', accountId: second, customContent: 'Partial fixed, unreviewed' }] });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().post.status).toBe('pending_approval');
    expect((await state(postId)).targets.map((t) => t.status).sort()).toEqual(['draft', 'published']);
    expect((await api('POST', `/v1/posts/${postId}/retry`, member.write, {})).statusCode).toBe(409);
    expect(await runDue(ctx, worker, postId)).toBe(0);
    expect(committed('Partial fixed, unreviewed')).toEqual([]);
    expect(committed('Partial base')).toHaveLength(1);
  });

  it('a member cannot retry a failed post whose text no approval saw (written before the profile required approval); an approver can', async () => {
    const later = await createProfile(ctx, owner, 'Later brand');
    const laterAccount = await insertAccount(ctx, owner, later);
    const res = await api('POST', '/v1/posts', member.write, { content: 'Before the rule #reject', scheduledFor: '2031-03-03T10:00:00Z', platforms: [{ platform: 'bluesky', accountId: laterAccount }] });
    expect(res.json().post.status).toBe('scheduled');
    const postId = res.json().post._id as string;
    await runDue(ctx, worker, postId);
    expect((await state(postId)).post).toBe('failed');
    expect((await api('PUT', `/v1/profiles/${later}/approval-rule`, owner.headers, { required: true })).statusCode).toBe(200);
    const retry = await api('POST', `/v1/posts/${postId}/retry`, member.write, {});
    expect(retry.statusCode, retry.body).toBe(403);
    expect(retry.json()).toMatchObject({ details: { reason: 'approval_required', profileId: later } });
    expect(retry.json().error).toContain('"Later brand" requires approval');
    expect((await state(postId)).targets[0].status).toBe('failed');
    expect((await api('POST', `/v1/posts/${postId}/retry`, owner.headers, {})).statusCode).toBe(200);
  });

  it('a member cannot start or change the recycling of an approved post (its copies would go out unreviewed); pausing and stopping are open', async () => {
    const postId = (await memberPost('Evergreen tip')).post._id as string;
    expect((await api('POST', `/v1/posts/${postId}/approve`, owner.headers, {})).statusCode).toBe(200);
    const start = await api('PUT', `/v1/posts/${postId}`, member.write, { recycling: { gap: 1, gapFreq: 'month', expireCount: 2, contentVariations: ['Evergreen tip, unreviewed take one', 'Evergreen tip, unreviewed take two'] } });
    expect(start.statusCode, start.body).toBe(403);
    expect(start.json()).toMatchObject({ details: { reason: 'approval_required', profileId } });
    expect(start.json().error).toContain('recycling publishes copies');
    const byOwner = await api('PUT', `/v1/posts/${postId}`, owner.headers, { recycling: { gap: 1, gapFreq: 'month', expireCount: 2 } });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect((await api('PUT', `/v1/posts/${postId}`, member.write, { recycling: { gap: 1, gapFreq: 'month', expireCount: 2, enabled: false } })).statusCode).toBe(200);
    expect((await api('PUT', `/v1/posts/${postId}`, member.write, { recycling: null })).statusCode).toBe(200);
    expect((await api('GET', `/v1/posts/${postId}`, owner.headers)).json().post.recycling ?? null).toBeNull();
  });

  it('a member cannot edit a published post on the platform; the owner may (here Bluesky has no edit endpoint: 400 naming platform)', async () => {
    const postId = await approvedAndRun('Published after review');
    expect((await state(postId)).post).toBe('published');
    const byMember = await api('POST', `/v1/posts/${postId}/edit`, member.write, { platform: 'bluesky', content: 'Live change, unreviewed' });
    expect(byMember.statusCode, byMember.body).toBe(403);
    expect(byMember.json()).toMatchObject({ details: { reason: 'approval_required', profileId } });
    const byOwner = await api('POST', `/v1/posts/${postId}/edit`, owner.headers, { platform: 'bluesky', content: 'Live change' });
    expect(byOwner.statusCode, byOwner.body).toBe(400);
    expect(byOwner.json().details.fields.platform).toBeTruthy();
  });
});

describe('bulk upload', () => {
  it('a member\'s rows on an approval profile wait for approval, recorded, and the approvers are mailed', async () => {
    const csv = 'platforms,profiles,schedule_time,tz,post_content\r\n'
      + `bluesky,${profileId},2031-07-01T10:00:00Z,,Bulk row for review\r\n`
      + `bluesky,${plainProfile},2031-07-01T10:00:00Z,,Bulk row without review\r\n`;
    const mp = multipart('file', [{ filename: 'posts.csv', contentType: 'text/csv', data: Buffer.from(csv) }]);
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts/bulk-upload', headers: { ...member.write, 'content-type': mp.contentType }, payload: mp.payload });
    expect(res.statusCode, res.body).toBe(200);
    const [held, plain] = res.json().results.map((r: { createdPostId: string }) => r.createdPostId);
    expect((await state(held)).post).toBe('pending_approval');
    expect((await state(held)).targets).toEqual([{ status: 'draft', run_at: null }]);
    expect((await state(plain)).post).toBe('scheduled');
    expect((await api('GET', `/v1/posts/${held}/approval`, owner.headers)).json().approval.events.map((e: { kind: string }) => e.kind)).toEqual(['submitted']);
    expect((await mailWith(ownerEmail, 'Bulk row for review')).text).toContain('A post waits for your review');
  });
});

describe('comments', () => {
  it('internal notes mention team members (mail + post.commented) and never reach the client', async () => {
    const postId = (await memberPost('Commented post')).post._id as string;
    const res = await api('POST', `/v1/posts/${postId}/comments`, owner.headers, { body: 'Check the image, @Mia', mentions: [member.userId] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().comment).toMatchObject({ visibility: 'internal', mentions: [member.userId], author: { type: 'user', userId: owner.userId } });
    const mail = await mailWith(member.email, 'mentioned you');
    expect(mail.text).toContain('Check the image');
    expect((await events(postId, 'post.commented'))[0]).toMatchObject({ comment: { body: 'Check the image, @Mia' } });
    expect((await api('POST', `/v1/posts/${postId}/comments`, owner.headers, { body: 'x', mentions: [other.userId] })).statusCode).toBe(400);
    const list = (await api('GET', `/v1/posts/${postId}/comments`, member.write)).json().comments;
    expect(list).toHaveLength(1);
    // The client's link shows none of them.
    const link = (await api('POST', '/v1/review-links', owner.headers, { postId })).json();
    const view = (await ctx.app.inject({ method: 'GET', url: `/review-api/${link.token}` })).json();
    expect(view.posts[0].comments).toEqual([]);
    expect(JSON.stringify(view)).not.toContain('Check the image');
  });
});

describe('client review links', () => {
  it('the client sees the post per platform and approves it with no login; it then publishes', async () => {
    const postId = (await memberPost('For the client')).post._id as string;
    // A member who may not approve cannot make a link.
    expect((await api('POST', '/v1/review-links', member.write, { postId })).statusCode).toBe(403);
    const made = await api('POST', '/v1/review-links', owner.headers, { postId, label: 'March posts' });
    expect(made.statusCode, made.body).toBe(201);
    const { token, url, reviewLink } = made.json();
    expect(url).toBe(`${ctx.services.publicUrl}/review/${token}`);
    // Only the token's hash is stored.
    const { rows } = await ctx.db.query<{ token_hash: Buffer }>('SELECT token_hash FROM review_links WHERE id = $1', [reviewLink._id]);
    expect(rows[0].token_hash.toString('utf8')).not.toContain(token);
    expect(JSON.stringify((await api('GET', '/v1/review-links', owner.headers)).json())).not.toContain(token);

    const view = await ctx.app.inject({ method: 'GET', url: `/review-api/${token}` });
    expect(view.statusCode, view.body).toBe(200);
    const v = view.json();
    expect(v.link).toMatchObject({ kind: 'post', label: 'March posts', canApprove: true });
    expect(v.posts).toHaveLength(1);
    expect(v.posts[0]).toMatchObject({ _id: postId, content: 'For the client', review: { state: 'pending' } });
    expect(v.posts[0].platforms[0]).toMatchObject({ platform: 'bluesky', content: 'For the client', preview: { handle: 'username' } });
    // Nothing else of the tenant: no ids of users, accounts, tenant.
    expect(JSON.stringify(v)).not.toContain(owner.userId);
    expect(JSON.stringify(v)).not.toContain(accountId);

    const comment = await ctx.app.inject({ method: 'POST', url: `/review-api/${token}/posts/${postId}/comments`, payload: { name: 'Carla Client', body: 'Love it' } });
    expect(comment.statusCode, comment.body).toBe(201);
    const teamView = (await api('GET', `/v1/posts/${postId}/comments`, member.write)).json().comments;
    expect(teamView.at(-1)).toMatchObject({ visibility: 'client', body: 'Love it', author: { type: 'client', name: 'Carla Client' } });
    // The client's comment is a post.commented event too (the team's webhook hears it).
    expect((await events(postId, 'post.commented')).at(-1)).toMatchObject({ event: 'post.commented', comment: { visibility: 'client', body: 'Love it', author: { type: 'client', name: 'Carla Client', userId: null } } });

    const ok = await ctx.app.inject({ method: 'POST', url: `/review-api/${token}/posts/${postId}/approve`, payload: { name: 'Carla Client' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().post.review.state).toBe('approved');
    expect((await state(postId)).post).toBe('scheduled');
    const review = (await api('GET', `/v1/posts/${postId}/approval`, owner.headers)).json().approval;
    expect(review.events.at(-1)).toMatchObject({ kind: 'approved', actor: { type: 'client', name: 'Carla Client', userId: null } });
    expect(await runDue(ctx, worker, postId)).toBe(1);
    expect((await state(postId)).post).toBe('published');
  });

  it('a batch link shows the profile\'s posts in its range; the client requests changes', async () => {
    const a = (await memberPost('Batch one', { scheduledFor: '2031-05-05T10:00:00Z' })).post._id as string;
    const b = (await memberPost('Batch two', { scheduledFor: '2031-05-06T10:00:00Z' })).post._id as string;
    const outside = (await memberPost('Outside range', { scheduledFor: '2031-06-06T10:00:00Z' })).post._id as string;
    const made = await api('POST', '/v1/review-links', owner.headers, { profileId, from: '2031-05-04T00:00:00Z', to: '2031-05-11T00:00:00Z' });
    expect(made.statusCode, made.body).toBe(201);
    const { token } = made.json();
    const v = (await ctx.app.inject({ method: 'GET', url: `/review-api/${token}` })).json();
    expect(v.posts.map((p: { _id: string }) => p._id)).toEqual([a, b]);
    const back = await ctx.app.inject({ method: 'POST', url: `/review-api/${token}/posts/${b}/request-changes`, payload: { comment: 'Wrong date' } });
    expect(back.statusCode, back.body).toBe(200);
    expect((await state(b)).post).toBe('draft');
    // The post outside the range, and another tenant's post, are not found through it.
    expect((await ctx.app.inject({ method: 'POST', url: `/review-api/${token}/posts/${outside}/approve`, payload: {} })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: `/review-api/${token}/posts/${otherPostId}/approve`, payload: {} })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: `/review-api/${token}/posts/${otherPostId}/comments`, payload: { body: 'x' } })).statusCode).toBe(404);
    expect((await state(outside)).post).toBe('pending_approval');
  });

  it('a post link reads no other post; revoked, expired and unknown links answer 404', async () => {
    const p1 = (await memberPost('Link one')).post._id as string;
    const p2 = (await memberPost('Link two')).post._id as string;
    const { token, reviewLink } = (await api('POST', '/v1/review-links', owner.headers, { postId: p1 })).json();
    expect((await ctx.app.inject({ method: 'POST', url: `/review-api/${token}/posts/${p2}/approve`, payload: {} })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: `/review-api/${token}/posts/${p2}/comments`, payload: { body: 'hi' } })).statusCode).toBe(404);
    expect((await state(p2)).post).toBe('pending_approval');
    // Another tenant cannot revoke it; the owner can, and it stops at once.
    expect((await api('DELETE', `/v1/review-links/${reviewLink._id}`, other.headers)).statusCode).toBe(404);
    expect((await api('DELETE', `/v1/review-links/${reviewLink._id}`, owner.headers)).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `/review-api/${token}` })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: `/review-api/${token}/posts/${p1}/approve`, payload: {} })).statusCode).toBe(404);
    const fresh = (await api('POST', '/v1/review-links', owner.headers, { postId: p1 })).json();
    await ctx.db.query(`UPDATE review_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [fresh.reviewLink._id]);
    expect((await ctx.app.inject({ method: 'GET', url: `/review-api/${fresh.token}` })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: `/review-api/${'x'.repeat(43)}` })).statusCode).toBe(404);
    // A link for another tenant's post cannot be made.
    expect((await api('POST', '/v1/review-links', owner.headers, { postId: otherPostId })).statusCode).toBe(404);
  });

  it('a profile whose rule does not let the client approve gives no link', async () => {
    const own = await api('POST', '/v1/posts', owner.headers, { content: 'own', scheduledFor: '2031-03-04T10:00:00Z', platforms: [{ platform: 'bluesky', accountId: plainAccount }] });
    const res = await api('POST', '/v1/review-links', owner.headers, { postId: own.json().post._id });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toContain('client approval');
  });
});

describe('the public review API', () => {
  it('limits requests per client address (429 past the minute\'s budget)', async () => {
    let last = 0;
    for (let i = 0; i <= REVIEW_API_PER_MINUTE + 1 && last !== 429; i++) {
      last = (await ctx.app.inject({ method: 'GET', url: `/review-api/${'y'.repeat(43)}`, remoteAddress: '10.9.8.7' })).statusCode;
    }
    expect(last).toBe(429);
    // Another address is not held back.
    expect((await ctx.app.inject({ method: 'GET', url: `/review-api/${'y'.repeat(43)}`, remoteAddress: '10.9.8.6' })).statusCode).toBe(404);
  });
});
