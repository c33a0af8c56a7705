/**
 * Facebook Pages adapter against the Graph simulator, through the real app: OAuth connect
 * with the page-selection step (callback -> dashboard picker, API completion -> tempToken and
 * pages), switching pages, every post kind (text, link, one and several photos, video, photo
 * and video stories, first comment), every rule refused before any platform call, and the
 * failure modes (rate limit, 5xx, revoked token, answer lost after the post, call dropped).
 */
import { describe, expect, it } from 'vitest';
import { startFacebookSimulator, type FacebookSimulator } from '../../sim/facebook/server.ts';
import { loadConfig } from '../../src/config.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { FacebookAdapter } from '../../src/platforms/facebook/adapter.ts';
import { facebookOAuth } from '../../src/platforms/facebook/oauth.ts';
import type { PlatformAdapter } from '../../src/platforms/types.ts';
import { createProfile, createTenant } from '../support/app.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import type { PublishRequest } from '../../src/platforms/types.ts';
import { fullPost } from '../rules/cases.ts';
import { cases as facebookRuleCases } from '../rules/facebook.cases.ts';
import { sendPastHerald, harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

let sim: FacebookSimulator;
let media: MediaServer;
let img: string[];
let video: string;
const h = platformHarness({
  platform: 'facebook', tag: 'fb',
  async setup() {
    sim = await startFacebookSimulator({ pageSize: 2, processingPolls: 1, mediaFetch: { allowPrivate: true } }); // media is on a loopback server
    media = await startMediaServer();
    img = [1, 2, 3].map((i) => media.put(`/img${i}.png`, makeImage({ format: 'png', width: 60 + i, height: 60 }), 'image/png'));
    video = media.put('/clip.mp4', makeVideo({ seconds: 3, width: 540, height: 960 }), 'video/mp4'); // valid as a story too
    const env = platformEnv('facebook', sim);
    const cfg = loadConfig({ DATABASE_URL: 'postgres://unused/x', HERALD_SECRET_KEY: '0'.repeat(64), ...env });
    const app = { clientId: sim.clientId, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url };
    // Story media must be on HTTPS in production; the loopback media server is plain HTTP.
    const adapters = createAdapterRegistry(cfg, { facebook: new FacebookAdapter(facebookOAuth, () => app, { storyRequireHttps: false, pollIntervalMs: 10 }) as unknown as PlatformAdapter });
    return { env, deps: { adapters } };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});
let accountId: string;
const on = (extra: object = {}) => [{ platform: 'facebook', accountId, ...extra }];
const post = (payload: object) => h.post(payload);
const runDue = (postId: string) => h.runDue(postId);
const target = (postId: string) => h.target(postId);
const publishCalls = () => ['POST /:v/:page/feed', 'POST /:v/:page/photos', 'POST /:v/:page/videos', 'POST /:v/:page/photo_stories', 'POST /:v/:page/video_stories']
  .reduce((n, k) => n + (sim.calls.get(k) ?? 0), 0);

async function startFlow(profile: string) {
  const start = await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/facebook?profileId=${profile}`, headers: h.tenant.headers });
  expect(start.statusCode, start.body).toBe(200);
  const { authUrl, state } = start.json();
  const consent = await fetch(authUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  return { authUrl: authUrl as string, state: state as string, callback: new URL(consent.headers.get('location')!) };
}

const contract = platformContract({
  platform: 'facebook', name: 'Facebook', h,
  payload: (content, c) => ({ content, ...(c === 'serverError' ? { mediaItems: [{ type: 'image', url: img[2] }] } : {}), platforms: on() }),
  fault: (kind, c) => sim.addFault(kind === 'list_unreadable' ? { op: 'list', kind: 'rate_limit', count: 1 }
    : { op: c === 'serverError' ? 'photo' : 'publish', kind, count: 1 }),
  created: (content) => sim.posts.filter((x) => x.message === content),
  creates: () => sim.calls.get('POST /:v/:page/feed') ?? 0,
  lists: () => sim.calls.get('GET /:v/:page/feed') ?? 0,
  bury: (n, prefix) => { for (let i = 0; i < n; i++) sim.addPost(sim.pages[0].id, 'feed', `${prefix} ${i}`); },
});

contract.connectOwn('connecting a page', () => {
  it('callback stores no account yet and sends the browser to the page picker with a tempToken', async () => {
    const { authUrl, callback } = await startFlow(h.profileId);
    const au = new URL(authUrl);
    expect(au.pathname).toBe('/v25.0/dialog/oauth');
    expect(au.searchParams.get('scope')).toContain('pages_manage_posts,');
    expect(au.searchParams.has('code_challenge')).toBe(false);
    const done = await h.ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(done.statusCode).toBe(302);
    const to = new URL(done.headers.location as string);
    expect(to.pathname).toBe('/dashboard/connect/facebook/select-page');
    expect(to.searchParams.get('profileId')).toBe(h.profileId);
    const tempToken = to.searchParams.get('tempToken')!;
    expect(tempToken.length).toBeGreaterThan(20);
    const accounts = (await h.ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${h.profileId}`, headers: h.tenant.headers })).json().accounts;
    expect(accounts).toHaveLength(0);
    const { rows } = await h.ctx.db.query<{ payload: string }>('SELECT payload FROM connect_selections WHERE token = $1', [tempToken]);
    expect(rows[0].payload).toMatch(/^v1:/);

    // Only the pages the user administers (all pages of the paged /me/accounts are read).
    const list = await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/facebook/select-page?profileId=${h.profileId}&tempToken=${tempToken}`, headers: h.tenant.headers });
    expect(list.statusCode, list.body).toBe(200);
    const pages = list.json().pages;
    expect(pages.map((p: { name: string }) => p.name)).toEqual(['Herald Bakery', 'Herald Books']);
    expect(pages[0]).toMatchObject({ id: sim.pages[0].id, category: 'Bakery', tasks: expect.arrayContaining(['MANAGE', 'CREATE_CONTENT']), access_token: expect.any(String) });

    const notAdmin = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: h.tenant.headers, payload: { profileId: h.profileId, pageId: sim.pages[2].id, tempToken } });
    expect(notAdmin.statusCode).toBe(403);
    expect(notAdmin.json().error).toMatch(/do not administer/);

    const chosen = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: h.tenant.headers, payload: { profileId: h.profileId, pageId: sim.pages[0].id, tempToken, userProfile: { id: sim.user.id, name: sim.user.name } } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ message: 'Facebook page connected successfully', account: { platform: 'facebook', username: 'Herald Bakery', displayName: 'Herald Bakery', isActive: true, selectedPageName: 'Herald Bakery' } });
    accountId = h.accountId = chosen.json().account._id;
    expect(chosen.json().account.accountId).toBe(accountId);
    const { rows: acc } = await h.ctx.db.query<{ credentials: string; platform_user_id: string }>('SELECT credentials, platform_user_id FROM accounts WHERE id = $1', [accountId]);
    expect(acc[0].platform_user_id).toBe(sim.pages[0].id);
    expect(acc[0].credentials).toMatch(/^v1:/);

    const reuse = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: h.tenant.headers, payload: { profileId: h.profileId, pageId: sim.pages[0].id, tempToken } });
    expect(reuse.statusCode).toBe(400);
    expect(JSON.stringify(reuse.json())).toMatch(/already used/);
  });

  it('a tempToken is bound to its tenant and profile', async () => {
    const { callback } = await startFlow(h.profileId);
    const tempToken = new URL((await h.ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search })).headers.location as string).searchParams.get('tempToken')!;
    const other = await createTenant(h.ctx);
    const otherProfile = await createProfile(h.ctx, other);
    const foreign = await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/facebook/select-page?profileId=${otherProfile}&tempToken=${tempToken}`, headers: other.headers });
    expect(foreign.statusCode).toBe(400);
    const p2 = await createProfile(h.ctx, h.tenant);
    const wrongProfile = await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/facebook/select-page?profileId=${p2}&tempToken=${tempToken}`, headers: h.tenant.headers });
    expect(wrongProfile.statusCode).toBe(400);
  });

  it('API completion (POST /v1/connect/facebook) answers a tempToken and the pages, not an account', async () => {
    const { state, callback } = await startFlow(h.profileId);
    const res = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook', headers: h.tenant.headers, payload: { code: callback.searchParams.get('code'), state, profileId: h.profileId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account).toBeUndefined();
    expect(res.json().tempToken).toEqual(expect.any(String));
    expect(res.json().pages.map((p: { id: string }) => p.id)).toEqual([sim.pages[0].id, sim.pages[1].id]);
  });

  it('lists the pages the account can switch to with GET /v1/accounts/{id}/facebook-page (administered pages only, no tokens)', async () => {
    const res = await h.ctx.app.inject({ method: 'GET', url: `/v1/accounts/${accountId}/facebook-page`, headers: h.tenant.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      selectedPageId: sim.pages[0].id,
      pages: [sim.pages[0], sim.pages[1]].map((p) => ({ id: p.id, name: p.name, category: expect.any(String), picture: `https://scontent.xx.fbcdn.net/${p.id}.jpg` })),
    });
    expect(res.body).not.toContain('access_token');
  });

  it('switches the page with PUT /v1/accounts/{id}/facebook-page (administered pages only)', async () => {
    const bad = await h.ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${accountId}/facebook-page`, headers: h.tenant.headers, payload: { selectedPageId: sim.pages[2].id } });
    expect(bad.statusCode).toBe(403);
    const ok = await h.ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${accountId}/facebook-page`, headers: h.tenant.headers, payload: { selectedPageId: sim.pages[1].id } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ selectedPage: { id: sim.pages[1].id, name: 'Herald Books' }, account: { selectedPageName: 'Herald Books', username: 'Herald Books' } });
    // The account shows the new page's picture, not the previous page's.
    expect(ok.json().account.profilePicture).toBe(`https://scontent.xx.fbcdn.net/${sim.pages[1].id}.jpg`);
    const listed = await h.ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: h.tenant.headers });
    expect(listed.json().accounts.find((a: { _id: string }) => a._id === accountId).profilePicture).toBe(`https://scontent.xx.fbcdn.net/${sim.pages[1].id}.jpg`);
    const res = await post({ content: 'from the book store', publishNow: true, platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim.posts.at(-1)).toMatchObject({ pageId: sim.pages[1].id, message: 'from the book store' });
    const back = await h.ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${accountId}/facebook-page`, headers: h.tenant.headers, payload: { selectedPageId: sim.pages[0].id } });
    expect(back.statusCode).toBe(200);
    expect(back.json().account.profilePicture).toBe(`https://scontent.xx.fbcdn.net/${sim.pages[0].id}.jpg`);
  });
});

describe('Facebook: publishing with the Page token', () => {
  const page = () => sim.pages[0].id;

  it('publishes text and a link to the page feed, with the permalink', async () => {
    const res = await post({ content: 'Fresh bread today', publishNow: true, platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(new RegExp(`^${page()}_\\d+$`));
    expect(t.platformPostUrl).toMatch(/^https:\/\/www\.facebook\.com\//);
    const link = await post({ content: 'Our menu', publishNow: true, platforms: on({ platformSpecificData: { link: 'https://example.com/menu' } }) });
    expect(link.statusCode, link.body).toBe(201);
    expect(sim.posts.at(-1)).toMatchObject({ kind: 'feed', link: 'https://example.com/menu', message: 'Our menu' });
  });

  contract.unpublish({
    title: 'unpublishes a Page post: DELETE /{post-id} with the Page token removes it; again changes nothing; one deleted on Facebook first (Graph 100/33) counts as deleted',
    publish: (content) => post({ content, publishNow: true, platforms: on() }),
    onPlatform: (id) => sim.posts.some((x) => x.id === id),
    removeOnPlatform: (id) => { sim.posts.splice(sim.posts.findIndex((x) => x.id === id), 1); },
  });

  it('publishes one photo and several photos (uploaded unpublished, then attached_media)', async () => {
    const one = await post({ content: 'one loaf', publishNow: true, mediaItems: [{ type: 'image', url: img[0] }], platforms: on() });
    expect(one.statusCode, one.body).toBe(201);
    expect(sim.posts.at(-1)!.photos).toHaveLength(1);
    const many = await post({ content: 'three loaves', publishNow: true, mediaItems: img.map((url) => ({ type: 'image', url })), platforms: on() });
    expect(many.statusCode, many.body).toBe(201);
    const p = sim.posts.at(-1)!;
    expect(p.photos).toHaveLength(3);
    expect(p.photos.every((id) => sim.photos.get(id)?.published)).toBe(true);
  });

  it('publishes a video', async () => {
    const res = await post({ content: 'baking video', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim.posts.at(-1)).toMatchObject({ kind: 'video', message: 'baking video', videoUrl: video });
    expect(res.json().post.platforms[0].platformPostUrl).toMatch(/\/videos\//);
  });

  it('publishes photo and video stories (no caption sent)', async () => {
    const a = await post({ content: 'ignored caption', publishNow: true, mediaItems: [{ type: 'image', url: img[1] }], platforms: on({ platformSpecificData: { contentType: 'story' } }) });
    expect(a.statusCode, a.body).toBe(201);
    expect(sim.posts.at(-1)).toMatchObject({ kind: 'photo_story', message: '' });
    const v = await post({ content: '', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on({ platformSpecificData: { contentType: 'story' } }) });
    expect(v.statusCode, v.body).toBe(201);
    expect(sim.posts.at(-1)).toMatchObject({ kind: 'video_story', videoUrl: video });
  });

  it('posts the first comment and records it', async () => {
    const res = await post({ content: 'with a comment', publishNow: true, platforms: on({ platformSpecificData: { firstComment: 'Order at https://example.com' } }) });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().post.platforms[0].platformPostId;
    expect(sim.comments.find((c) => c.objectId === id)?.message).toBe('Order at https://example.com');
    expect((await target(res.json().post._id)).result?.extra?.firstComment).toMatchObject({ status: 'published', id: expect.any(String) });
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = publishCalls();
    const cases: Array<[object, RegExp]> = [
      [{ content: 'x'.repeat(63_207), platforms: on() }, /facebook\.text\.max_length/],
      [{ content: 'x', platforms: on({ platformSpecificData: { firstComment: 'c'.repeat(8001) } }) }, /facebook\.first_comment\.max_length/],
      [{ content: 'x', platforms: on({ platformSpecificData: { contentType: 'story' } }) }, /facebook\.story\.single_media/],
      [{ content: '', mediaItems: [{ type: 'image', url: img[0] }, { type: 'image', url: img[1] }], platforms: on({ platformSpecificData: { contentType: 'story' } }) }, /facebook\.story\.single_media/],
      [{ content: '', mediaItems: [{ type: 'image', url: 'https://example.com/a.webp' }], platforms: on({ platformSpecificData: { contentType: 'story' } }) }, /facebook\.story\.image_format/],
      [{ content: '', mediaItems: [{ type: 'video', url: 'https://example.com/a.webm' }], platforms: on({ platformSpecificData: { contentType: 'story' } }) }, /facebook\.story\.video_format/],
      [{ content: '', mediaItems: [{ type: 'image', url: img[0] }], platforms: on({ platformSpecificData: { contentType: 'story', firstComment: 'no' } }) }, /facebook\.story\.first_comment/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }, { type: 'video', url: video }], platforms: on() }, /facebook\.media\.single_video/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }, { type: 'image', url: img[0] }], platforms: on() }, /facebook\.media\.mixed/],
      [{ content: 'x', mediaItems: [{ type: 'document', url: 'https://example.com/a.pdf' }], platforms: on() }, /facebook\.media\.type/],
      [{ content: 'x', mediaItems: Array.from({ length: 11 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.png` })), platforms: on() }, /facebook\.media\.max_photos/],
      [{ content: 'x', platforms: on({ platformSpecificData: { link: 'ftp://x' } }) }, /facebook\.link\.url/],
    ];
    for (const [payload, rule] of cases) {
      const res = await post({ publishNow: true, ...payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
      expect(JSON.stringify(res.json().details.fields)).toMatch(rule);
    }
    expect(publishCalls()).toBe(before);
  });

  it('refuses a story on a plain-HTTP URL with the production adapter', async () => {
    const a = new FacebookAdapter(facebookOAuth, () => { throw new Error('no app'); });
    const v = a.validate({ text: '', mediaItems: [{ type: 'image', url: 'http://example.com/a.png' }], threadItems: [], platformSpecificData: { contentType: 'story' }, tags: [], visibility: 'public' });
    expect(v.map((x) => x.rule)).toEqual(['facebook.story.https_url']);
  });
});

describe('Facebook: story video rules that used to fail only at publish time are refused when the post is scheduled', () => {
  it('a 61 s, a 2 s and a 538x960 story video: 400 naming the rule, no platform call', async () => {
    const before = publishCalls();
    const [long, short, narrow] = await h.upload([
      { filename: 'long.mp4', contentType: 'video/mp4', data: makeVideo({ seconds: 61, width: 540, height: 960 }) },
      { filename: 'short.mp4', contentType: 'video/mp4', data: makeVideo({ seconds: 2, width: 540, height: 960 }) },
      { filename: 'narrow.mp4', contentType: 'video/mp4', data: makeVideo({ seconds: 3, width: 538, height: 960 }) },
    ]);
    const story = on({ platformSpecificData: { contentType: 'story' } });
    for (const [m, rule] of [[long, 'facebook.story.video_duration'], [short, 'facebook.story.video_duration'], [narrow, 'facebook.story.video_dimensions']] as const) {
      const res = await post({ content: '', publishNow: true, mediaItems: [m], platforms: story });
      expect(res.statusCode, `${rule}: ${res.body.slice(0, 300)}`).toBe(400);
      const fields = res.json().details.fields as Record<string, string[]>;
      const key = Object.keys(fields).find((k) => k === 'mediaItems.0' || k.endsWith('.mediaItems.0'));
      expect(key, JSON.stringify(fields)).toBeDefined();
      expect(fields[key!].join()).toContain(`[rule ${rule}]`);
    }
    expect(publishCalls()).toBe(before);
  });
});

describe('Facebook: the rule cases against the simulator (test/rules/facebook.cases.ts)', () => {
  const publisher = harnessPublisher(h, 'facebook', () => accountId);
  simulatorRuleCases({ cases: facebookRuleCases, publisher, media: () => media });

  it('the platform itself: facebook.story.video_format: a WebM story video turns to error (the rule-case helper generates MP4 only)', async () => {
    const { adapter, account } = await publisher();
    const url = media.put('/rules/story.webm', makeVideo({ seconds: 3, width: 540, height: 960, format: 'webm' }), 'video/webm');
    const err = await sendPastHerald(adapter, account, fullPost({ mediaItems: [{ type: 'video', url, mimeType: 'video/webm' }], platformSpecificData: { contentType: 'story' } }) as PublishRequest);
    expect(err?.message).toMatch(/video format is not supported \(webm\)/);
  }, 60_000);
});

contract.failedFirstComment({
  payload: (content, firstComment) => ({ content, platforms: on({ platformSpecificData: { firstComment } }) }),
  fault: () => sim.addFault({ op: 'comment', kind: 'server_error', count: 1 }),
  error: /unexpected error/,
});

contract.firstCommentOnVerify({
  payload: (content, firstComment) => ({ content, platforms: on({ platformSpecificData: { firstComment } }) }),
  comments: (objectId) => sim.comments.filter((c) => c.objectId === objectId).map((c) => ({ id: c.id, text: c.message })),
  titles: [
    'interrupted after the first comment was posted: verify reads the comments and records it, exactly one comment',
    'answer lost after the feed post, before the first comment: verify finds the post and comments once',
  ],
});

contract.failures({
  rateLimit: { title: 'rate limited (Graph code 32 with x-page-usage): the target waits and then publishes once' },
  serverError: { title: '5xx on the photo upload: retried, published once' },
  lostAnswer: { title: 'answer lost after the feed post: verify finds it in the page feed, no duplicate' },
  dropped: { title: 'feed call dropped before Facebook acted: verify finds nothing, the post is made once' },
  lostAnswerBurst: { title: 'answer lost, then 150 newer posts on the Page: verify pages the feed back past them and finds it, no second create', n: 150, minLists: 2 }, // the feed gives at most 100 a call
  verifyUnreadable: { title: 'the feed cannot be read during verify (rate limited): not committed again, asked again later' },
  lookBack: { title: 'call dropped before Facebook acted, 150 posts since: the complete look-back finds nothing, committed once', n: 150, minLists: 2 },
  more() {
    it('unreachable media: fails with Facebook\'s message, nothing published', async () => {
      const res = await post({ content: 'broken photo', publishNow: true, mediaItems: [{ type: 'image', url: `${media.url}/missing.png` }], platforms: on() });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/Missing or invalid image file/);
      expect(sim.posts.filter((p) => p.message === 'broken photo')).toHaveLength(0);
    });
    it('answer lost after a photo story: verify finds it among the page stories', async () => {
      sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1 });
      const before = sim.posts.filter((p) => p.kind === 'photo_story').length;
      const id = (await post({ content: '', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[2] }], platforms: on({ platformSpecificData: { contentType: 'story' } }) })).json().post._id;
      await runDue(id);
      await runDue(id);
      const t = await target(id);
      expect(t.status).toBe('published');
      expect(sim.posts.filter((p) => p.kind === 'photo_story').length).toBe(before + 1);
      expect(t.platform_post_id).toBe(sim.posts.filter((p) => p.kind === 'photo_story').at(-1)!.id);
    });
    it('answer lost after a photo post: verify matches the attached photo ids', async () => {
      sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1 });
      const id = (await post({ content: 'two loaves, unanswered', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: img.slice(0, 2).map((url) => ({ type: 'image', url })), platforms: on() })).json().post._id;
      await runDue(id);
      for (let i = 0; i < 3; i++) sim.addPost(sim.pages[0].id, 'feed', 'two loaves, unanswered'); // same text, other posts
      await runDue(id);
      const t = await target(id);
      expect(t.status).toBe('published');
      const created = sim.posts.filter((x) => x.message === 'two loaves, unanswered' && x.photos.length === 2);
      expect(created).toHaveLength(1);
      expect(t.platform_post_id).toBe(created[0].id);
    });
  },
});

contract.revoked({
  title: 'revoked page token (190/460): the account needs reconnecting and the target says so',
  revoke: () => sim.addFault({ op: 'publish', kind: 'revoked', count: 1 }),
});

contract.metrics({
  async connect() {
    const profile = await createProfile(h.ctx, h.tenant);
    const { callback } = await startFlow(profile);
    const done = await h.ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    const tempToken = new URL(done.headers.location as string).searchParams.get('tempToken')!;
    // The other page the user administers (the first one was disconnected by the revocation case).
    const chosen = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: h.tenant.headers, payload: { profileId: profile, pageId: sim.pages[1].id, tempToken } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    accountId = chosen.json().account._id;
    return accountId;
  },
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    return { impressions: null, reach: c.reach, views: null, likes: c.likes, comments: c.comments, shares: c.shares, saves: null, clicks: c.clicks };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.addFault({ op: 'metrics', kind: 'revoked', count: 1 }),
  missing: {
    title: 'a story has no insights: its target is unavailable, not zeros',
    payload: (content) => ({ content, mediaItems: [{ type: 'image', url: img[1] }], platforms: on({ platformSpecificData: { contentType: 'story' } }) }),
  },
});
