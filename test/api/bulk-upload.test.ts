import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { multipart } from '../support/png.ts';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestApp(); });
afterAll(async () => { await ctx.close(); });

async function setup(plan: 'free' | 'advanced' = 'advanced') {
  const t = await createTenant(ctx, { plan });
  const profileId = await createProfile(ctx, t, 'Brand One');
  const accountId = await insertAccount(ctx, t, profileId, 'bluesky');
  return { t, profileId, accountId };
}

function upload(t: Tenant, csv: string | Buffer, query = '') {
  const mp = multipart('file', [{ filename: 'posts.csv', contentType: 'text/csv', data: Buffer.isBuffer(csv) ? csv : Buffer.from(csv) }]);
  return ctx.app.inject({ method: 'POST', url: `/v1/posts/bulk-upload${query}`, headers: { ...t.headers, 'content-type': mp.contentType }, payload: mp.payload });
}

const count = async (t: Tenant) => (await ctx.app.inject({ method: 'GET', url: '/v1/posts?includeHidden=true', headers: t.headers })).json().pagination.total;

describe('POST /v1/posts/bulk-upload', () => {
  it('creates every valid row: names or ids, local times with tz, drafts, quoted multi-line content, BOM and CRLF', async () => {
    const { t, profileId } = await setup();
    const csv = '\uFEFFplatforms,profiles,schedule_time,tz,post_content,is_draft,tags\r\n'
      + 'bluesky,Brand One,2031-03-01 09:30,Europe/Paris,"Hello, world",,launch;news\r\n'
      + `bluesky,${profileId},2031-03-02T10:00:00Z,,"Two\r\nlines ""quoted""",,\r\n`
      + 'bluesky,Brand One,,,An idea,true,\r\n';
    const res = await upload(t, csv);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, valid: 3, invalid: 0, dryRun: false });
    expect(body.results.map((r: { rowIndex: number; ok: boolean }) => [r.rowIndex, r.ok])).toEqual([[1, true], [2, true], [3, true]]);
    const [a, b, c] = await Promise.all(body.results.map(async (r: { createdPostId: string }) =>
      (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${r.createdPostId}`, headers: t.headers })).json().post));
    expect(a).toMatchObject({ content: 'Hello, world', scheduledFor: '2031-03-01T08:30:00.000Z', timezone: 'Europe/Paris', status: 'scheduled', tags: ['launch', 'news'] });
    expect(b).toMatchObject({ content: 'Two\r\nlines "quoted"', scheduledFor: '2031-03-02T10:00:00.000Z' });
    expect(c).toMatchObject({ status: 'draft', content: 'An idea' });
    const { rows } = await ctx.db.query('SELECT count(*)::int AS n FROM post_targets WHERE post_id = ANY($1::char(24)[]) AND status = $2', [[a._id, b._id], 'pending']);
    expect(rows[0].n).toBe(2);
  });

  it('reports row errors with machine codes and creates only the valid rows (207)', async () => {
    const { t } = await setup();
    const csv = [
      'platforms,profiles,schedule_time,tz,post_content,media_urls,use_queue',
      'bluesky,Brand One,2031-03-01 09:30,UTC,ok row,,',
      'bluesky,,2031-03-01 09:30,UTC,no profile,,',
      'bluesky,Nope,2031-03-01 09:30,UTC,unknown profile,,',
      'bluesky,Brand One,,,no timing,,',
      'bluesky,Brand One,2031-13-01 09:30,UTC,bad date,,',
      'bluesky,Brand One,2031-03-01 09:30,UTC,bad media,ftp://x/y.png,',
      `bluesky,Brand One,2031-03-01 09:30,UTC,${'x'.repeat(301)},,`,
      'myspace,Brand One,2031-03-01 09:30,UTC,bad platform,,',
      'twitter,Brand One,2031-03-01 09:30,UTC,no twitter account,,',
      'bluesky,Brand One,,,queue,,true',
      'bluesky,Brand One;Other,,,queue,,true',
    ].join('\n');
    const res = await upload(t, csv);
    expect(res.statusCode).toBe(207);
    const body = res.json();
    expect(body).toMatchObject({ total: 11, valid: 1, invalid: 10 });
    const codes = body.results.map((r: { errors: string[] }) => r.errors);
    expect(codes).toEqual([
      [], ['profiles_missing'], ['profile_not_found'], ['timing_missing'], ['schedule_time_invalid'], ['media_url_invalid'],
      ['post_content_invalid'], ['platform_invalid'], ['account_missing'], ['queue_missing'], ['use_queue_profiles'],
    ]);
    expect(body.results[1]).toMatchObject({ rowIndex: 2, ok: false, errors: ['profiles_missing'] });
    expect(body.results[1].errors.includes('profiles_missing')).toBe(true);
    expect(body.results[1].errorDetails).toEqual([{ code: 'profiles_missing', column: 'profiles', message: expect.stringMatching(/profiles is required/) }]);
    expect(body.results.map((r: { errorDetails: Array<{ code: string }> }) => r.errorDetails.map((e) => e.code))).toEqual(codes);
    expect(body.results[6].errorDetails[0].message).toMatch(/300 graphemes/);
    expect(await count(t)).toBe(1);
  });

  it('reports a row with a NUL character as invalid, in the dry run and the upload alike, and still creates the good rows', async () => {
    const { t } = await setup();
    const csv = [
      'platforms,profiles,schedule_time,tz,post_content,tags',
      'bluesky,Brand One,2031-03-01 09:30,UTC,good one,a',
      'bluesky,Brand One,2031-03-01 09:30,UTC,bad \u0000 row,b',
      'bluesky,Brand One,2031-03-01 09:30,UTC,tag row,c\u0000d',
      'bluesky,Brand One,2031-03-01 10:30,UTC,good two,',
    ].join('\n');
    const expectRows = (body: { total: number; valid: number; invalid: number; results: Array<{ ok: boolean; errors: string[]; errorDetails: Array<{ code: string; column?: string; message: string }> }> }) => {
      expect(body).toMatchObject({ total: 4, valid: 2, invalid: 2 });
      expect(body.results.map((r) => r.ok)).toEqual([true, false, false, true]);
      expect(body.results[1].errors).toEqual(['post_content_invalid']);
      expect(body.results[1].errorDetails).toEqual([{ code: 'post_content_invalid', column: 'post_content', message: expect.stringMatching(/post_content must not contain NUL/) }]);
      expect(body.results[2].errorDetails).toEqual([{ code: 'tags_invalid', column: 'tags', message: expect.stringMatching(/tags must not contain NUL/) }]);
    };
    const dry = await upload(t, csv, '?dryRun=true');
    expect(dry.statusCode, dry.body).toBe(207);
    expectRows(dry.json());
    const real = await upload(t, csv);
    expect(real.statusCode, real.body).toBe(207);
    expectRows(real.json());
    expect(await count(t)).toBe(2);
  });

  it('drops tags over 100 characters from a row and says so in the warnings', async () => {
    const { t } = await setup();
    const res = await upload(t, `platforms,profiles,schedule_time,tz,post_content,tags\nbluesky,Brand One,2031-03-01 09:30,UTC,tagged,"short,${'z'.repeat(101)}"\n`);
    expect(res.statusCode, res.body).toBe(200);
    const post = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${res.json().results[0].createdPostId}`, headers: t.headers })).json().post;
    expect(post.tags).toEqual(['short']);
    expect(res.json().warnings).toContainEqual(expect.stringMatching(/^row 1: tags: dropped 1 tag\(s\) over 100 characters/));
  });

  it('reads a thread column for every platform with threads (Mastodon, Discord and Telegram too), not for one without (Google Business Profile: ignored, with the warning)', async () => {
    const { t, profileId } = await setup();
    for (const p of ['mastodon', 'discord', 'telegram', 'googlebusiness']) await insertAccount(ctx, t, profileId, p);
    const csv = 'platforms,profiles,schedule_time,tz,post_content,mastodon_thread_items,discord_thread_items,telegram_thread_items,googlebusiness_thread_items\n'
      + 'mastodon;discord;telegram,Brand One,2031-03-01 09:30,UTC,unused,"Toot one\n---\nToot two","Message one\n---\nMessage two","Post one\n---\nPost two",\n'
      + 'googlebusiness,Brand One,2031-03-01 09:30,UTC,Fresh bread today,,,,"Not\n---\na thread"\n';
    const res = await upload(t, csv);
    expect(res.statusCode, res.body).toBe(200);
    const [threaded, local] = await Promise.all(res.json().results.map(async (r: { createdPostId: string }) =>
      (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${r.createdPostId}`, headers: t.headers })).json().post));
    const items = Object.fromEntries(threaded.platforms.map((x: { platform: string; platformSpecificData: { threadItems?: Array<{ content: string }> } }) =>
      [x.platform, x.platformSpecificData.threadItems?.map((i) => i.content)]));
    expect(items).toEqual({ mastodon: ['Toot one', 'Toot two'], discord: ['Message one', 'Message two'], telegram: ['Post one', 'Post two'] });
    // Google Business Profile has no threads: its column is ignored, as the warning says, and the post is one local post.
    expect(local).toMatchObject({ content: 'Fresh bread today', platforms: [{ platform: 'googlebusiness' }] });
    expect(local.platforms[0].platformSpecificData?.threadItems).toBeUndefined();
    expect(res.json().warnings).toContain('Ignored unknown column(s): googlebusiness_thread_items');
  });

  it('dryRun validates without creating anything', async () => {
    const { t } = await setup();
    const res = await upload(t, 'platforms,profiles,publish_now,post_content\nbluesky,Brand One,true,now\n', '?dryRun=true');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, valid: 1, dryRun: true, results: [{ ok: true, createdPostId: null }] });
    expect(await count(t)).toBe(0);
  });

  it('uses the queue of exactly one profile, giving each row its own slot', async () => {
    const { t, profileId } = await setup();
    await ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: t.headers, payload: { profileId, timezone: 'UTC', slots: [{ dayOfWeek: 2, time: '10:00' }, { dayOfWeek: 4, time: '16:00' }] } });
    const res = await upload(t, 'platforms,profiles,use_queue,post_content\nbluesky,Brand One,true,q1\nbluesky,Brand One,true,q2\nbluesky,Brand One,true,q3\n');
    expect(res.statusCode).toBe(200);
    const times = await Promise.all(res.json().results.map(async (r: { createdPostId: string }) =>
      (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${r.createdPostId}`, headers: t.headers })).json().post.scheduledFor));
    expect(new Set(times).size).toBe(3);
    expect([...times].sort()).toEqual(times);
  });

  it('applies the plan limit per row, in file order; drafts do not count', async () => {
    const { t } = await setup('free');
    const rows = Array.from({ length: 12 }, (_, i) => `bluesky,Brand One,2031-03-01 09:${String(i).padStart(2, '0')},UTC,,post ${i}`);
    const res = await upload(t, ['platforms,profiles,schedule_time,tz,is_draft,post_content', ...rows, 'bluesky,Brand One,,,true,a draft'].join('\n'));
    const body = res.json();
    expect(res.statusCode).toBe(207);
    expect(body.valid).toBe(11);
    expect(body.results.slice(10, 12).map((r: { errors: string[] }) => r.errors)).toEqual([['post_limit_reached'], ['post_limit_reached']]);
    expect(body.results[10].errorDetails[0].message).toBe('Post limit reached. Your Free plan allows 10 posts per month. You have used 10.');
    expect(body.results[12]).toMatchObject({ ok: true });
    expect(await count(t)).toBe(11);
  });

  it('answers 400 for an unusable file and for a file without valid rows', async () => {
    const { t } = await setup();
    const noColumns = await upload(t, 'content,when\nhello,now\n');
    expect(noColumns.statusCode).toBe(400);
    expect(noColumns.json().error).toMatch(/platforms, profiles/);
    const empty = await upload(t, '');
    expect(empty.statusCode).toBe(400);
    const broken = await upload(t, 'platforms,profiles,post_content\nbluesky,"Brand One,unterminated\n');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toMatch(/not valid CSV/);
    const tooMany = await upload(t, ['platforms,profiles,is_draft', ...Array.from({ length: 5001 }, () => 'bluesky,Brand One,true')].join('\n'));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toMatch(/5000/);
    const allBad = await upload(t, 'platforms,profiles,is_draft\nbluesky,Nope,true\n');
    expect(allBad.statusCode).toBe(400);
    expect(allBad.json().results[0].errors).toEqual(['profile_not_found']);
    expect(await count(t)).toBe(0);
  });

  it('creates 5,000 rows in one upload', async () => {
    const { t } = await setup();
    const rows = Array.from({ length: 5000 }, (_, i) => `bluesky,Brand One,2031-04-01 10:00,America/New_York,Post number ${i} #bulk`);
    const res = await upload(t, ['platforms,profiles,schedule_time,tz,post_content', ...rows].join('\n'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 5000, valid: 5000 });
    expect(await count(t)).toBe(5000);
  }, 120_000);
});
