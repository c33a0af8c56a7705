/**
 * Mentions parsed from `@name` in internal comments (decision 0064): a team member named in the
 * text by their name or email is told by mail and in the post.commented event, as one in the
 * `mentions` list is; a name two members share, a name of another tenant's user and an unknown
 * name mention nobody; the author is never mailed about their own mention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { startLocalSmtp, type LocalSmtp } from '../support/smtp.ts';

let ctx: TestContext;
let smtp: LocalSmtp;
let owner: Tenant;
let other: Tenant;
let accountId: string;
const origin = { origin: 'http://localhost:80', host: 'localhost:80' };
const stamp = Date.now();
let ana: { userId: string; email: string };
let bruno: { userId: string; email: string };

async function join(tenant: Tenant, name: string, email: string) {
  const tok = (await ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers: tenant.headers, payload: { scope: 'all' } })).json().token as string;
  const res = await ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload: { inviteToken: tok, name, email, password: 'member password 1' } });
  expect(res.statusCode, res.body).toBe(201);
  return { userId: res.json().user._id as string, email };
}

async function mailWith(to: string, text: string) {
  for (let i = 0; i < 200; i++) {
    const m = smtp.mails.find((x) => x.to.includes(to.toLowerCase()) && x.text.includes(text));
    if (m) return m;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} containing ${text}`);
}

beforeAll(async () => {
  smtp = await startLocalSmtp();
  ctx = await createTestApp({ env: { ...smtp.env, HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' } });
  owner = await createTenant(ctx, { email: `owner-m${stamp}@example.test` });
  other = await createTenant(ctx);
  const profileId = await createProfile(ctx, owner);
  accountId = await insertAccount(ctx, owner, profileId);
  ana = await join(owner, 'Ana Lima', `ana.lima${stamp}@example.test`);
  bruno = await join(owner, 'Bruno Costa', `bruno${stamp}@example.test`);
  await join(owner, 'Ana Souza', `asouza${stamp}@example.test`);
  await join(other, 'Zoe Other', `zoe${stamp}@example.test`);
  const hook = await ctx.app.inject({ method: 'POST', url: '/v1/webhooks/settings', headers: owner.headers, payload: { name: 'm', url: 'http://127.0.0.1:9/hook', events: ['post.commented'] } });
  expect(hook.statusCode, hook.body).toBe(200);
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

async function newPost() {
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: owner.headers, payload: { content: `Mentions ${Math.random()}`, isDraft: true, platforms: [{ platform: 'bluesky', accountId }] } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post._id as string;
}

describe('@mentions in internal comments', () => {
  it('mentions the members the text names (full name, email), mails them and puts them in post.commented', async () => {
    const postId = await newPost();
    const res = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/comments`, headers: owner.headers,
      payload: { body: `@Ana Lima can you check the photo? cc @${bruno.email}.` } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().comment.mentions).toEqual([ana.userId, bruno.userId]);
    expect((await mailWith(ana.email, 'mentioned you')).text).toContain('can you check the photo');
    await mailWith(bruno.email, 'mentioned you');
    const { rows } = await ctx.db.query<{ payload: { comment: { mentions: string[] } } }>(
      `SELECT payload FROM webhook_deliveries WHERE event = 'post.commented' AND payload->'post'->>'id' = $1`, [postId]);
    expect(rows[0].payload.comment.mentions).toEqual([ana.userId, bruno.userId]);
  });

  it('adds the parsed members to the mentions list without repeats, and never mails the author', async () => {
    const postId = await newPost();
    const before = smtp.mails.length;
    const res = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/comments`, headers: owner.headers,
      payload: { body: `@bruno and @Bruno Costa, note to self @owner-m${stamp}`, mentions: [bruno.userId] } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().comment.mentions).toEqual([bruno.userId, owner.userId]);
    await mailWith(bruno.email, 'note to self');
    expect(smtp.mails.slice(before).some((m) => m.to.includes(`owner-m${stamp}@example.test`))).toBe(false);
  });

  it('a shared first name, another tenant\'s user, an unknown name and an email in the text mention nobody', async () => {
    const postId = await newPost();
    const res = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/comments`, headers: owner.headers,
      payload: { body: `@Ana please, @Zoe Other, @nobody, write to ana.lima${stamp}@example.test` } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().comment.mentions).toEqual([]);
  });

  it('a mentions id outside the team is a 400 naming mentions, and nothing is stored', async () => {
    const postId = await newPost();
    const res = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/comments`, headers: owner.headers, payload: { body: '@Ana Lima', mentions: [other.userId] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields).toHaveProperty('mentions');
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}/comments`, headers: owner.headers })).json().comments).toEqual([]);
  });
});
