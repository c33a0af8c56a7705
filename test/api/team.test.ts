/**
 * Team users (decision 0036): team invites (`POST /v1/invite/tokens`, hashed single-use tokens valid
 * 7 days), sign-up with an invite, member scoping (profiles, accounts, posts; no API keys),
 * `GET /v1/users`, removing a member and changing a member's scope, and open sign-up.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let owner: Tenant;
let brandA: string;
let brandB: string;
let accountA: string;
let accountB: string;
let n = 0;
const origin = { origin: 'http://localhost:80', host: 'localhost:80' };

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await createTenant(ctx);
  brandA = await createProfile(ctx, owner, 'Brand A');
  brandB = await createProfile(ctx, owner, 'Brand B');
  accountA = await insertAccount(ctx, owner, brandA, 'bluesky');
  accountB = await insertAccount(ctx, owner, brandB, 'bluesky');
});
afterAll(async () => { await ctx?.close(); });

async function invite(payload: unknown, headers = owner.headers) {
  return ctx.app.inject({ method: 'POST', url: '/v1/invite/tokens', headers, payload: payload as object });
}

async function signUp(payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload });
}

/** A signed-in member's request headers (session cookie + CSRF token). */
async function memberSession(scope: 'all' | 'profiles', profileIds?: string[]) {
  const tok = (await invite({ scope, profileIds })).json().token as string;
  const email = `member${Date.now()}${n++}@example.test`;
  const res = await signUp({ inviteToken: tok, name: 'Mia Member', email, password: 'member password 1' });
  expect(res.statusCode).toBe(201);
  const cookie = String(res.headers['set-cookie']).split(';')[0];
  const body = res.json();
  return { userId: body.user._id as string, email, get: { cookie }, write: { cookie, 'x-csrf-token': body.csrfToken as string, ...origin } };
}

describe('POST /v1/invite/tokens', () => {
  it('returns a single-use token valid 7 days, its sign-up URL, and stores only its hash', async () => {
    const before = Date.now();
    const res = await invite({ scope: 'profiles', profileIds: [brandA] });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ scope: 'profiles', invitedProfileIds: [brandA] });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.inviteUrl).toBe(`${ctx.services.publicUrl}/signup?inviteToken=${body.token}`);
    const ttl = Date.parse(body.expiresAt) - before;
    expect(ttl).toBeGreaterThanOrEqual(7 * 86_400_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);
    const { rows } = await ctx.db.query<{ token_hash: Buffer }>('SELECT token_hash FROM team_invites WHERE tenant_id = $1', [owner.userId]);
    expect(rows.some((r) => r.token_hash.equals(createHash('sha256').update(body.token).digest()))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(body.token);
  });

  it('scope all needs no profiles; scope profiles requires profileIds; another tenant\'s profile is 404', async () => {
    const all = await invite({ scope: 'all' });
    expect(all.statusCode).toBe(201);
    expect(all.json()).toMatchObject({ scope: 'all', invitedProfileIds: [] });

    const missing = await invite({ scope: 'profiles' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.fields.profileIds[0]).toMatch(/required/);
    const empty = await invite({ scope: 'profiles', profileIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(await invite({ scope: 'everyone' }).then((r) => r.statusCode)).toBe(400);
    // Roles Herald does not have are refused, not ignored.
    const viewer = await invite({ scope: 'all', role: 'viewer' });
    expect(viewer.statusCode).toBe(400);
    expect(viewer.json().details.fields.role).toBeDefined();
    expect((await invite({ scope: 'all', readOnly: true })).json().details.fields.readOnly).toBeDefined();
    expect((await invite({ scope: 'all', role: 'member' })).statusCode).toBe(201);

    const other = await createTenant(ctx);
    const foreign = await createProfile(ctx, other);
    const res = await invite({ scope: 'profiles', profileIds: [brandA, foreign] });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('lists pending invites (no tokens) and revokes one', async () => {
    const made = (await invite({ scope: 'all' })).json();
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/invite/tokens', headers: owner.headers });
    expect(list.statusCode).toBe(200);
    expect(JSON.stringify(list.json())).not.toContain(made.token);
    const mine = list.json().invites.find((i: { expiresAt: string }) => i.expiresAt === made.expiresAt);
    expect(mine).toBeDefined();
    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/invite/tokens/${mine._id}`, headers: owner.headers });
    expect(del.statusCode).toBe(200);
    const page = await ctx.app.inject({ method: 'GET', url: `/auth/invite?token=${made.token}` });
    expect(page.statusCode).toBe(404);
  });
});

describe('signing up with an invite', () => {
  it('shows who invites to which profiles, then joins the team and signs in', async () => {
    const tok = (await invite({ scope: 'profiles', profileIds: [brandA] })).json().token;
    const page = await ctx.app.inject({ method: 'GET', url: `/auth/invite?token=${tok}` });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ scope: 'profiles', profiles: [{ _id: brandA, name: 'Brand A' }] });

    const res = await signUp({ inviteToken: tok, name: 'Sam', email: `sam${Date.now()}@example.test`, password: 'sam password 1' });
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ name: 'Sam', isRoot: false, role: 'member', profileAccess: 'profiles' });
    expect(String(res.headers['set-cookie'])).toMatch(/^herald_session=/);
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    const profiles = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: { cookie } });
    expect(profiles.json().profiles.map((p: { _id: string }) => p._id)).toEqual([brandA]);
  });

  it('a used, an expired and an unknown token each get a clear answer, and nothing is created', async () => {
    const tok = (await invite({ scope: 'all' })).json().token;
    expect((await signUp({ inviteToken: tok, name: 'One', email: `one${Date.now()}@example.test`, password: 'password one' })).statusCode).toBe(201);
    const again = await signUp({ inviteToken: tok, name: 'Two', email: `two${Date.now()}@example.test`, password: 'password two' });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'GONE', details: { reason: 'used' } });
    expect((await ctx.app.inject({ method: 'GET', url: `/auth/invite?token=${tok}` })).json().details.reason).toBe('used');

    const old = (await invite({ scope: 'all' })).json().token;
    await ctx.db.query("UPDATE team_invites SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [createHash('sha256').update(old).digest()]);
    const expired = await signUp({ inviteToken: old, name: 'Late', email: `late${Date.now()}@example.test`, password: 'password late' });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().details.reason).toBe('expired');
    expect(expired.json().error).toMatch(/expired/);

    const unknown = await signUp({ inviteToken: 'no-such-token', name: 'X', email: `x${Date.now()}@example.test`, password: 'password xx' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().details.reason).toBe('unknown');
    const { rows } = await ctx.db.query("SELECT 1 FROM users WHERE email LIKE 'late%' OR email LIKE 'two%' OR email LIKE 'x1%'");
    expect(rows).toHaveLength(0);
  });

  it('refuses a taken email and a short password with 400 naming the field, leaving the invite usable', async () => {
    const tok = (await invite({ scope: 'all' })).json().token;
    const ownerEmail = (await ctx.app.inject({ method: 'GET', url: `/v1/users/${owner.userId}`, headers: owner.headers })).json().user.email;
    const taken = await signUp({ inviteToken: tok, name: 'Dup', email: ownerEmail, password: 'long enough' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().details.fields.email).toBeDefined();
    const short = await signUp({ inviteToken: tok, name: 'Dup', email: `s${Date.now()}@example.test`, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: `/auth/invite?token=${tok}` })).statusCode).toBe(200);
  });
});

describe('members', () => {
  it('see and act on only their profiles and accounts; their posts record createdBy', async () => {
    const m = await memberSession('profiles', [brandA]);
    const accounts = await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: m.get });
    expect(accounts.json().accounts.map((a: { _id: string }) => a._id)).toEqual([accountA]);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/profiles/${brandB}`, headers: m.get })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'PUT', url: `/v1/profiles/${brandB}`, headers: m.write, payload: { name: 'Mine now' } })).statusCode).toBe(404);

    const other = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: m.write, payload: { content: 'hi', platforms: [{ platform: 'bluesky', accountId: accountB }], isDraft: true } });
    expect(other.statusCode).toBe(400);
    expect(other.json().details.fields['platforms.0.accountId']).toBeDefined();

    const ok = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: m.write, payload: { content: 'hi from a member', platforms: [{ platform: 'bluesky', accountId: accountA }], isDraft: true } });
    expect(ok.statusCode).toBe(201);
    const postId = ok.json().post._id;
    const { rows } = await ctx.db.query<{ created_by: string }>('SELECT created_by FROM posts WHERE id = $1', [postId]);
    expect(rows[0].created_by).toBe(m.userId);
    const byMember = await ctx.app.inject({ method: 'GET', url: `/v1/posts?createdBy=${m.userId}`, headers: owner.headers });
    expect(byMember.json().posts.map((p: { _id: string }) => p._id)).toEqual([postId]);

    // The owner's post to brand B stays invisible to the member.
    const ownerPost = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: owner.headers, payload: { content: 'owner only', platforms: [{ platform: 'bluesky', accountId: accountB }], isDraft: true } });
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/posts?limit=100', headers: m.get });
    expect(list.json().posts.map((p: { _id: string }) => p._id)).not.toContain(ownerPost.json().post._id);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/posts/${ownerPost.json().post._id}`, headers: m.get })).statusCode).toBe(404);
  });

  it('cannot list, create or revoke API keys, invite, or manage the team', async () => {
    const m = await memberSession('all');
    for (const r of [
      await ctx.app.inject({ method: 'GET', url: '/v1/api-keys', headers: m.get }),
      await ctx.app.inject({ method: 'POST', url: '/v1/api-keys', headers: m.write, payload: { name: 'sneaky' } }),
      await ctx.app.inject({ method: 'DELETE', url: `/v1/api-keys/${'a'.repeat(24)}`, headers: m.write }),
      await invite({ scope: 'all' }, m.write as never),
      await ctx.app.inject({ method: 'GET', url: '/v1/invite/tokens', headers: m.get }),
      await ctx.app.inject({ method: 'DELETE', url: `/v1/users/${owner.userId}`, headers: m.write }),
      await ctx.app.inject({ method: 'PUT', url: `/v1/users/${m.userId}`, headers: m.write, payload: { scope: 'all' } }),
    ]) {
      expect(r.statusCode, r.body).toBe(403);
    }
    const { rows } = await ctx.db.query('SELECT 1 FROM api_keys WHERE user_id = $1', [m.userId]);
    expect(rows).toHaveLength(0);
  });

  it('GET /v1/users lists the root user and members with role, profileAccess, createdAt, lastLoginAt', async () => {
    const m = await memberSession('profiles', [brandA]);
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/users', headers: owner.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.currentUserId).toBe(owner.userId);
    const root = body.users.find((u: { _id: string }) => u._id === owner.userId);
    expect(root).toMatchObject({ isRoot: true, role: 'owner', profileAccess: ['all'] });
    const member = body.users.find((u: { _id: string }) => u._id === m.userId);
    expect(member).toMatchObject({ isRoot: false, role: 'member', profileAccess: [brandA], name: 'Mia Member', email: m.email });
    expect(Date.parse(member.lastLoginAt)).not.toBeNaN();
    expect(JSON.stringify(body)).not.toMatch(/password/i);
    const one = await ctx.app.inject({ method: 'GET', url: `/v1/users/${m.userId}`, headers: m.get });
    expect(one.json().user).toMatchObject({ _id: m.userId, profileAccess: [brandA] });
  });

  it('the owner changes a member\'s scope (effective on the next request) and removes a member (sessions end at once)', async () => {
    const m = await memberSession('profiles', [brandA]);
    const put = await ctx.app.inject({ method: 'PUT', url: `/v1/users/${m.userId}`, headers: owner.headers, payload: { scope: 'profiles', profileIds: [brandB] } });
    expect(put.statusCode).toBe(200);
    expect(put.json().user.profileAccess).toEqual([brandB]);
    const seen = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: m.get });
    expect(seen.json().profiles.map((p: { _id: string }) => p._id)).toEqual([brandB]);

    const badScope = await ctx.app.inject({ method: 'PUT', url: `/v1/users/${m.userId}`, headers: owner.headers, payload: { scope: 'profiles' } });
    expect(badScope.statusCode).toBe(400);
    const rootScope = await ctx.app.inject({ method: 'PUT', url: `/v1/users/${owner.userId}`, headers: owner.headers, payload: { scope: 'profiles', profileIds: [brandA] } });
    expect(rootScope.statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/users/${owner.userId}`, headers: owner.headers })).statusCode).toBe(400);

    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/users/${m.userId}`, headers: owner.headers });
    expect(del.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: m.get })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/users/${m.userId}`, headers: owner.headers })).statusCode).toBe(404);
  });

  it('another tenant\'s users and invites answer 404', async () => {
    const m = await memberSession('all');
    const other = await createTenant(ctx);
    for (const r of [
      await ctx.app.inject({ method: 'GET', url: `/v1/users/${m.userId}`, headers: other.headers }),
      await ctx.app.inject({ method: 'PUT', url: `/v1/users/${m.userId}`, headers: other.headers, payload: { scope: 'all' } }),
      await ctx.app.inject({ method: 'DELETE', url: `/v1/users/${m.userId}`, headers: other.headers }),
    ]) expect(r.statusCode).toBe(404);
    const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM team_invites WHERE tenant_id = $1 AND used_at IS NULL LIMIT 1', [owner.userId]);
    if (rows[0]) expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/invite/tokens/${rows[0].id}`, headers: other.headers })).statusCode).toBe(404);
  });
});

describe('open sign-up', () => {
  it('is closed by default (403) and, when open, creates a Free account with a default profile', async () => {
    const closed = await signUp({ name: 'New', email: `new${Date.now()}@example.test`, password: 'new password 1' });
    expect(closed.statusCode).toBe(403);
    expect(closed.json().details.reason).toBe('signup_closed');

    const open = await createTestApp({ env: { HERALD_SIGNUP: 'open' } });
    try {
      const res = await open.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload: { name: 'New Owner', email: `new${Date.now()}@example.test`, password: 'new password 1' } });
      expect(res.statusCode).toBe(201);
      expect(res.json().user).toMatchObject({ isRoot: true, role: 'owner' });
      const cookie = String(res.headers['set-cookie']).split(';')[0];
      const usage = await open.app.inject({ method: 'GET', url: '/v1/usage-stats', headers: { cookie } });
      expect(usage.json()).toMatchObject({ planName: 'Free', limits: { uploads: 10, profiles: 2 }, usage: { profiles: 1 } });
      const profiles = await open.app.inject({ method: 'GET', url: '/v1/profiles', headers: { cookie } });
      expect(profiles.json().profiles).toMatchObject([{ name: 'Default', isDefault: true }]);
      const cross = await open.app.inject({ method: 'POST', url: '/auth/signup', headers: { origin: 'https://evil.example', host: 'localhost:80' }, payload: { name: 'X', email: `x${Date.now()}@example.test`, password: 'new password 1' } });
      expect(cross.statusCode).toBe(403);
    } finally {
      await open.close();
    }
  });
});
