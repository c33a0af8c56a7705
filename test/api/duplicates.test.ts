/**
 * Duplicate protection: the same content to the same account within 24 hours answers 409
 * DUPLICATE_CONTENT with the earlier post's id, unless the request sends allowDuplicate: true.
 * Exact under parallel requests (the claim is taken in the post's own INSERT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let tenant: Tenant;
let acc1: string;
let acc2: string;

beforeAll(async () => {
  ctx = await createTestApp();
  tenant = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  acc1 = await insertAccount(ctx, tenant, profileId);
  acc2 = await insertAccount(ctx, tenant, profileId);
});
afterAll(async () => { await ctx.close(); });

const create = (payload: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload });
const scheduled = (content: string, accounts: string[], extra: Record<string, unknown> = {}) => create({
  content, scheduledFor: '2030-01-01T00:00:00Z', platforms: accounts.map((accountId) => ({ platform: 'bluesky', accountId })), ...extra,
});

describe('duplicate protection', () => {
  it('refuses the same content to the same account with 409 naming the earlier post; allowDuplicate posts it anyway', async () => {
    const first = await scheduled('Launch day!', [acc1]);
    expect(first.statusCode).toBe(201);
    const firstId = first.json().post._id;
    const again = await scheduled('  Launch day!  ', [acc1]);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'DUPLICATE_CONTENT', details: { accountId: acc1, existingPostId: firstId } });
    expect((await scheduled('Launch day!', [acc1], { allowDuplicate: true })).statusCode).toBe(201);
    // Other account, other text, other media: not duplicates.
    expect((await scheduled('Launch day!', [acc2])).statusCode).toBe(201);
    expect((await scheduled('Launch day!!', [acc1])).statusCode).toBe(201);
    expect((await scheduled('Launch day!', [acc1], { mediaItems: [{ type: 'image', url: 'https://example.com/a.jpg' }] })).statusCode).not.toBe(409);
    // A thread with other items is other content.
    const thread = (items: string[]) => scheduled('Launch day!', [], { platforms: [{ platform: 'bluesky', accountId: acc1, platformSpecificData: { threadItems: items.map((content) => ({ content })) } }] });
    expect((await thread(['Launch day!', 'More soon'])).statusCode).toBe(201);
    expect((await thread(['Launch day!', 'More soon'])).statusCode).toBe(409);
    expect((await thread(['Launch day!', 'Even more soon'])).statusCode).toBe(201);
    // Drafts are not published, so they neither claim nor are refused.
    expect((await create({ content: 'Launch day!', isDraft: true, platforms: [{ platform: 'bluesky', accountId: acc1 }] })).statusCode).toBe(201);
  });

  it('compares what each account would publish (customContent), and a refused post saves nothing', async () => {
    expect((await scheduled('Shared text', [acc1])).statusCode).toBe(201);
    const res = await create({
      content: 'Shared text', scheduledFor: '2030-01-01T00:00:00Z',
      platforms: [{ platform: 'bluesky', accountId: acc2 }, { platform: 'bluesky', accountId: acc1 }],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().details.accountId).toBe(acc1);
    const { rows } = await ctx.db.query(`SELECT 1 FROM posts WHERE tenant_id = $1 AND content = 'Shared text'`, [tenant.userId]);
    expect(rows).toHaveLength(1);
    // acc2's claim went with the refused statement: acc2 can still post it.
    expect((await scheduled('Shared text', [acc2])).statusCode).toBe(201);
    const custom = await create({
      content: 'Shared text', scheduledFor: '2030-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: acc1, customContent: 'Shared text, reworded' }],
    });
    expect(custom.statusCode).toBe(201);
  });

  it('saves exactly one of 12 parallel identical requests; the others name it', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => scheduled('Parallel hello', [acc1, acc2])));
    const saved = results.filter((r) => r.statusCode === 201);
    expect(saved).toHaveLength(1);
    const id = saved[0].json().post._id;
    for (const r of results.filter((x) => x.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().details.existingPostId).toBe(id);
    }
  });

  it('frees the content when the earlier post is deleted or older than 24 hours', async () => {
    const first = (await scheduled('Deleted soon', [acc1])).json().post._id;
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/posts/${first}`, headers: tenant.headers })).statusCode).toBe(200);
    const second = await scheduled('Deleted soon', [acc1]);
    expect(second.statusCode).toBe(201);
    await ctx.db.query(`UPDATE post_content_claims SET claimed_at = now() - interval '25 hours' WHERE post_id = $1`, [second.json().post._id]);
    expect((await scheduled('Deleted soon', [acc1])).statusCode).toBe(201);
  });

  it('drops the claims of posts deleted several at once by one statement, and leaves no claim without its post', async () => {
    const ids = await Promise.all(['Gone A', 'Gone B', 'Gone C'].map(async (c) => (await scheduled(c, [acc1, acc2])).json().post._id as string));
    const claimsOf = async (postIds: string[]) =>
      (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM post_content_claims WHERE post_id = ANY($1::char(24)[])', [postIds])).rows[0].n;
    expect(await claimsOf(ids)).toBe(6);
    await ctx.db.query('DELETE FROM posts WHERE id = ANY($1::char(24)[])', [ids.slice(0, 2)]);
    expect(await claimsOf(ids)).toBe(2);
    expect((await scheduled('Gone A', [acc1, acc2])).statusCode).toBe(201);
    expect((await scheduled('Gone C', [acc1])).statusCode).toBe(409);

    const orphans = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM post_content_claims c WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = c.post_id)');
    expect(orphans.rows[0].n).toBe(0);
  });

  it('refuses a non-boolean allowDuplicate with 400 naming the field', async () => {
    const res = await scheduled('Typed flag', [acc1], { allowDuplicate: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().details.fields)).toContain('allowDuplicate');
  });
});
