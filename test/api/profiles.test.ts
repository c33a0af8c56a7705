import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestApp, insertAccount, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx.close(); });

describe('profiles', () => {
  it('creates, lists, reads, updates and deletes; the first profile is the default', async () => {
    const t = await createTenant(ctx);
    const a = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: t.headers, payload: { name: 'Acme', description: 'Client A', color: '#112233' } });
    expect(a.statusCode).toBe(201);
    const pa = a.json().profile;
    expect(pa).toMatchObject({ name: 'Acme', description: 'Client A', color: '#112233', isDefault: true, userId: t.userId });
    expect(pa._id).toMatch(/^[0-9a-f]{24}$/);
    const b = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: t.headers, payload: { name: 'Beta' } });
    expect(b.json().profile.isDefault).toBe(false);

    const list = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers });
    expect(list.json().profiles.map((p: { name: string }) => p.name)).toEqual(['Acme', 'Beta']);

    const one = await ctx.app.inject({ method: 'GET', url: `/v1/profiles/${pa._id}`, headers: t.headers });
    expect(one.json().profile.name).toBe('Acme');

    const upd = await ctx.app.inject({ method: 'PUT', url: `/v1/profiles/${b.json().profile._id}`, headers: t.headers, payload: { name: 'Beta 2', isDefault: true, color: '#abcdef' } });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().profile).toMatchObject({ name: 'Beta 2', isDefault: true, color: '#abcdef' });
    const again = await ctx.app.inject({ method: 'GET', url: `/v1/profiles/${pa._id}`, headers: t.headers });
    expect(again.json().profile.isDefault).toBe(false);

    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/profiles/${pa._id}`, headers: t.headers });
    expect(del.statusCode).toBe(200);
    const gone = await ctx.app.inject({ method: 'GET', url: `/v1/profiles/${pa._id}`, headers: t.headers });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a duplicate name (case-insensitive) and invalid data with field errors', async () => {
    const t = await createTenant(ctx);
    await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: t.headers, payload: { name: 'Same' } });
    const dup = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: t.headers, payload: { name: 'same' } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().details.fields.name[0]).toMatch(/unique/);
    const bad = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: t.headers, payload: { name: '', color: 'red' } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().details.fields).sort()).toEqual(['color', 'name']);
    const notJson = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: { ...t.headers, 'content-type': 'application/json' }, payload: '{"name":' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe('BAD_REQUEST');
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/profiles', headers: t.headers });
    expect(list.json().profiles).toHaveLength(1);
  });

  it('answers 403 with the profile-limit body of decision 0003 at the plan limit (free: 2 profiles)', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    for (const name of ['One', 'Two']) {
      expect((await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: t.headers, payload: { name } })).statusCode).toBe(201);
    }
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: t.headers, payload: { name: 'Three' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      error: 'Profile limit reached. Your Free plan allows 2 profiles. You currently have 2.',
      planName: 'Free', limit: 2, current: 2,
      details: { resource: 'profiles', plan: 'free', currentUsage: 2, limit: 2, window: 'total' },
    });
  });

  it('enforces the limit under concurrent creates', async () => {
    const t = await createTenant(ctx, { plan: 'free' });
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) =>
      ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: t.headers, payload: { name } })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
    expect(results.filter((r) => r.statusCode === 403)).toHaveLength(3);
  });

  it('refuses to delete a profile with connected accounts', async () => {
    const t = await createTenant(ctx);
    const p = (await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: t.headers, payload: { name: 'With account' } })).json().profile;
    await insertAccount(ctx, t, p._id);
    const res = await ctx.app.inject({ method: 'DELETE', url: `/v1/profiles/${p._id}`, headers: t.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/connected account/);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/profiles/${p._id}`, headers: t.headers })).statusCode).toBe(200);
  });
});
