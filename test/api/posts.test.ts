import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

let ctx: TestContext;
let adapter: ScriptedAdapter;
beforeAll(async () => {
  adapter = new ScriptedAdapter();
  ctx = await createTestApp({ deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: adapter }) } });
});
afterAll(async () => { await ctx.close(); });

async function setup(plan: 'free' | 'advanced' = 'advanced') {
  const t = await createTenant(ctx, { plan });
  const profileId = await createProfile(ctx, t);
  const accountId = await insertAccount(ctx, t, profileId, 'bluesky');
  return { t, profileId, accountId };
}

const post = (t: Tenant, payload: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: { ...t.headers, ...headers }, payload: payload as object });

describe('POST /v1/posts: scheduling and time zones', () => {
  it('accepts local time with an IANA zone and returns the UTC instant', async () => {
    const { t, accountId } = await setup();
    const res = await post(t, { content: 'hello', scheduledFor: '2031-06-15T09:30', timezone: 'Europe/Paris', platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.statusCode).toBe(201);
    expect(res.json().post).toMatchObject({ status: 'scheduled', scheduledFor: '2031-06-15T07:30:00.000Z', timezone: 'Europe/Paris' });
    expect(res.json().post.platforms[0]).toMatchObject({ status: 'pending', platform: 'bluesky', accountId: { _id: accountId } });
  });

  it('accepts ISO UTC ending in Z with the timezone omitted (UTC)', async () => {
    const { t, accountId } = await setup();
    const res = await post(t, { content: 'hello', scheduledFor: '2031-06-15T09:30:00Z', platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.json().post).toMatchObject({ scheduledFor: '2031-06-15T09:30:00.000Z', timezone: 'UTC' });
  });

  it('accepts a Z time with a non-UTC timezone (the documented queue example) as UTC, keeps the zone and warns; UTC or no zone gives no warning', async () => {
    const { t, accountId } = await setup();
    const res = await post(t, { content: 'z with zone', scheduledFor: '2031-01-15T19:00:00Z', timezone: 'America/New_York', platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().post).toMatchObject({ scheduledFor: '2031-01-15T19:00:00.000Z', timezone: 'America/New_York' });
    expect(res.json().warnings).toEqual([expect.stringMatching(/scheduledFor ends in "Z".*timezone "America\/New_York".*display only/)]);
    for (const timezone of ['UTC', 'Etc/UTC', undefined]) {
      const plain = await post(t, { content: `z ${timezone}`, scheduledFor: '2031-01-15T19:00:00Z', ...(timezone ? { timezone } : {}), platforms: [{ platform: 'bluesky', accountId }] });
      expect(plain.statusCode).toBe(201);
      expect(plain.json().warnings, String(timezone)).toBeUndefined();
    }
    const edited = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${res.json().post._id}`, headers: t.headers, payload: { scheduledFor: '2031-01-16T19:00:00Z', timezone: 'Europe/Paris' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().post).toMatchObject({ scheduledFor: '2031-01-16T19:00:00.000Z', timezone: 'Europe/Paris' });
    expect(edited.json().warnings).toEqual([expect.stringMatching(/timezone "Europe\/Paris" does not change it/)]);
  });

  it('resolves a DST gap forward and a DST overlap to the earlier instant', async () => {
    const { t, accountId } = await setup();
    // 2031-03-09 02:30 does not exist in New York (clocks jump 02:00 -> 03:00 EDT): 03:30 EDT = 07:30Z.
    const gap = await post(t, { content: 'gap', scheduledFor: '2031-03-09T02:30', timezone: 'America/New_York', platforms: [{ platform: 'bluesky', accountId }] });
    expect(gap.json().post.scheduledFor).toBe('2031-03-09T07:30:00.000Z');
    // 2031-11-02 01:30 happens twice (EDT then EST): the earlier one is 01:30 EDT = 05:30Z.
    const overlap = await post(t, { content: 'overlap', scheduledFor: '2031-11-02T01:30', timezone: 'America/New_York', platforms: [{ platform: 'bluesky', accountId }] });
    expect(overlap.json().post.scheduledFor).toBe('2031-11-02T05:30:00.000Z');
  });

  it('refuses other forms and unknown zones, naming the field', async () => {
    const { t, accountId } = await setup();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ scheduledFor: '2031-06-15 09:30' }, 'scheduledFor'],
      [{ scheduledFor: '2031-06-15T09:30+02:00' }, 'scheduledFor'],
      [{ scheduledFor: '2031-02-30T09:30', timezone: 'UTC' }, 'scheduledFor'],
      [{ scheduledFor: '2031-06-15T09:30', timezone: 'Mars/Olympus' }, 'timezone'],
    ];
    for (const [extra, field] of cases) {
      const res = await post(t, { content: 'x', platforms: [{ platform: 'bluesky', accountId }], ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(Object.keys(res.json().details.fields)).toContain(field);
    }
    const list = await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: t.headers });
    expect(list.json().pagination.total).toBe(0);
  });
});

describe('POST /v1/posts: content rules', () => {
  it('deduplicates tags and drops those over 100 characters and past 500 in total, with a warning', async () => {
    const { t, accountId } = await setup();
    const ok = await post(t, { content: 'x', isDraft: true, tags: ['News', 'news', 'launch', 'News'], platforms: [{ platform: 'bluesky', accountId }] });
    expect(ok.json().post.tags).toEqual(['News', 'launch']);
    expect(ok.json().warnings ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/^tags/)]));
    const long = await post(t, { content: 'x', isDraft: true, tags: ['ok', 'a'.repeat(101)] });
    expect(long.statusCode).toBe(201);
    expect(long.json().post.tags).toEqual(['ok']);
    expect(long.json().warnings).toContainEqual(expect.stringMatching(/^tags: dropped 1 tag\(s\) over 100 characters: "a{20}…"$/));
    const total = await post(t, { content: 'x', scheduledFor: '2031-06-15T09:30:00Z', tags: Array.from({ length: 6 }, (_, i) => `${i}`.repeat(90)), platforms: [{ platform: 'bluesky', accountId }] });
    expect(total.statusCode, total.body).toBe(201);
    expect(total.json().post.tags).toEqual(Array.from({ length: 5 }, (_, i) => `${i}`.repeat(90)));
    expect(total.json().warnings).toEqual([expect.stringMatching(/^tags: dropped 1 tag\(s\) past the 500-character total: "5{20}…"$/)]);
    const edited = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${ok.json().post._id}`, headers: t.headers, payload: { tags: ['fine', 'b'.repeat(120)] } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().post.tags).toEqual(['fine']);
    expect(edited.json().warnings).toEqual([expect.stringMatching(/over 100 characters/)]);
  });

  it('YouTube: platformSpecificData.tags over the limits are dropped, not refused, and the warning names them and what YouTube\'s own count leaves out', async () => {
    const { t, profileId } = await setup();
    const yt = await insertAccount(ctx, t, profileId, 'youtube');
    const hundred = (c: string) => c.repeat(100);
    const res = await post(t, {
      content: 'A video', scheduledFor: '2031-06-15T09:30:00Z', mediaItems: [{ url: 'https://cdn.example.com/clip.mp4' }],
      platforms: [{ platform: 'youtube', accountId: yt, platformSpecificData: { tags: [...['a', 'b', 'c', 'd', 'e', 'A'].map(hundred), 'y'.repeat(101), hundred('f')] } }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const kept = ['a', 'b', 'c', 'd', 'e'].map(hundred);
    expect(res.json().post.platforms[0].platformSpecificData.tags).toEqual(kept);
    expect(res.json().warnings).toEqual([
      expect.stringMatching(/^platforms\.0\.platformSpecificData\.tags: dropped 1 tag\(s\) over 100 characters/),
      expect.stringMatching(/^platforms\.0\.platformSpecificData\.tags: dropped 1 tag\(s\) past the 500-character total: "f{20}…"/),
      expect.stringMatching(/^platforms\.0\.platformSpecificData\.tags: YouTube counts .* the last 1 tag\(s\) are not sent to YouTube: "e{100}"$/),
    ]);
  });

  it('refuses a Bluesky text over 300 graphemes before anything is stored, naming the rule', async () => {
    const { t, accountId } = await setup();
    const res = await post(t, { content: 'é'.repeat(301), publishNow: true, platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.content.join(' ')).toMatch(/300 graphemes/);
    const custom = await post(t, { content: 'short', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId, customContent: '👍'.repeat(301) }] });
    expect(Object.keys(custom.json().details.fields)).toEqual(['platforms.0.customContent']);
    // 300 emoji graphemes are fine
    const fine = await post(t, { content: '👍'.repeat(300), scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] });
    expect(fine.statusCode).toBe(201);
    expect(adapter.commits.filter((c) => c.accountId === accountId)).toHaveLength(0);
  });

  it('allows media only on the first thread item', async () => {
    const { t, accountId } = await setup();
    const res = await post(t, {
      content: 'thread', scheduledFor: '2031-01-01T00:00:00Z',
      platforms: [{ platform: 'bluesky', accountId, platformSpecificData: { threadItems: [
        { content: 'one', mediaItems: [{ type: 'image', url: 'https://example.com/a.png' }] },
        { content: 'two', mediaItems: [{ type: 'image', url: 'https://example.com/b.png' }] },
      ] } }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields['platforms.0.platformSpecificData.threadItems.1.mediaItems'][0]).toMatch(/first thread item/);
  });

  it('targets all active accounts when platforms is omitted; ignores top-level platformSpecificData and profileId', async () => {
    const { t, profileId, accountId } = await setup();
    const second = await insertAccount(ctx, t, await createProfile(ctx, t), 'bluesky');
    await insertAccount(ctx, t, profileId, 'bluesky', { isActive: false });
    const res = await post(t, { content: 'to all', scheduledFor: '2031-01-01T00:00:00Z', profileId: '000000000000000000000000', platformSpecificData: { threadItems: 'not even valid' } });
    expect(res.statusCode).toBe(201);
    const ids = res.json().post.platforms.map((p: { accountId: { _id: string } }) => p.accountId._id).sort();
    expect(ids).toEqual([accountId, second].sort());
  });

  it('rejects accounts of another tenant and mismatched platforms', async () => {
    const { t } = await setup();
    const other = await setup();
    const res = await post(t, { content: 'x', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId: other.accountId }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields['platforms.0.accountId']).toBeTruthy();
    const own = (await ctx.db.query<{ id: string }>('SELECT id FROM accounts WHERE tenant_id = $1', [t.userId])).rows[0].id;
    const mismatch = await post(t, { content: 'x', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'twitter', accountId: own }] });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().details.fields['platforms.0.platform'][0]).toMatch(/bluesky/);
  });

  it('saves a draft without platforms and without counting usage', async () => {
    const { t } = await setup('free');
    const res = await post(t, { content: 'idea', isDraft: true });
    expect(res.statusCode).toBe(201);
    expect(res.json().post).toMatchObject({ status: 'draft', isDraft: true, platforms: [] });
    const usage = await ctx.app.inject({ method: 'GET', url: '/v1/usage-stats', headers: t.headers });
    expect(usage.json().usage.uploads).toBe(0);
  });
});

describe('POST /v1/posts: hashtags and mentions', () => {
  it('stores them as sent without duplicates, returns them, adds the missing ones to the text, and updates them', async () => {
    const { t, accountId } = await setup();
    const res = await post(t, {
      content: 'Ship it #Herald', publishNow: true, platforms: [{ platform: 'bluesky', accountId }],
      hashtags: ['#herald', 'release_2', ' Release_2 ', '#'], mentions: ['bob.test', '@Carol.test', 'carol.test'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().post).toMatchObject({ hashtags: ['#herald', 'release_2'], mentions: ['bob.test', '@Carol.test'] });
    // #herald is already in the text (any case): only the missing ones are added, after a blank line.
    expect(adapter.commits.filter((c) => c.accountId === accountId).map((c) => c.text)).toEqual(['Ship it #Herald\n\n#release_2 @bob.test @Carol.test']);
    const id = res.json().post._id;
    const got = await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: t.headers });
    expect(got.json().post).toMatchObject({ hashtags: ['#herald', 'release_2'], mentions: ['bob.test', '@Carol.test'] });

    const draft = await post(t, { content: 'later', isDraft: true, hashtags: ['a'] });
    expect(draft.json().post).toMatchObject({ hashtags: ['a'], mentions: [] });
    const edited = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${draft.json().post._id}`, headers: t.headers, payload: { hashtags: ['b', 'c'], mentions: ['d.test'] } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().post).toMatchObject({ hashtags: ['b', 'c'], mentions: ['d.test'] });
  });

  it('counts the added text against the platform limit and refuses malformed ones, naming the field', async () => {
    const { t, accountId } = await setup();
    const long = await post(t, { content: 'x'.repeat(295), scheduledFor: '2031-06-15T09:30:00Z', hashtags: ['toolong'], platforms: [{ platform: 'bluesky', accountId }] });
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content[0]).toMatch(/300/);
    const bad = await post(t, { content: 'x', scheduledFor: '2031-06-15T09:30:00Z', hashtags: ['two words'], mentions: ['a@b', 'ok'], platforms: [{ platform: 'bluesky', accountId }] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().details.fields).sort()).toEqual(['hashtags.0', 'mentions.0']);
  });
});

describe('publishing inline (publishNow)', () => {
  it('answers 201 when every target publishes and records platform ids and URLs', async () => {
    const { t, accountId } = await setup();
    const res = await post(t, { content: 'now!', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.statusCode).toBe(201);
    const p = res.json().post;
    expect(p.status).toBe('published');
    expect(p.platforms[0]).toMatchObject({ status: 'published', platformPostUrl: expect.stringMatching(/^https:\/\/example\.test\/post\//), errorMessage: null });
    expect(p.publishedAt).toBeTruthy();
  });

  it('answers 207 with platformResults when some targets fail, and the post is partial', async () => {
    const { t, profileId, accountId } = await setup();
    const second = await insertAccount(ctx, t, profileId, 'bluesky');
    const res = await post(t, { content: 'hello', publishNow: true, platforms: [
      { platform: 'bluesky', accountId },
      { platform: 'bluesky', accountId: second, customContent: 'this one #reject' },
    ] });
    expect(res.statusCode).toBe(207);
    const body = res.json();
    expect(body.post.status).toBe('partial');
    expect(body.platformResults).toEqual(expect.arrayContaining([
      expect.objectContaining({ accountId, status: 'published', error: null }),
      expect.objectContaining({ accountId: second, status: 'failed', error: expect.stringMatching(/rejected/) }),
    ]));
  });

  it('fails a post whose every target is rejected; only failed (and partial) posts can be retried', async () => {
    const { t, accountId } = await setup();
    const res = await post(t, { content: 'nope #reject', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.statusCode).toBe(207);
    expect(res.json().post.status).toBe('failed');
    const id = res.json().post._id;
    const retry = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${id}/retry`, headers: t.headers });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().post.status).toBe('scheduled');
    expect(retry.json().post.platforms[0]).toMatchObject({ status: 'pending', errorMessage: null });

    const ok = await post(t, { content: 'fine', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] });
    const again = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${ok.json().post._id}/retry`, headers: t.headers });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'INVALID_STATE', details: { status: 'published' } });
  });

  it('retries only the failed targets of a partial post, keeping the published one as it is (and the post cannot be deleted meanwhile)', async () => {
    const { t, profileId, accountId } = await setup();
    const second = await insertAccount(ctx, t, profileId, 'bluesky');
    const res = await post(t, { content: 'half there', publishNow: true, platforms: [
      { platform: 'bluesky', accountId },
      { platform: 'bluesky', accountId: second, customContent: 'this one #reject' },
    ] });
    expect(res.json().post.status).toBe('partial');
    const id = res.json().post._id;
    const before = res.json().post.platforms.find((x: { accountId: { _id: string } }) => x.accountId._id === accountId);
    const retry = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${id}/retry`, headers: t.headers });
    expect(retry.statusCode, retry.body).toBe(200);
    const after = retry.json().post;
    expect(after.status).toBe('publishing');
    const byAccount = (aid: string) => after.platforms.find((x: { accountId: { _id: string } }) => x.accountId._id === aid);
    expect(byAccount(accountId)).toMatchObject({ status: 'published', platformPostId: before.platformPostId, platformPostUrl: before.platformPostUrl });
    expect(byAccount(second)).toMatchObject({ status: 'pending', errorMessage: null, attempts: 0 });
    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/posts/${id}`, headers: t.headers });
    expect(del.statusCode).toBe(409);
    const again = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${id}/retry`, headers: t.headers });
    expect(again.json()).toMatchObject({ code: 'INVALID_STATE', details: { status: 'publishing' } });
  });

  it('answers 202 and schedules a retry when the platform has a transient failure', async () => {
    const { t, accountId } = await setup();
    const res = await post(t, { content: 'flaky #transient', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.statusCode).toBe(202);
    const target = res.json().post.platforms[0];
    expect(target).toMatchObject({ status: 'pending', attempts: 1 });
    const { rows } = await ctx.db.query<{ run_at: Date }>('SELECT run_at FROM post_targets WHERE id = $1', [target._id]);
    expect(rows[0].run_at.getTime()).toBeGreaterThan(Date.now() + 1000);
  });
});

describe('status table', () => {
  it('cannot edit or delete a published post', async () => {
    const { t, accountId } = await setup();
    const p = (await post(t, { content: 'done', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] })).json().post;
    const edit = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${p._id}`, headers: t.headers, payload: { content: 'changed' } });
    expect(edit.statusCode).toBe(409);
    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/posts/${p._id}`, headers: t.headers });
    expect(del.statusCode).toBe(409);
    expect(del.json()).toMatchObject({ code: 'INVALID_STATE', details: { status: 'published' } });
    const still = await ctx.app.inject({ method: 'GET', url: `/v1/posts/${p._id}`, headers: t.headers });
    expect(still.json().post.content).toBe('done');
  });

  it('edits a scheduled post: new time moves its job; schedules a draft (counting usage then)', async () => {
    const { t, accountId } = await setup('free');
    const d = (await post(t, { content: 'draft', isDraft: true, platforms: [{ platform: 'bluesky', accountId }] })).json().post;
    const sched = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${d._id}`, headers: t.headers, payload: { scheduledFor: '2031-05-05T10:00', timezone: 'Asia/Tokyo' } });
    expect(sched.statusCode).toBe(200);
    expect(sched.json().post).toMatchObject({ status: 'scheduled', isDraft: false, scheduledFor: '2031-05-05T01:00:00.000Z', timezone: 'Asia/Tokyo' });
    const { rows } = await ctx.db.query<{ run_at: Date; status: string }>('SELECT run_at, status FROM post_targets WHERE post_id = $1', [d._id]);
    expect(rows).toEqual([{ run_at: new Date('2031-05-05T01:00:00.000Z'), status: 'pending' }]);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/usage-stats', headers: t.headers })).json().usage.uploads).toBe(1);
    const moved = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${d._id}`, headers: t.headers, payload: { scheduledFor: '2031-05-06T00:00:00Z', content: 'edited' } });
    expect(moved.json().post).toMatchObject({ content: 'edited', scheduledFor: '2031-05-06T00:00:00.000Z' });
    const { rows: after } = await ctx.db.query<{ run_at: Date }>('SELECT run_at FROM post_targets WHERE post_id = $1', [d._id]);
    expect(after[0].run_at.toISOString()).toBe('2031-05-06T00:00:00.000Z');
    // a failed edit changes nothing
    const bad = await ctx.app.inject({ method: 'PUT', url: `/v1/posts/${d._id}`, headers: t.headers, payload: { content: 'x'.repeat(301) } });
    expect(bad.statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/posts/${d._id}`, headers: t.headers })).json().post.content).toBe('edited');
    // delete refunds usage
    expect((await ctx.app.inject({ method: 'DELETE', url: `/v1/posts/${d._id}`, headers: t.headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/usage-stats', headers: t.headers })).json().usage.uploads).toBe(0);
  });
});

describe('plan limits', () => {
  it('stays exact under concurrency: 25 parallel creates on the free plan store exactly 10 posts', async () => {
    const { t, accountId } = await setup('free');
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) =>
      post(t, { content: `racer ${i}`, scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 403)).toHaveLength(15);
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM posts WHERE tenant_id = $1', [t.userId]);
    expect(rows[0].n).toBe(10);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/usage-stats', headers: t.headers })).json().usage.uploads).toBe(10);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: t.headers })).json().pagination.total).toBe(10);
  });

  it('answers 403 with the post-limit body of decision 0003 after 10 posts on the free plan; drafts do not count', async () => {
    const { t, accountId } = await setup('free');
    for (let i = 0; i < 10; i++) {
      const r = await post(t, { content: `p${i}`, scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] });
      expect(r.statusCode).toBe(201);
    }
    expect((await post(t, { content: 'draft', isDraft: true })).statusCode).toBe(201);
    const over = await post(t, { content: 'one more', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({
      error: 'Post limit reached. Your Free plan allows 10 posts per month. You have used 10.',
      planName: 'Free', limit: 10, current: 10, billingPeriod: 'monthly',
    });
    const usage = (await ctx.app.inject({ method: 'GET', url: '/v1/usage-stats', headers: t.headers })).json();
    expect(usage).toMatchObject({ planName: 'Free', limits: { uploads: 10, profiles: 2 }, usage: { uploads: 10, profiles: 1 }, canUpload: false, canCreateProfile: true });
  });
});

describe('GET /v1/posts', () => {
  it('paginates (default 10, max 100) and filters by status, platform, profile, dates and hidden', async () => {
    const { t, profileId, accountId } = await setup();
    for (let i = 0; i < 12; i++) {
      await post(t, { content: `s${i}`, scheduledFor: `2031-01-${String(i + 1).padStart(2, '0')}T12:00:00Z`, platforms: [{ platform: 'bluesky', accountId }] });
    }
    await post(t, { content: 'draft', isDraft: true });
    await post(t, { content: 'hidden', isDraft: true, hidden: true });
    const page1 = (await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: t.headers })).json();
    expect(page1.posts).toHaveLength(10);
    expect(page1.pagination).toEqual({ page: 1, limit: 10, total: 13, pages: 2 });
    const page2 = (await ctx.app.inject({ method: 'GET', url: '/v1/posts?page=2&limit=10', headers: t.headers })).json();
    expect(page2.posts).toHaveLength(3);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts?limit=500', headers: t.headers })).json().pagination.limit).toBe(100);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts?status=draft', headers: t.headers })).json().pagination.total).toBe(1);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts?includeHidden=true', headers: t.headers })).json().pagination.total).toBe(14);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts?platform=bluesky', headers: t.headers })).json().pagination.total).toBe(12);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/posts?profileId=${profileId}`, headers: t.headers })).json().pagination.total).toBe(12);
    const range = (await ctx.app.inject({ method: 'GET', url: '/v1/posts?dateFrom=2031-01-03T12:00:00Z&dateTo=2031-01-05T12:00:00Z', headers: t.headers })).json();
    expect(range.posts.map((p: { content: string }) => p.content).sort()).toEqual(['s2', 's3', 's4']);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/posts?createdBy=${t.userId}&status=scheduled`, headers: t.headers })).json().pagination.total).toBe(12);
    const bad = await ctx.app.inject({ method: 'GET', url: '/v1/posts?status=bogus&page=0', headers: t.headers });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().details.fields).sort()).toEqual(['page', 'status']);
    // Numbers that are not finite (schema coercion turns them into Infinity and skips the bounds).
    for (const q of ['page=Infinity', 'page=1e309', 'limit=Infinity', 'page=-Infinity']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/v1/posts?${q}`, headers: t.headers });
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { [q.split('=')[0]]: ['must be a finite number'] } }, requestId: expect.any(String) });
    }
  });
});

describe('GET /v1/posts: search and sortBy (the Late client\'s parameters)', () => {
  it('searches the text case-insensitively (%, _ and \\ literally) and sorts by time, creation, status and platform', async () => {
    const { t, profileId, accountId } = await setup();
    const x = await insertAccount(ctx, t, profileId, 'twitter');
    const make = async (content: string, at: string | null, account = accountId, platform = 'bluesky') => (await post(t, {
      content, ...(at ? { scheduledFor: at } : { isDraft: true }), platforms: [{ platform, accountId: account }],
    })).json().post._id as string;
    const b = await make('Autumn MENU tasting', '2031-03-02T09:00:00Z');
    const a = await make('Latte art: 100% fun_time', '2031-03-01T09:00:00Z', x, 'twitter');
    const c = await make('menu draft', null);
    const list = async (q: string) => (await ctx.app.inject({ method: 'GET', url: `/v1/posts?${q}`, headers: t.headers })).json();
    const ids = async (q: string) => (await list(q)).posts.map((p: { _id: string }) => p._id);
    expect(await ids('search=menu&sortBy=created-asc')).toEqual([b, c]);
    expect((await list('search=menu')).pagination.total).toBe(2);
    expect(await ids('search=100%25')).toEqual([a]);
    expect(await ids('search=0_f')).toEqual([]);
    expect(await ids('search=%25')).toEqual([a]);
    expect(await ids('search=')).toHaveLength(3);
    expect(await ids('sortBy=created-desc')).toEqual([c, a, b]);
    expect(await ids('sortBy=created-asc')).toEqual([b, a, c]);
    expect(await ids('sortBy=scheduled-asc')).toEqual([a, b, c]);
    expect(await ids('sortBy=scheduled-desc')).toEqual([b, a, c]);
    expect(await ids('sortBy=status')).toEqual([c, b, a]);
    expect(await ids('sortBy=platform')).toEqual([b, c, a]);
    expect(await ids('sortBy=scheduled-asc&limit=1&page=2')).toEqual([b]);
    const bad = await ctx.app.inject({ method: 'GET', url: '/v1/posts?sortBy=newest', headers: t.headers });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().details.fields)).toEqual(['sortBy']);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body, and refuses another body with 422', async () => {
    const { t, accountId } = await setup();
    const body = { content: 'once', scheduledFor: '2031-01-01T00:00:00Z', platforms: [{ platform: 'bluesky', accountId }] };
    const first = await post(t, body, { 'idempotency-key': 'k-1' });
    const second = await post(t, body, { 'idempotency-key': 'k-1' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().post._id).toBe(first.json().post._id);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const other = await post(t, { ...body, content: 'different' }, { 'idempotency-key': 'k-1' });
    expect(other.statusCode).toBe(422);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: t.headers })).json().pagination.total).toBe(1);
    // concurrent repeats create exactly one post
    const racers = await Promise.all(Array.from({ length: 5 }, () => post(t, { ...body, content: 'race' }, { 'idempotency-key': 'k-2' })));
    const created = new Set(racers.filter((r) => r.statusCode === 201).map((r) => r.json().post._id));
    expect(created.size).toBe(1);
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/posts', headers: t.headers })).json().pagination.total).toBe(2);
  });
});

describe('ids', () => {
  it('accepts upper-case ids in paths', async () => {
    const { t, accountId } = await setup();
    const p = (await post(t, { content: 'case', isDraft: true, platforms: [{ platform: 'bluesky', accountId: accountId.toUpperCase() }] })).json().post;
    const res = await ctx.app.inject({ method: 'GET', url: `/v1/posts/${p._id.toUpperCase()}`, headers: t.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().post._id).toBe(p._id);
  });
});

describe('media rules use the stored file', () => {
  it('refuses a Bluesky image over 2,000,000 bytes uploaded to Herald, before publishing', async () => {
    const { makePng, multipart } = await import('../support/png.ts');
    const { t, accountId } = await setup();
    const big = makePng(900, 800, 'noise');
    expect(big.length).toBeGreaterThan(2_000_000);
    const mp = multipart('files', [{ filename: 'big.png', contentType: 'image/png', data: big }]);
    const up = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...t.headers, 'content-type': mp.contentType }, payload: mp.payload });
    expect(up.statusCode).toBe(200);
    const file = up.json().files[0];
    // the client sends only the URL: Herald knows the size from its own records
    const res = await post(t, { content: 'big picture', publishNow: true, mediaItems: [{ url: file.url }], platforms: [{ platform: 'bluesky', accountId }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields['mediaItems.0'].join()).toMatch(/2,000,000 bytes.*\[rule bluesky\.image\.max_bytes\]/);
    expect(adapter.commits.filter((c) => c.text === 'big picture')).toHaveLength(0);
  });
});

describe('POST /v1/posts reads its accounts once per process, and checks them in its insert', () => {
  /** Runs `fn` and answers it with the number of statements it sent that read account rows for a create. */
  async function accountReads<T>(fn: () => Promise<T>): Promise<{ result: T; reads: number }> {
    const db = ctx.db as unknown as { query: (...args: unknown[]) => unknown };
    const original = db.query;
    let reads = 0;
    db.query = function (this: unknown, ...args: unknown[]) {
      const q = args[0] as string | { name?: string };
      if (typeof q === 'object' && q.name?.startsWith('accounts.find-tenant-accounts')) reads++;
      return original.apply(this, args);
    };
    try {
      return { result: await fn(), reads };
    } finally {
      db.query = original;
    }
  }
  const body = (accountId: string, content: string) => ({ content, scheduledFor: '2031-06-15T09:30', timezone: 'Europe/Paris', platforms: [{ platform: 'bluesky', accountId }] });

  it('a second create sends no read of the account; a change to its row made any way since is seen, and nothing is stored for the refused post', async () => {
    const { t, accountId } = await setup();
    expect((await post(t, body(accountId, 'cached 1'))).statusCode).toBe(201);
    const second = await accountReads(() => post(t, body(accountId, 'cached 2')));
    expect(second.result.statusCode).toBe(201);
    expect(second.reads).toBe(0);

    // A write that touches nothing but the row (no updated_at), as any code path might.
    await ctx.db.query(`UPDATE accounts SET is_active = false, inactive_reason = 'token revoked' WHERE id = $1`, [accountId]);
    const refused = await accountReads(() => post(t, body(accountId, 'after revocation')));
    expect(refused.result.statusCode).toBe(400);
    expect(refused.result.json().details.fields['platforms.0.accountId'].join()).toMatch(/disconnected \(token revoked\)/);
    expect(refused.reads).toBe(1);
    const { rows } = await ctx.db.query(`SELECT count(*)::int AS n FROM posts WHERE tenant_id = $1 AND content = 'after revocation'`, [t.userId]);
    expect(rows[0].n).toBe(0);
  });

  it('a refusal never rests on a cached row: an account reconnected since the refusal is accepted', async () => {
    const { t, accountId } = await setup();
    await ctx.db.query(`UPDATE accounts SET is_active = false, inactive_reason = 'token revoked' WHERE id = $1`, [accountId]);
    expect((await post(t, body(accountId, 'while disconnected'))).statusCode).toBe(400);
    await ctx.db.query(`UPDATE accounts SET is_active = true, inactive_reason = NULL WHERE id = $1`, [accountId]);
    const res = await post(t, body(accountId, 'reconnected'));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('an account disconnected through the API since it was read is refused', async () => {
    const { t, accountId } = await setup();
    expect((await post(t, body(accountId, 'before disconnect'))).statusCode).toBe(201);
    const del = await ctx.app.inject({ method: 'DELETE', url: `/v1/accounts/${accountId}`, headers: t.headers });
    expect(del.statusCode, del.body).toBe(200);
    const res = await post(t, body(accountId, 'after disconnect'));
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields['platforms.0.accountId'].join()).toMatch(/not a connected account/);
  });

  it("another tenant's create naming a cached account is refused as unknown", async () => {
    const { t, accountId } = await setup();
    expect((await post(t, body(accountId, 'mine'))).statusCode).toBe(201);
    const other = await createTenant(ctx);
    const res = await post(other, body(accountId, 'not mine'));
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields['platforms.0.accountId'].join()).toMatch(/not a connected account/);
  });
});
