/**
 * RSS to queue (docs/decisions/0065-rss-to-queue.md) through the real app and PostgreSQL: feeds
 * served by a local HTTP server (RSS 2.0, Atom, JSON Feed, a malformed one), conditional GETs,
 * items that become posts exactly once across polls and across two workers, the last error and
 * the backoff, the SSRF guard, and the /v1/feeds routes' answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/services.ts';
import { startFeedPoller } from '../../src/modules/feeds/poller.ts';
import type { FeedRow } from '../../src/modules/feeds/repository.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { makePng } from '../support/png.ts';

let ctx: TestContext;
let server: FeedServer;
beforeAll(async () => {
  ctx = await createTestApp();
  server = await startFeedServer();
  server.put('/cover.png', makePng(64, 64, 'noise'), 'image/png');
});
afterAll(async () => { await server?.close(); await ctx?.close(); });

const EVERY_DAY = Array.from({ length: 7 }, (_, d) => ['08:00', '12:00', '16:00', '20:00'].map((time) => ({ dayOfWeek: d, time }))).flat();

async function setup(opts: { queue?: boolean } = {}) {
  const t = await createTenant(ctx);
  const profileId = await createProfile(ctx, t);
  const accountId = await insertAccount(ctx, t, profileId, 'bluesky');
  if (opts.queue !== false) {
    const q = await ctx.app.inject({ method: 'PUT', url: '/v1/queue/slots', headers: t.headers, payload: { profileId, timezone: 'UTC', slots: EVERY_DAY } });
    expect(q.statusCode, q.body).toBe(200);
  }
  return { t, profileId, accountId };
}

const api = (t: Tenant, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });

function rss(items: Array<{ guid: string; title: string; image?: string }>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Herald news</title><link>https://news.example/</link><description>d</description>
${items.map((i) => `<item><guid isPermaLink="false">${i.guid}</guid><title>${i.title}</title><link>https://news.example/${i.guid}?utm_source=rss</link>
<description>&lt;p&gt;About ${i.title}&lt;/p&gt;</description><pubDate>Mon, 0${1 + (Number(i.guid.replace(/\D/g, '')) % 9)} Jun 2026 10:00:00 GMT</pubDate>
${i.image ? `<enclosure url="${i.image}" type="image/png" length="100"/>` : ''}</item>`).join('\n')}
</channel></rss>`;
}

async function posts(t: Tenant) {
  const res = await api(t, 'GET', '/v1/posts?limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().posts as Array<{ _id: string; content: string; status: string; isDraft: boolean; mediaItems: Array<{ url: string }>; queuedFromProfile: string | null; platforms: Array<{ accountId: { _id: string } }> }>;
}

/** Makes the feed due (the API's "check now") and runs one poll pass of this process. */
async function poll(t: Tenant, feedId: string) {
  const due = await api(t, 'POST', `/v1/feeds/${feedId}/check`);
  expect(due.statusCode, due.body).toBe(200);
  return (await ctx.services.feeds.runDue()).filter((r) => r.feedId === feedId);
}

describe('RSS 2.0 to the queue', () => {
  it('records the items present at the first check, queues each later item once with its image, and sends conditional GETs', async () => {
    const { t, profileId, accountId } = await setup();
    const url = server.put('/rss.xml', rss([{ guid: 'a1', title: 'First' }, { guid: 'a2', title: 'Second' }]), 'application/rss+xml');
    const created = await api(t, 'POST', '/v1/feeds', { profileId, url, accountIds: [accountId], template: '{title}: {description}\n\n{link}' });
    expect(created.statusCode, created.body).toBe(201);
    const feed = created.json().feed;
    expect(feed).toMatchObject({ profileId, url, mode: 'queue', accountIds: [accountId], paused: false, status: 'active', pollIntervalMinutes: 30, lastError: null, includeImage: true });

    const first = (await ctx.services.feeds.runDue()).find((r) => r.feedId === feed._id);
    expect(first).toMatchObject({ outcome: 'ok', created: 0, skipped: 2 });
    expect(await posts(t)).toEqual([]);

    server.put('/rss.xml', rss([{ guid: 'a3', title: 'Third', image: `${server.url}/cover.png` }, { guid: 'a1', title: 'First' }, { guid: 'a2', title: 'Second' }]), 'application/rss+xml');
    expect(await poll(t, feed._id)).toEqual([expect.objectContaining({ outcome: 'ok', created: 1 })]);
    const after = await posts(t);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'scheduled', isDraft: false, queuedFromProfile: profileId, platforms: [expect.objectContaining({ accountId: expect.objectContaining({ _id: accountId }) })] });
    expect(after[0].content).toBe('Third: About Third\n\nhttps://news.example/a3');
    expect(after[0].mediaItems).toEqual([expect.objectContaining({ url: `${server.url}/cover.png`, type: 'image' })]);

    // Unchanged feed: a 304, nothing new; the same body again (a server without validators) would not repeat a post either.
    const before = server.hits('/rss.xml');
    expect(await poll(t, feed._id)).toEqual([expect.objectContaining({ outcome: 'not_modified', created: 0 })]);
    expect(server.hits('/rss.xml')).toMatchObject({ conditional: before.conditional + 1, notModified: before.notModified + 1 });
    await ctx.db.query('UPDATE feeds SET etag = NULL, last_modified = NULL WHERE id = $1', [feed._id]);
    expect(await poll(t, feed._id)).toEqual([expect.objectContaining({ outcome: 'ok', created: 0 })]);
    expect(await posts(t)).toHaveLength(1);

    const got = (await api(t, 'GET', `/v1/feeds/${feed._id}`)).json();
    expect(got.feed).toMatchObject({ title: 'Herald news', status: 'active', lastError: null });
    expect(got.feed.lastSuccessAt).toEqual(expect.any(String));
    expect(got.items.map((i: { key: string; status: string }) => [i.key, i.status]).sort()).toEqual([['a1', 'skipped'], ['a2', 'skipped'], ['a3', 'created']]);
    expect(got.items.find((i: { key: string }) => i.key === 'a3')).toMatchObject({ postId: after[0]._id, title: 'Third', link: 'https://news.example/a3' });
  });
});

describe('Atom and JSON Feed, importExisting, drafts', () => {
  it('turns every Atom entry into a draft once (importExisting), with the link rel=enclosure image', async () => {
    const { t, profileId, accountId } = await setup({ queue: false });
    const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom log</title><id>urn:uuid:feed</id><updated>2026-06-02T10:00:00Z</updated>
<entry><title>Entry one</title><id>urn:uuid:e1</id><link href="/posts/1"/><updated>2026-06-01T10:00:00Z</updated><summary>One summary</summary>
<link rel="enclosure" type="image/png" href="${server.url}/cover.png"/></entry>
<entry><title>Entry two</title><id>urn:uuid:e2</id><link href="/posts/2"/><updated>2026-06-02T10:00:00Z</updated><summary>Two summary</summary></entry>
</feed>`;
    const url = server.put('/atom.xml', atom, 'application/atom+xml');
    const res = await api(t, 'POST', '/v1/feeds', { profileId, url, mode: 'draft', importExisting: true, accountIds: [accountId], template: '{title} {link}' });
    expect(res.statusCode, res.body).toBe(201);
    const feedId = res.json().feed._id;
    expect((await ctx.services.feeds.runDue()).find((r) => r.feedId === feedId)).toMatchObject({ outcome: 'ok', created: 2 });
    const list = await posts(t);
    expect(list.map((p) => p.content).sort()).toEqual([`Entry one ${server.url}/posts/1`, `Entry two ${server.url}/posts/2`]);
    expect(list.every((p) => p.status === 'draft' && p.isDraft)).toBe(true);
    expect(list.find((p) => p.content.startsWith('Entry one'))!.mediaItems).toEqual([expect.objectContaining({ url: `${server.url}/cover.png` })]);
    await ctx.db.query('UPDATE feeds SET etag = NULL, last_modified = NULL WHERE id = $1', [feedId]);
    expect(await poll(t, feedId)).toEqual([expect.objectContaining({ outcome: 'ok', created: 0 })]);
    expect(await posts(t)).toHaveLength(2);
  });

  it('reads a JSON Feed (id, url, image) into queued posts', async () => {
    const { t, profileId, accountId } = await setup();
    const json = { version: 'https://jsonfeed.org/version/1.1', title: 'JSON blog', items: [
      { id: 'j1', url: 'https://blog.example/j1', title: 'Json one', content_text: 'Plain one', image: `${server.url}/cover.png`, date_published: '2026-06-01T10:00:00Z' },
      { id: 'j2', url: 'https://blog.example/j2', title: 'Json two', content_html: '<p>Html <b>two</b></p>', date_published: '2026-06-02T10:00:00Z' },
    ] };
    const url = server.put('/feed.json', JSON.stringify(json), 'application/feed+json');
    const res = await api(t, 'POST', '/v1/feeds', { profileId, url, importExisting: true, accountIds: [accountId], template: '{title} / {description} / {link}' });
    expect(res.statusCode, res.body).toBe(201);
    expect((await ctx.services.feeds.runDue()).find((r) => r.feedId === res.json().feed._id)).toMatchObject({ outcome: 'ok', created: 2 });
    const list = await posts(t);
    expect(list.map((p) => p.content).sort()).toEqual(['Json one / Plain one / https://blog.example/j1', 'Json two / Html two / https://blog.example/j2']);
    expect(list.every((p) => p.status === 'scheduled' && p.queuedFromProfile === profileId)).toBe(true);
    expect(list.find((p) => p.content.startsWith('Json one'))!.mediaItems).toHaveLength(1);
  });
});

describe('failures', () => {
  it('records a malformed feed\'s error on the feed, backs off, and clears it when the feed is fixed', async () => {
    const { t, profileId, accountId } = await setup();
    const url = server.put('/broken.xml', '<rss version="2.0"><channel><title>Broken</title><item><title>x</item></channel>', 'application/rss+xml');
    const feedId = (await api(t, 'POST', '/v1/feeds', { profileId, url, accountIds: [accountId], pollIntervalMinutes: 10 })).json().feed._id;
    const [r1] = (await ctx.services.feeds.runDue()).filter((r) => r.feedId === feedId);
    expect(r1).toMatchObject({ outcome: 'failed', created: 0 });
    let feed = (await api(t, 'GET', `/v1/feeds/${feedId}`)).json().feed;
    expect(feed).toMatchObject({ status: 'failing', consecutiveFailures: 1, lastError: expect.stringContaining('not a readable feed') });
    const wait1 = Date.parse(feed.nextCheckAt) - Date.parse(feed.lastCheckedAt);
    expect(wait1).toBeGreaterThanOrEqual(10 * 60_000 - 2_000);
    expect(wait1).toBeLessThan(11 * 60_000);
    await poll(t, feedId);
    feed = (await api(t, 'GET', `/v1/feeds/${feedId}`)).json().feed;
    expect(feed.consecutiveFailures).toBe(2);
    expect(Date.parse(feed.nextCheckAt) - Date.parse(feed.lastCheckedAt)).toBeGreaterThanOrEqual(20 * 60_000 - 2_000);
    // A 404 is an error too; nothing is stored for the feed's items.
    server.put('/broken.xml', rss([{ guid: 'b1', title: 'Fixed' }]), 'application/rss+xml');
    expect(await poll(t, feedId)).toEqual([expect.objectContaining({ outcome: 'ok' })]);
    feed = (await api(t, 'GET', `/v1/feeds/${feedId}`)).json().feed;
    expect(feed).toMatchObject({ status: 'active', consecutiveFailures: 0, lastError: null, lastErrorAt: null });
    const missing = await api(t, 'POST', '/v1/feeds', { profileId, url: `${server.url}/nowhere.xml`, accountIds: [accountId] });
    const missingId = missing.json().feed._id;
    await ctx.services.feeds.runDue();
    expect((await api(t, 'GET', `/v1/feeds/${missingId}`)).json().feed.lastError).toContain('HTTP 404');
  });

  it('queues nothing for an item the rules refuse: it becomes a draft, with the reason on the item', async () => {
    const { t, profileId, accountId } = await setup();
    const long = 'L'.repeat(400);
    const url = server.put('/long.xml', rss([{ guid: 'x1', title: long }]), 'application/rss+xml');
    const feedId = (await api(t, 'POST', '/v1/feeds', { profileId, url, accountIds: [accountId], importExisting: true, template: '{title}' })).json().feed._id;
    expect((await ctx.services.feeds.runDue()).find((r) => r.feedId === feedId)).toMatchObject({ created: 1 });
    const [p] = await posts(t);
    expect(p).toMatchObject({ status: 'draft', isDraft: true });
    const item = (await api(t, 'GET', `/v1/feeds/${feedId}`)).json().items[0];
    expect(item).toMatchObject({ status: 'created', postId: p._id, error: expect.stringContaining('saved as a draft') });
  });
});

describe('exactly once across workers', () => {
  it('two workers polling together make each new item one post', async () => {
    const { t, profileId, accountId } = await setup();
    const url = server.put('/race.xml', rss([{ guid: 'r0', title: 'Old' }]), 'application/rss+xml');
    const feedId = (await api(t, 'POST', '/v1/feeds', { profileId, url, accountIds: [accountId] })).json().feed._id;
    await ctx.services.feeds.runDue();
    const other = createServices({ config: ctx.config, db: ctx.db, secretKeyHex: ctx.secretKeyHex, processId: 'feeds-test-worker-2' });
    server.put('/race.xml', rss(Array.from({ length: 6 }, (_, i) => ({ guid: `r${i}`, title: `Item ${i}` }))), 'application/rss+xml');

    // The lease: both pass at once, one of them checks the feed.
    await api(t, 'POST', `/v1/feeds/${feedId}/check`);
    const [a, b] = await Promise.all([ctx.services.feeds.runDue(), other.feeds.runDue()]);
    const mine = [...a, ...b].filter((r) => r.feedId === feedId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ outcome: 'ok', created: 5 });

    // The unique index: two workers that both hold the same row (a lease taken over mid-check) still write one post per item.
    server.put('/race.xml', rss(Array.from({ length: 10 }, (_, i) => ({ guid: `r${i}`, title: `Item ${i}` }))), 'application/rss+xml');
    await ctx.db.query('UPDATE feeds SET etag = NULL, last_modified = NULL WHERE id = $1', [feedId]);
    const { rows: [row] } = await ctx.db.query<FeedRow>('SELECT * FROM feeds WHERE id = $1', [feedId]);
    const [x, y] = await Promise.all([ctx.services.feeds.checkLeased(row, 'w-a'), other.feeds.checkLeased(row, 'w-b')]);
    expect(x.created + y.created).toBe(4);
    const list = await posts(t);
    expect(list).toHaveLength(9);
    expect(new Set(list.map((p) => p.content)).size).toBe(9);
    const { rows } = await ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM feed_items WHERE feed_id = $1', [feedId]);
    expect(Number(rows[0].n)).toBe(10);
  });
});

describe('/v1/feeds', () => {
  it('lists, pauses, resumes and deletes; a paused feed is not checked', async () => {
    const { t, profileId, accountId } = await setup();
    const url = server.put('/crud.xml', rss([{ guid: 'c1', title: 'C' }]), 'application/rss+xml');
    const feed = (await api(t, 'POST', '/v1/feeds', { profileId, url, accountIds: [accountId], name: 'Company blog' })).json().feed;
    expect((await api(t, 'GET', '/v1/feeds')).json().feeds.map((f: { _id: string }) => f._id)).toEqual([feed._id]);
    expect((await api(t, 'GET', `/v1/feeds?profileId=${profileId}`)).json().feeds).toHaveLength(1);
    const paused = await api(t, 'PUT', `/v1/feeds/${feed._id}`, { paused: true });
    expect(paused.json().feed).toMatchObject({ paused: true, status: 'paused', nextCheckAt: null, name: 'Company blog' });
    expect((await ctx.services.feeds.runDue()).some((r) => r.feedId === feed._id)).toBe(false);
    expect(server.hits('/crud.xml').total).toBe(0);
    expect((await api(t, 'POST', `/v1/feeds/${feed._id}/check`)).statusCode).toBe(409);
    expect((await api(t, 'PUT', `/v1/feeds/${feed._id}`, { paused: false })).json().feed.status).toBe('active');
    expect((await ctx.services.feeds.runDue()).some((r) => r.feedId === feed._id)).toBe(true);
    expect((await api(t, 'POST', '/v1/feeds', { profileId, url, accountIds: [accountId] })).statusCode).toBe(409);
    expect((await api(t, 'DELETE', `/v1/feeds/${feed._id}`)).statusCode).toBe(200);
    expect((await api(t, 'GET', `/v1/feeds/${feed._id}`)).statusCode).toBe(404);
    expect((await api(t, 'GET', '/v1/feeds')).json().feeds).toEqual([]);
  });

  it('drops an account disconnected since when the feed is changed, instead of refusing the change', async () => {
    const { t, profileId, accountId } = await setup();
    const second = await insertAccount(ctx, t, profileId, 'bluesky');
    const feed = (await api(t, 'POST', '/v1/feeds', { profileId, url: `${server.url}/two-accounts.xml`, accountIds: [accountId, second] })).json().feed;
    await ctx.db.query('DELETE FROM accounts WHERE id = $1', [second]);
    const res = await api(t, 'PUT', `/v1/feeds/${feed._id}`, { name: 'Renamed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().feed).toMatchObject({ name: 'Renamed', accountIds: [accountId] });
  });

  it('answers bad input with 400 naming the field, and stores nothing', async () => {
    const { t, profileId, accountId } = await setup();
    const other = await createProfile(ctx, t);
    const otherAccount = await insertAccount(ctx, t, other, 'bluesky');
    const url = `${server.url}/x.xml`;
    const cases: Array<[object, string]> = [
      [{ profileId, url: 'ftp://news.example/feed', accountIds: [accountId] }, 'url'],
      [{ profileId, url: 'not a url', accountIds: [accountId] }, 'url'],
      [{ profileId, url, accountIds: [accountId], template: 'Read {titel}' }, 'template'],
      [{ profileId, url, accountIds: [accountId], template: '   ' }, 'template'],
      [{ profileId, url, accountIds: [otherAccount] }, 'accountIds.0'],
      [{ profileId, url, accountIds: [accountId, accountId] }, 'accountIds.1'],
      [{ profileId, url, accountIds: [] }, 'accountIds'],
      [{ profileId, url, accountIds: [accountId], pollIntervalMinutes: 1 }, 'pollIntervalMinutes'],
      [{ profileId, url, accountIds: [accountId], mode: 'later' }, 'mode'],
    ];
    for (const [body, field] of cases) {
      const res = await api(t, 'POST', '/v1/feeds', body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().details.fields), JSON.stringify(body)).toContain(field);
    }
    const noQueue = await setup({ queue: false });
    const q = await api(noQueue.t, 'POST', '/v1/feeds', { profileId: noQueue.profileId, url, accountIds: [noQueue.accountId] });
    expect(q.statusCode).toBe(400);
    expect(Object.keys(q.json().details.fields)).toEqual(['mode']);
    expect((await api(t, 'GET', '/v1/feeds')).json().feeds).toEqual([]);
    const { rows } = await ctx.db.query('SELECT 1 FROM feeds WHERE tenant_id = $1', [t.userId]);
    expect(rows).toEqual([]);
  });
});

describe('the worker\'s poller', () => {
  it('checks a feed as soon as it is added (the create wakes it), without waiting for its interval', async () => {
    const { t, profileId, accountId } = await setup();
    const url = server.put('/poller.xml', rss([{ guid: 'p1', title: 'Polled' }]), 'application/rss+xml');
    const poller = startFeedPoller({ feeds: ctx.services.feeds, intervalMs: 60_000 });
    try {
      // Let the poller's first (empty) pass end and sleep: only a wake-up can start the next within the test.
      await new Promise((r) => setTimeout(r, 300));
      const feedId = (await api(t, 'POST', '/v1/feeds', { profileId, url, accountIds: [accountId] })).json().feed._id;
      await expect.poll(async () => (await api(t, 'GET', `/v1/feeds/${feedId}`)).json().feed.lastSuccessAt, { timeout: 10_000 }).not.toBeNull();
      expect((await api(t, 'GET', `/v1/feeds/${feedId}`)).json().items).toEqual([expect.objectContaining({ key: 'p1', status: 'skipped' })]);
    } finally {
      await poller.stop();
    }
  });
});

describe('tenancy', () => {
  it('another tenant\'s profile answers 404 like a missing one, its account is a 400 like an unknown one, and nothing is stored', async () => {
    const a = await setup();
    const b = await setup();
    const url = `${server.url}/tenancy.xml`;
    const list = await api(a.t, 'GET', `/v1/feeds?profileId=${b.profileId}`);
    expect(list.statusCode).toBe(404);
    const foreignProfile = await api(a.t, 'POST', '/v1/feeds', { profileId: b.profileId, url, accountIds: [b.accountId] });
    expect(foreignProfile.statusCode).toBe(404);
    expect(foreignProfile.json().code).toBe('NOT_FOUND');
    const foreignAccount = await api(a.t, 'POST', '/v1/feeds', { profileId: a.profileId, url, accountIds: [b.accountId] });
    expect(foreignAccount.statusCode).toBe(400);
    expect(Object.keys(foreignAccount.json().details.fields)).toEqual(['accountIds.0']);
    const { rows } = await ctx.db.query('SELECT 1 FROM feeds WHERE tenant_id = ANY($1::char(24)[])', [[a.t.userId, b.t.userId]]);
    expect(rows).toEqual([]);
  });
});

describe('the SSRF guard', () => {
  it('refuses a private address when the feed is added, and one a host name resolves to when it is fetched', async () => {
    const strict = await createTestApp({ env: { HERALD_ALLOW_PRIVATE_URLS: 'false' } });
    try {
      const t = await createTenant(strict);
      const profileId = await createProfile(strict, t);
      const accountId = await insertAccount(strict, t, profileId, 'bluesky');
      const add = (url: string) => strict.app.inject({ method: 'POST', url: '/v1/feeds', headers: t.headers, payload: { profileId, url, mode: 'draft', accountIds: [accountId] } });
      server.put('/private.xml', rss([{ guid: 'p1', title: 'Private' }]), 'application/rss+xml');
      for (const url of [`${server.url}/private.xml`, 'http://10.0.0.1/feed.xml', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/feed.xml']) {
        const res = await add(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().details.fields.url[0], url).toMatch(/private or reserved/);
      }
      // A name is resolved at fetch time, inside the socket's lookup: the check fails and says why.
      const port = new URL(server.url).port;
      const res = await add(`http://localhost:${port}/private.xml`);
      expect(res.statusCode, res.body).toBe(201);
      const before = server.hits('/private.xml').total;
      const [r] = (await strict.services.feeds.runDue()).filter((x) => x.feedId === res.json().feed._id);
      expect(r).toMatchObject({ outcome: 'failed', created: 0 });
      expect(server.hits('/private.xml').total).toBe(before);
      const feed = (await strict.app.inject({ method: 'GET', url: `/v1/feeds/${res.json().feed._id}`, headers: t.headers })).json().feed;
      expect(feed).toMatchObject({ status: 'failing', lastError: expect.stringMatching(/^refused: .*private or reserved/) });
    } finally {
      await strict.close();
    }
  });
});
