/**
 * Reddit adapter against the Reddit simulator, through the real app: OAuth connect
 * (Basic client auth, duration=permanent, callback and API completion), the subreddit
 * picker and default subreddit, publishing each post kind (text, link, image), each rule
 * violation, each failure mode (429 with x-ratelimit-reset, RATELIMIT error arrays, 5xx,
 * expired token, revoked authorization, an answer lost after the post was created), and
 * the feed and search routes with their validation and tenancy.
 */
import { describe, expect, it } from 'vitest';
import { startRedditSimulator, type RedditSimulator } from '../../sim/reddit/server.ts';
import { createTenant, insertAccount, type Tenant } from '../support/app.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';
import { makePng } from '../support/png.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { cases } from '../rules/reddit.cases.ts';
import { harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

let sim: RedditSimulator;
let media: MediaServer;
const h = platformHarness({
  platform: 'reddit', tag: 'rd',
  async setup() {
    sim = await startRedditSimulator({ imageDelayMs: 300 });
    media = await startMediaServer();
    return { env: platformEnv('reddit', sim) };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});

const post = (payload: object) => h.post(payload);
const get = (url: string, t: Tenant = h.tenant) => h.ctx.app.inject({ method: 'GET', url, headers: t.headers });
const target1 = (psd: Record<string, unknown> = {}) => [{ platform: 'reddit', accountId: h.accountId, platformSpecificData: psd }];
const runDue = (postId: string) => h.runDue(postId);
const target = (postId: string) => h.target(postId);
const mine = (title: string) => sim.posts.filter((p) => p.author === sim.user.name && p.title === title);

const contract = platformContract({
  platform: 'reddit', name: 'Reddit', h,
  payload: (content) => ({ content, platforms: target1() }),
  fault: (kind) => sim.addFault(kind === 'list_unreadable' ? { op: 'read', kind: 'rate_limit', count: 1 } : { op: 'submit', kind, count: 1 }),
  created: mine,
  creates: () => sim.calls.get('POST /api/submit') ?? 0,
  lists: () => sim.calls.get('GET /user/:name/submitted') ?? 0,
  bury: (n, prefix) => { for (let i = 0; i < n; i++) sim.addPost('test', `${prefix} ${i}`); },
});

contract.connect({
  title: 'authUrl asks for a permanent grant; the callback stores the account and redirects with connected, profileId, username',
  username: () => 'herald_sim',
  account: { username: 'herald_sim', displayName: 'Herald Simulator' },
  minTtlMs: 50 * 60_000,
  platformUserId: () => sim.user.id,
  authUrl(au) {
    expect(au.pathname).toBe('/api/v1/authorize');
    expect(Object.fromEntries(au.searchParams)).toMatchObject({ response_type: 'code', duration: 'permanent', client_id: sim.clientId });
    expect(au.searchParams.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['identity', 'submit', 'read', 'mysubreddits']));
  },
  async stored(_row, creds) {
    expect(creds.refreshToken).toBeTruthy();
    // Reddit asks for a descriptive User-Agent, never a generic one.
    expect(sim.lastUserAgent()).toMatch(/^server:herald\.sim-reddit-client:/);
    // ... and the simulator refuses a generic one, as Reddit throttles or bans them.
    expect((await fetch(`${sim.url}/api/v1/me`, { headers: { 'user-agent': 'node' } })).status).toBe(403);
  },
  singleUse: true,
  api: { title: 'completes through POST /v1/connect/reddit and keeps one account' },
});

describe('Reddit: subreddits of the account', () => {
  it('lists the subscribed subreddits with name and display_name_prefixed, and no default yet', async () => {
    const res = await get(`/v1/accounts/${h.accountId}/reddit-subreddits`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.defaultSubreddit).toBeNull();
    expect(body.subreddits.map((s: { name: string }) => s.name).sort()).toEqual(['herald', 'selfonly', 'test']);
    expect(body.subreddits[0]).toMatchObject({ name: expect.any(String), display_name_prefixed: expect.stringMatching(/^r\//), title: expect.any(String) });
  });

  it('sets the default subreddit (r/ prefix accepted), shown on the account; an unknown subreddit is a 400 naming defaultSubreddit', async () => {
    const res = await h.ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${h.accountId}/reddit-subreddits`, headers: h.tenant.headers, payload: { defaultSubreddit: 'r/test' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account.defaultSubreddit).toBe('test');
    expect((await get(`/v1/accounts/${h.accountId}/reddit-subreddits`)).json().defaultSubreddit).toBe('test');
    const bad = await h.ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${h.accountId}/reddit-subreddits`, headers: h.tenant.headers, payload: { defaultSubreddit: 'doesnotexist' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields.defaultSubreddit).toBeTruthy();
    const malformed = await h.ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${h.accountId}/reddit-subreddits`, headers: h.tenant.headers, payload: { defaultSubreddit: 'no spaces!' } });
    expect(malformed.statusCode).toBe(400);
  });

  it('another tenant\'s account is a 404; a non-Reddit account is a 400', async () => {
    const other = await createTenant(h.ctx);
    expect((await get(`/v1/accounts/${h.accountId}/reddit-subreddits`, other)).statusCode).toBe(404);
    const put = await h.ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${h.accountId}/reddit-subreddits`, headers: other.headers, payload: { defaultSubreddit: 'herald' } });
    expect(put.statusCode).toBe(404);
    const bsky = await insertAccount(h.ctx, h.tenant, h.profileId, 'bluesky');
    const res = await get(`/v1/accounts/${bsky}/reddit-subreddits`);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.accountId[0]).toMatch(/not a Reddit account/);
  });

  it('answers a subreddit\'s posting rules as posts are checked against them (the default subreddit when none is named); tenancy and bad names', async () => {
    const rules = (q = '', t: Tenant = h.tenant) => get(`/v1/accounts/${h.accountId}/reddit-subreddits/rules${q}`, t);
    const flair = await rules('?subreddit=r/flairreq');
    expect(flair.statusCode, flair.body).toBe(200);
    expect(flair.json()).toMatchObject({ subreddit: 'flairreq', rules: { flairRequired: true, submissionType: 'any' } });
    expect((await rules('?subreddit=titlelen')).json().rules).toMatchObject({ titleMinLength: 10, titleMaxLength: 50 });
    expect((await rules('?subreddit=selfonly')).json().rules).toMatchObject({ submissionType: 'self' });
    // None named: the account's default (set to r/test above).
    expect((await rules()).json()).toMatchObject({ subreddit: 'test' });
    const bad = await rules('?subreddit=no%20spaces!');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields.subreddit[0]).toMatch(/subreddit name/);
    expect((await rules('', await createTenant(h.ctx))).statusCode).toBe(404);
  });
});

describe('Reddit: publishing', () => {
  it('unpublishes a post: POST /api/del with its fullname deletes it (author [deleted], gone from the user\'s posts); again changes nothing; one Reddit kept is a failure', async () => {
    const unpublish = (postId: string) => h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/unpublish`, headers: h.tenant.headers, payload: {} });
    const res = await post({ content: 'Posted, then taken back\nThe body.', publishNow: true, platforms: target1() });
    expect(res.statusCode, res.body).toBe(201);
    const { _id: postId, platforms: [t] } = res.json().post;
    for (const outcome of ['deleted', 'already_removed']) {
      const out = await unpublish(postId);
      expect(out.json()).toMatchObject({ success: true, post: { status: 'cancelled' }, results: [{ platform: 'reddit', outcome }] });
    }
    expect(sim.posts.find((p) => p.id === t.platformPostId)).toMatchObject({ author: '[deleted]', selftext: '[deleted]' });
    expect(mine('Posted, then taken back')).toEqual([]);
    // Reddit answers {} even when it deletes nothing (here: the post is someone else's): read back, it is a failure.
    const other = (await post({ content: 'Not ours after all', publishNow: true, platforms: target1() })).json().post;
    sim.posts.find((p) => p.id === other.platforms[0].platformPostId)!.author = 'someone_else';
    const kept = (await unpublish(other._id)).json();
    expect(kept).toMatchObject({ success: false, results: [{ platform: 'reddit', outcome: 'failed', error: expect.stringMatching(/did not delete/) }] });
  });

  it('an account connected before Herald asked for the edit scope: the delete is refused and the result says to reconnect', async () => {
    const res = await post({ content: 'Kept by an old token', publishNow: true, platforms: target1() });
    expect(res.statusCode, res.body).toBe(201);
    const ua = { 'user-agent': 'test:herald-contract:1.0 (by /u/herald_sim)' };
    const au = await fetch(`${sim.url}/api/v1/authorize?${new URLSearchParams({ client_id: sim.clientId, response_type: 'code', state: 's', redirect_uri: 'https://h.example/cb', duration: 'temporary', scope: 'identity submit read' })}`, { redirect: 'manual', headers: ua });
    const code = new URL(au.headers.get('location')!).searchParams.get('code')!;
    const tr = await fetch(`${sim.url}/api/v1/access_token`, { method: 'POST', headers: { ...ua, authorization: `Basic ${Buffer.from(`${sim.clientId}:${sim.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'https://h.example/cb' }) });
    const creds = await h.credentials();
    const seal = (c: object) => h.ctx.db.query('UPDATE accounts SET credentials = $2 WHERE id = $1', [h.accountId, h.ctx.services.secrets.sealJson(c)]);
    await seal({ ...creds, accessToken: ((await tr.json()) as { access_token: string }).access_token });
    try {
      const out = await h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${res.json().post._id}/unpublish`, headers: h.tenant.headers, payload: {} });
      expect(out.json()).toMatchObject({ success: false, results: [{ platform: 'reddit', outcome: 'failed', error: expect.stringMatching(/reconnect the Reddit account.*edit permission/) }] });
      expect(mine('Kept by an old token')).toHaveLength(1);
    } finally {
      await seal(creds);
    }
  });

  it('the simulator\'s POST /api/del: needs the edit scope; deletes only the user\'s own post and answers {} either way', async () => {
    const ua = { 'user-agent': 'test:herald-contract:1.0 (by /u/herald_sim)' };
    const au = await fetch(`${sim.url}/api/v1/authorize?${new URLSearchParams({ client_id: sim.clientId, response_type: 'code', state: 's', redirect_uri: 'https://h.example/cb', duration: 'temporary', scope: 'identity submit' })}`, { redirect: 'manual', headers: ua });
    const code = new URL(au.headers.get('location')!).searchParams.get('code')!;
    const tr = await fetch(`${sim.url}/api/v1/access_token`, { method: 'POST', headers: { ...ua, authorization: `Basic ${Buffer.from(`${sim.clientId}:${sim.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'https://h.example/cb' }) });
    const narrow = ((await tr.json()) as { access_token: string }).access_token;
    const del = (tok: string, id: string) => fetch(`${sim.url}/api/del`, { method: 'POST', headers: { ...ua, authorization: `bearer ${tok}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ id }) });
    const own = sim.addPost('test', 'mine to delete');
    const theirs = sim.posts.find((p) => p.author !== sim.user.name && p.author !== '[deleted]')!;
    const refused = await del(narrow, `t3_${own.id}`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: 'Forbidden', error: 403 });
    const tok = (await h.credentials()).accessToken as string;
    const answer = await del(tok, `t3_${theirs.id}`);
    expect([answer.status, await answer.json()]).toEqual([200, {}]);
    expect(theirs.author).not.toBe('[deleted]');
    expect((await del(tok, 't3_zzzzzz')).status).toBe(200);
    expect((await del(tok, `t3_${own.id}`)).status).toBe(200);
    expect(own).toMatchObject({ author: '[deleted]', selftext: '[deleted]' });
  });

  it('publishes a text post: title from the first line, the rest as the body, to the default subreddit', async () => {
    const res = await post({ content: 'Hello Reddit from Herald\nThis is the **body**.', publishNow: true, platforms: target1() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^[0-9a-z]+$/);
    expect(t.platformPostUrl).toBe(`https://www.reddit.com/r/test/comments/${t.platformPostId}/`);
    const p = sim.posts.find((x) => x.id === t.platformPostId)!;
    expect(p).toMatchObject({ subreddit: 'test', title: 'Hello Reddit from Herald', selftext: 'This is the **body**.', kind: 'self' });
  });

  it('publishes a link post to platformSpecificData.subreddit with platformSpecificData.title, nsfw and flair', async () => {
    const res = await post({ content: 'A link worth reading', publishNow: true, platforms: target1({ subreddit: 'herald', title: 'A link worth reading', url: 'https://example.com/article', nsfw: true, flairText: 'News' }) });
    expect(res.statusCode, res.body).toBe(201);
    const p = sim.posts.find((x) => x.id === res.json().post.platforms[0].platformPostId)!;
    expect(p).toMatchObject({ subreddit: 'herald', title: 'A link worth reading', kind: 'link', url: 'https://example.com/article', over_18: true, link_flair_text: 'News' });
  });

  it('publishes an image post: lease, S3 upload, submit, then found in the submitted listing', async () => {
    const files = await h.upload([{ filename: 'cat.png', contentType: 'image/png', data: makePng(4, 4) }]);
    const res = await post({ content: 'A picture of a cat', publishNow: true, mediaItems: files, platforms: target1({ subreddit: 'herald' }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    const p = mine('A picture of a cat');
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({ kind: 'image', subreddit: 'herald' });
    expect(p[0].url).toContain('/__s3/reddit-uploaded-media/');
    expect(t.platformPostId).toBe(p[0].id);
    expect(t.platformPostUrl).toMatch(new RegExp(`^https://www\\.reddit\\.com/r/herald/comments/${p[0].id}/`));
  });

  it('publishes a gallery (2-20 images): each uploaded, then submit_gallery_post with the asset ids', async () => {
    const files = await h.upload([1, 2, 3].map((i) => ({ filename: `g${i}.png`, contentType: 'image/png', data: makePng(3, i) })));
    const res = await post({ content: 'Three pictures', publishNow: true, mediaItems: files, platforms: target1() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostUrl).toBe(`https://www.reddit.com/gallery/${t.platformPostId}`);
    expect(mine('Three pictures')).toEqual([expect.objectContaining({ kind: 'gallery', subreddit: 'test', id: t.platformPostId })]);
  });

  it('image post whose submit answer was lost: verify waits until Reddit shows it, no duplicate', async () => {
    sim.addFault({ op: 'submit', kind: 'drop_after_create', count: 1 });
    const files = await h.upload([{ filename: 'late.png', contentType: 'image/png', data: makePng(5, 5) }]);
    const id = (await post({ content: 'late picture', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: files, platforms: target1() })).json().post._id;
    await runDue(id);
    expect((await target(id)).status).toBe('pending');
    for (let i = 0; i < 3 && (await target(id)).status !== 'published'; i++) {
      await new Promise((r) => setTimeout(r, 350));
      await runDue(id);
    }
    const t = await target(id);
    expect(t.status).toBe('published');
    expect(mine('late picture')).toHaveLength(1);
    expect(t.platform_post_id).toBe(mine('late picture')[0].id);
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = sim.calls.get('POST /api/submit') ?? 0;
    const long = await post({ content: 'x'.repeat(301), publishNow: true, platforms: target1() });
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content.join()).toMatch(/reddit\.title\.max_length/);
    const noTitle = await post({ content: 'x', publishNow: true, mediaItems: [{ type: 'image', url: 'https://example.com/a.png' }], platforms: [{ platform: 'reddit', accountId: h.accountId, customContent: '   ' }] });
    expect(noTitle.statusCode).toBe(400);
    expect(JSON.stringify(noTitle.json().details.fields)).toMatch(/reddit\.title\.required/);
    const many = await post({ content: 'many', publishNow: true, mediaItems: Array.from({ length: 21 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.png` })), platforms: target1() });
    expect(many.json().details.fields.mediaItems.join()).toMatch(/reddit\.media\.gallery_max/);
    const video = await post({ content: 'vid', publishNow: true, mediaItems: [{ type: 'video', url: 'https://example.com/a.mp4' }], platforms: target1() });
    expect(video.json().details.fields['mediaItems.0'].join()).toMatch(/reddit\.media\.video_unsupported/);
    const both = await post({ content: 'both', publishNow: true, mediaItems: [{ type: 'image', url: 'https://example.com/a.png' }], platforms: target1({ url: 'https://example.com' }) });
    expect(both.json().details.fields['platforms.0.platformSpecificData.url'].join()).toMatch(/reddit\.post\.link_or_image/);
    const badUrl = await post({ content: 'bad url', publishNow: true, platforms: target1({ url: 'ftp://example.com' }) });
    expect(badUrl.json().details.fields['platforms.0.platformSpecificData.url'].join()).toMatch(/reddit\.link\.url/);
    const badSr = await post({ content: 'bad sr', publishNow: true, platforms: target1({ subreddit: 'no spaces here' }) });
    expect(badSr.json().details.fields['platforms.0.platformSpecificData.subreddit'].join()).toMatch(/reddit\.subreddit\.name/);
    const flair = await post({ content: 'flair', publishNow: true, platforms: target1({ flairText: 'f'.repeat(65) }) });
    expect(flair.json().details.fields['platforms.0.platformSpecificData.flairText'].join()).toMatch(/reddit\.flair\.text/);
    const body = await post({ content: `title\n${'b'.repeat(40_001)}`, publishNow: true, platforms: target1() });
    expect(body.json().details.fields.content.join()).toMatch(/reddit\.text\.max_length/);
    expect(sim.calls.get('POST /api/submit') ?? 0).toBe(before);
  });

  it('no subreddit (none given, no default) is refused when the post is created, naming the rule', async () => {
    const id = await h.connectNew();
    const before = sim.calls.get('POST /api/submit') ?? 0;
    const res = await post({ content: 'nowhere to go', publishNow: true, platforms: [{ platform: 'reddit', accountId: id }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields['platforms.0.platformSpecificData.subreddit'].join()).toMatch(/reddit\.subreddit\.required/);
    expect(sim.calls.get('POST /api/submit') ?? 0).toBe(before);
  });

  it('Reddit\'s own refusals (json.errors) fail the target with Reddit\'s code and text, not retried', async () => {
    // The subreddit stops taking text posts after the post was scheduled: Reddit's refusal at publish time.
    const id = (await post({ content: 'a text post', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1({ subreddit: 'herald' }) })).json().post._id;
    sim.subreddits.get('herald')!.submission_type = 'link';
    try {
      await runDue(id);
    } finally {
      sim.subreddits.get('herald')!.submission_type = 'any';
    }
    expect(await target(id)).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/NO_SELFS/) });
    const gone = await post({ content: 'to a missing sub', publishNow: true, platforms: target1({ subreddit: 'nosuchsub' }) });
    expect(gone.json().platformResults[0].error).toMatch(/SUBREDDIT_NOEXIST/);
  });
});

describe('Reddit: rules that used to fail only at publish time are refused when the post is created', () => {
  /** The 400's message for `field`, which names the rule as `[rule <id>]`. */
  const refused = async (payload: object, field: string) => {
    const before = sim.calls.get('POST /api/submit') ?? 0;
    const res = await post(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(sim.calls.get('POST /api/submit') ?? 0).toBe(before);
    const fields = res.json().details.fields as Record<string, string[]>;
    expect(Object.keys(fields), JSON.stringify(fields)).toContain(field);
    return fields[field].join(' ');
  };
  const later = '2030-01-01T00:00:00Z';

  it('body text on a link or image post (Reddit would drop it)', async () => {
    expect(await refused({ content: 'A link\nwith a body', scheduledFor: later, platforms: target1({ url: 'https://example.com/x' }) }, 'content')).toMatch(/\[rule reddit\.body\.not_carried\]/);
  });

  it('an image format Reddit does not take (WebP)', async () => {
    expect(await refused({ content: 'A picture', scheduledFor: later, mediaItems: [{ type: 'image', url: 'https://example.com/a.webp', mimeType: 'image/webp' }], platforms: target1() }, 'mediaItems.0'))
      .toMatch(/\[rule reddit\.image\.format\]/);
  });

  it('the subreddit\'s submission type, read from /r/{sr}/about with the account\'s token', async () => {
    expect(await refused({ content: 'A link', scheduledFor: later, platforms: target1({ subreddit: 'selfonly', url: 'https://example.com/y' }) }, 'platforms.0.platformSpecificData.subreddit'))
      .toMatch(/\[rule reddit\.subreddit\.link_posts_not_allowed\]/);
    expect(await refused({ content: 'A text post', scheduledFor: later, platforms: target1({ subreddit: 'linksonly' }) }, 'platforms.0.platformSpecificData.subreddit'))
      .toMatch(/\[rule reddit\.subreddit\.text_posts_not_allowed\]/);
  });

  it('the subreddit\'s post requirements (flair, title and body), read from post_requirements', async () => {
    expect(await refused({ content: 'Needs a flair', scheduledFor: later, platforms: target1({ subreddit: 'flairreq' }) }, 'platforms.0.platformSpecificData.flairId'))
      .toMatch(/\[rule reddit\.subreddit\.flair_required\]/);
    expect(await refused({ content: 'short', scheduledFor: later, platforms: target1({ subreddit: 'titlelen' }) }, 'content')).toMatch(/\[rule reddit\.subreddit\.title_length\]/);
    expect(await refused({ content: 'Title only', scheduledFor: later, platforms: target1({ subreddit: 'bodyreq' }) }, 'content')).toMatch(/\[rule reddit\.subreddit\.body_policy\]/);
    const ok = await post({ content: 'With a flair', scheduledFor: later, platforms: target1({ subreddit: 'flairreq', flairId: 'a1b2c3' }) });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('a subreddit\'s rules are read once and kept for the next posts', async () => {
    const about = () => sim.calls.get('GET /r/:sr/about') ?? 0;
    const first = await post({ content: 'First of two', scheduledFor: later, platforms: target1({ subreddit: 'bodylen' }) });
    expect(first.statusCode, first.body).toBe(201);
    const after = about();
    const second = await post({ content: `Second of two\n${'b'.repeat(101)}`, scheduledFor: later, platforms: target1({ subreddit: 'bodylen' }) });
    expect(second.statusCode).toBe(400);
    expect(second.json().details.fields.content.join(' ')).toMatch(/\[rule reddit\.subreddit\.body_length\]/);
    expect(about()).toBe(after);
  });

  it('when the post\'s subreddit changes (update), the new subreddit\'s rules apply', async () => {
    const res = await post({ content: 'A link', scheduledFor: later, platforms: target1({ subreddit: 'herald', url: 'https://example.com/z' }) });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().post._id;
    const upd = await h.ctx.app.inject({ method: 'PUT', url: `/v1/posts/${id}`, headers: h.tenant.headers, payload: { platforms: target1({ subreddit: 'selfonly', url: 'https://example.com/z' }) } });
    expect(upd.statusCode, upd.body).toBe(400);
    expect(upd.json().details.fields['platforms.0.platformSpecificData.subreddit'].join(' ')).toMatch(/\[rule reddit\.subreddit\.link_posts_not_allowed\]/);
  });

  it('a subreddit Reddit cannot answer for (5xx) does not block the post: Reddit checks at publish time', async () => {
    sim.addFault({ op: 'read', kind: 'server_error', count: 1 });
    const res = await post({ content: 'A picture', scheduledFor: later, mediaItems: [{ type: 'image', url: 'https://example.com/a.png', mimeType: 'image/png' }], platforms: target1({ subreddit: 'noimages' }) });
    expect(res.statusCode, res.body).toBe(201);
  });
});

let unique = 0;
describe('Reddit: the rule table against the simulator', () => {
  simulatorRuleCases({
    cases,
    publisher: harnessPublisher(h, 'reddit'),
    media: () => media,
    complete: (p) => ({
      ...p,
      platformSpecificData: { subreddit: 'test', ...p.platformSpecificData },
      // An image post is found in the account's submitted listing by its title: one title per post.
      text: p.mediaItems.length === 1 && p.text.trim() ? p.text.replace(/^[^\n]*/, (first) => `${first} #${++unique}`) : p.text,
    }),
  });
});

contract.failures({
  rateLimit: {
    title: 'HTTP 429: the target waits for x-ratelimit-reset (seconds from now) and then publishes',
    waiting(t) {
      expect(t.run_at!.getTime()).toBeGreaterThan(Date.now() + 80_000);
      expect(t.run_at!.getTime()).toBeLessThan(Date.now() + 100_000);
    },
  },
  serverError: {},
  expired: {
    title: 'expired access token: refreshed with the same (non-rotating) refresh token and published, twice',
    expire: () => { sim.expireAccessTokens(); return (after) => expect(after.refreshToken).toBeTruthy(); },
    twice: true,
  },
  lostAnswer: { title: 'answer lost after Reddit created the post: verify finds it in the submitted listing, no duplicate' },
  lostAnswerBurst: { title: 'answer lost, then 150 newer posts: verify pages the submitted listing (after) past them and finds it, no second submit', n: 150, minLists: 2 }, // at most 100 a call
  verifyUnreadable: { title: 'the submitted listing fails during verify (429): not submitted again, asked again later' },
  lookBack: { title: 'connection dropped before Reddit created anything, 150 posts since: the complete look-back finds nothing, submitted once', n: 150, minLists: 2 },
  dropped: { title: 'connection dropped before Reddit created anything: verify says not published, committed once' },
  more() {
    it('RATELIMIT in json.errors: waits the minutes Reddit names', async () => {
      sim.addFault({ op: 'submit', kind: 'ratelimit_error', count: 1 });
      const id = (await post({ content: 'doing that a lot', scheduledFor: '2030-01-01T00:00:00Z', platforms: target1() })).json().post._id;
      await runDue(id);
      const waiting = await target(id);
      expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
      expect(waiting.error_message).toMatch(/RATELIMIT/);
      expect(waiting.run_at!.getTime()).toBeGreaterThan(Date.now() + 110_000);
      await runDue(id);
      expect((await target(id)).status).toBe('published');
    });
  },
});

describe('Reddit: feed and search', () => {
  it('reads a subreddit feed with Herald\'s item fields and after/before cursors', async () => {
    const res = await get(`/v1/reddit/feed?accountId=${h.accountId}&subreddit=herald&limit=5`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.items).toHaveLength(5);
    expect(body.items[0]).toEqual({
      id: expect.any(String), fullname: expect.stringMatching(/^t3_/), title: expect.any(String), author: expect.any(String), subreddit: 'herald',
      url: expect.any(String), permalink: expect.stringMatching(/^https:\/\/www\.reddit\.com\/r\/herald\/comments\//), selftext: expect.any(String),
      createdUtc: expect.any(Number), score: expect.any(Number), numComments: expect.any(Number), over18: expect.any(Boolean), stickied: expect.any(Boolean),
      flairText: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
    });
    expect(body.after).toBe(body.items[4].fullname);
    expect(body.before).toBeNull();
    const next = (await get(`/v1/reddit/feed?accountId=${h.accountId}&subreddit=herald&limit=5&after=${body.after}`)).json();
    expect(next.items[0].id).not.toBe(body.items[0].id);
    expect(next.before).toBe(next.items[0].fullname);
    const top = await get(`/v1/reddit/feed?accountId=${h.accountId}&sort=top&t=all&limit=100`);
    expect(top.statusCode).toBe(200);
    const scores = top.json().items.map((i: { score: number }) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('searches, by default sorted by new, optionally within a subreddit', async () => {
    const all = await get(`/v1/reddit/search?accountId=${h.accountId}&q=cats`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().items.length).toBeGreaterThan(0);
    const created = all.json().items.map((i: { createdUtc: number }) => i.createdUtc);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    for (const i of all.json().items) expect(i.title.toLowerCase()).toContain('cats');
    const inSub = (await get(`/v1/reddit/search?accountId=${h.accountId}&q=cats&subreddit=test`)).json();
    for (const i of inSub.items) expect(i.subreddit).toBe('test');
  });

  it('validates: accountId required, q required for search, limit 1-100, sort values, t only with top', async () => {
    const field = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      return Object.keys(res.json().details.fields);
    };
    expect(await field('/v1/reddit/feed')).toContain('accountId');
    expect(await field(`/v1/reddit/search?accountId=${h.accountId}`)).toContain('q');
    expect(await field(`/v1/reddit/feed?accountId=${h.accountId}&limit=0`)).toContain('limit');
    expect(await field(`/v1/reddit/feed?accountId=${h.accountId}&limit=101`)).toContain('limit');
    expect(await field(`/v1/reddit/feed?accountId=${h.accountId}&sort=best`)).toContain('sort');
    expect(await field(`/v1/reddit/search?accountId=${h.accountId}&q=x&sort=rising`)).toContain('sort');
    expect(await field(`/v1/reddit/feed?accountId=${h.accountId}&t=week`)).toContain('t');
    expect(await field(`/v1/reddit/feed?accountId=${h.accountId}&sort=top&t=decade`)).toContain('t');
    const other = await createTenant(h.ctx);
    expect((await get(`/v1/reddit/feed?accountId=${h.accountId}`, other)).statusCode).toBe(404);
    expect((await get(`/v1/reddit/search?accountId=${h.accountId}&q=x`, other)).statusCode).toBe(404);
  });

  it('Reddit\'s rate limit on a read answers 429', async () => {
    sim.addFault({ op: 'read', kind: 'rate_limit', count: 1 });
    const res = await get(`/v1/reddit/feed?accountId=${h.accountId}`);
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('RATE_LIMITED');
  });
});

contract.revoked({
  title: 'marks the account for reconnection; the target says so',
  revoke: () => {
    sim.revokeAll();
    return async () => {
      // The pickers say so too instead of calling Reddit.
      const subs = await get(`/v1/accounts/${h.accountId}/reddit-subreddits`);
      expect(subs.statusCode).toBe(400);
      expect(subs.json().error).toMatch(/reconnect/);
    };
  },
});

contract.refreshJob({
  title: 'refreshes tokens that expire soon (keeping the refresh token), and marks an account whose refresh is refused',
  expire: (id) => h.dueForRefresh(id),
  minTtlMs: 50 * 60_000,
  check: (_row, creds) => expect(creds.refreshToken).toBeTruthy(),
  refuse: () => sim.revokeAll(),
});

contract.metrics({
  payload: (content) => ({ content, platforms: target1({ subreddit: 'test' }) }),
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    return { impressions: null, reach: null, views: null, likes: c.likes, comments: c.comments, shares: null, saves: null, clicks: null };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.revokeAll(),
});
