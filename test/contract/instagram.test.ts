/**
 * Instagram adapter against the Instagram simulator, through the real app: OAuth connect
 * (business accounts only; personal and creator accounts refused), every post kind (image,
 * carousel, video as a Reel with a cover, story), collaborators, user tags, first comment,
 * every rule refused before any platform call, and the failure modes (rate limit, 5xx,
 * processing error, refresh, revoked authorization, answer lost after media_publish, publish
 * call dropped, a container in doubt that turned ERROR or EXPIRED).
 */
import { describe, expect, it } from 'vitest';
import { startInstagramSimulator, type InstagramSimulator } from '../../sim/instagram/server.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { oauthConnect } from '../support/oauth.ts';
import type { PublishRequest } from '../../src/platforms/types.ts';
import { fullPost } from '../rules/cases.ts';
import { cases as instagramRuleCases } from '../rules/instagram.cases.ts';
import { sendPastHerald, harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

let sim: InstagramSimulator;
let media: MediaServer;
let img: string[];
let video: string;
let cover: string;
const h = platformHarness({
  platform: 'instagram', tag: 'ig',
  async setup() {
    sim = await startInstagramSimulator({ processingPolls: 1, minRefreshAgeSeconds: 0, mediaFetch: { allowPrivate: true } }); // media is on a loopback server
    media = await startMediaServer();
    img = [1, 2, 3].map((i) => media.put(`/img${i}.jpg`, makeImage({ format: 'jpeg', width: 60 + i, height: 60 }), 'image/jpeg'));
    video = media.put('/clip.mp4', makeVideo({ seconds: 3 }), 'video/mp4');
    cover = media.put('/cover.jpg', makeImage({ format: 'jpeg', width: 90, height: 160 }), 'image/jpeg');
    media.put('/huge-cover.jpg', Buffer.alloc(8 * 1024 * 1024 + 10, 1), 'image/jpeg');
    return { env: platformEnv('instagram', sim) };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});
const connect = (profile: string) => oauthConnect(h.ctx, h.tenant, 'instagram', profile);
const on = (extra: object = {}) => [{ platform: 'instagram', accountId: h.accountId, ...extra }];
const post = (payload: object) => h.post(payload);
const target = (postId: string) => h.target(postId);
const platformCalls = () => (sim.calls.get('POST /v25.0/:user/media') ?? 0) + (sim.calls.get('POST /v25.0/:user/media_publish') ?? 0);
const mediaOf = (id: string) => sim.media.find((m) => m.id === id)!;
const containerOf = (id: string) => sim.containers.get(mediaOf(id).container)!;
/** The container count does not change: the same container is published. */
const sameContainers = () => { const n = sim.containers.size; return () => expect(sim.containers.size).toBe(n); };

const contract = platformContract({
  platform: 'instagram', name: 'Instagram', h,
  payload: (content, c) => ({ content, mediaItems: [{ type: 'image', url: img[{ rateLimit: 0, serverError: 0, expired: 0, revoked: 0, lostAnswer: 1, dropped: 1 }[c as string] ?? 2] }], platforms: on() }),
  fault: (kind, c) => sim.addFault(kind === 'list_unreadable' ? { op: 'list', kind: 'server_error', count: 1 }
    : { op: c === 'serverError' ? 'create' : 'publish', kind, count: 1 }),
  // images only: the burst adds a Reel of the same caption
  created: (content) => sim.media.filter((m) => m.caption === content && m.media_type === 'IMAGE'),
  creates: () => sim.calls.get('POST /v25.0/:user/media_publish') ?? 0,
  lists: () => sim.calls.get('GET /v25.0/:user/media') ?? 0,
  bury(n, prefix) {
    for (let i = 0; i < n; i++) sim.addMedia(sim.users.business.id, `${prefix} ${i}`);
    if (prefix === 'burst') sim.addMedia(sim.users.business.id, 'buried under a burst', { media_type: 'VIDEO', media_product_type: 'REELS' }); // same caption, another type
  },
});

contract.connect({
  title: 'a business account: long-lived token stored sealed',
  username: () => 'herald_business',
  account: { username: 'herald_business' },
  minTtlMs: 50 * 86400_000,
  platformUserId: () => sim.users.business.id,
  authUrl(au) {
    expect(au.pathname).toBe('/oauth/authorize');
    expect(au.searchParams.get('scope')).toBe('instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments,instagram_business_manage_insights');
    expect(au.searchParams.has('code_challenge')).toBe(false);
  },
  first() {
    it('refuses personal and creator accounts with a clear error', async () => {
      for (const kind of ['personal', 'creator'] as const) {
        sim.nextLogin = kind;
        const { done } = await connect(h.profileId);
        const to = new URL(done.headers.location as string);
        expect(Object.fromEntries(to.searchParams)).toMatchObject({ error: 'connection_failed', platform: 'instagram' });
        const start = (await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/instagram?profileId=${h.profileId}`, headers: h.tenant.headers })).json();
        const code = new URL((await fetch(start.authUrl, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code');
        const res = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/instagram', headers: h.tenant.headers, payload: { code, state: start.state, profileId: h.profileId } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatch(new RegExp(`${kind} account; Herald publishes to Instagram business accounts only`));
      }
      sim.nextLogin = 'business';
      expect((await h.ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${h.profileId}`, headers: h.tenant.headers })).json().accounts).toHaveLength(0);
    });
  },
});

describe('Instagram: publishing (container, status polled, media_publish)', () => {
  it('publishes a single image with collaborators and user tags, and its permalink', async () => {
    const res = await post({ content: 'A photo #herald', publishNow: true, mediaItems: [{ type: 'image', url: img[0] }],
      platforms: on({ platformSpecificData: { collaborators: ['friend.one', 'friend_two'], userTags: [{ username: 'tagged', x: 0.5, y: 0.25 }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostUrl).toMatch(/^https:\/\/www\.instagram\.com\/p\//);
    const c = containerOf(t.platformPostId);
    expect(c).toMatchObject({ media_type: 'IMAGE', caption: 'A photo #herald', collaborators: ['friend.one', 'friend_two'], user_tags: [{ username: 'tagged', x: 0.5, y: 0.25 }] });
  });

  it('publishes a carousel (children first, polled, then the parent), tags on the chosen item', async () => {
    const res = await post({ content: 'three things', publishNow: true, mediaItems: [...img.map((url) => ({ type: 'image', url })), { type: 'video', url: video }],
      platforms: on({ platformSpecificData: { userTags: [{ username: 'second', x: 0.1, y: 0.9, mediaIndex: 1 }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const m = mediaOf(res.json().post.platforms[0].platformPostId);
    expect(m.media_type).toBe('CAROUSEL_ALBUM');
    expect(m.children).toHaveLength(4);
    const children = m.children.map((id) => sim.containers.get(id)!);
    expect(children.map((c) => c.media_type)).toEqual(['IMAGE', 'IMAGE', 'IMAGE', 'VIDEO']);
    expect(children[1].user_tags).toEqual([{ username: 'second', x: 0.1, y: 0.9 }]);
  });

  it('publishes a video as a Reel with the JPEG cover', async () => {
    const res = await post({ content: 'a reel', publishNow: true, mediaItems: [{ type: 'video', url: video, instagramThumbnail: cover }], platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().post.platforms[0].platformPostId;
    expect(mediaOf(id).media_product_type).toBe('REELS');
    expect(containerOf(id)).toMatchObject({ media_type: 'REELS', cover_url: cover, share_to_feed: true });
  });

  it('publishes image and video stories (no caption)', async () => {
    const a = await post({ content: 'story caption is not sent', publishNow: true, mediaItems: [{ type: 'image', url: img[1] }], platforms: on({ platformSpecificData: { contentType: 'story' } }) });
    expect(a.statusCode, a.body).toBe(201);
    const s = mediaOf(a.json().post.platforms[0].platformPostId);
    expect(s).toMatchObject({ media_product_type: 'STORY', caption: '' });
    const v = await post({ content: '', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on({ platformSpecificData: { contentType: 'story' } }) });
    expect(v.statusCode, v.body).toBe(201);
    expect(containerOf(v.json().post.platforms[0].platformPostId).media_type).toBe('STORIES');
  });

  it('posts the first comment and records it', async () => {
    const res = await post({ content: 'with a comment', publishNow: true, mediaItems: [{ type: 'image', url: img[2] }], platforms: on({ platformSpecificData: { firstComment: '#more #tags' } }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(mediaOf(res.json().post.platforms[0].platformPostId).comments.map((c) => c.text)).toEqual(['#more #tags']);
    expect((await target(res.json().post._id)).result?.extra?.firstComment).toMatchObject({ status: 'published' });
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = platformCalls();
    const image = [{ type: 'image', url: img[0] }];
    const story = { contentType: 'story' };
    const cases: Array<[object, RegExp]> = [
      [{ content: 'x'.repeat(2201), mediaItems: image, platforms: on() }, /instagram\.caption\.max_length/],
      [{ content: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' '), mediaItems: image, platforms: on() }, /instagram\.caption\.hashtags/],
      [{ content: 'no media', platforms: on() }, /instagram\.media\.required/],
      [{ content: 'x', mediaItems: [{ type: 'document', url: 'https://example.com/a.pdf' }], platforms: on() }, /instagram\.media\.type/],
      [{ content: 'x', mediaItems: Array.from({ length: 11 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.jpg` })), platforms: on() }, /instagram\.carousel\.max_items/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { collaborators: ['a', 'b', 'c', 'd'] } }) }, /instagram\.collaborators\.max/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { collaborators: ['@friend'] } }) }, /instagram\.collaborators\.no_at/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { ...story, collaborators: ['friend'] } }) }, /instagram\.story\.collaborators/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { ...story, firstComment: 'no' } }) }, /instagram\.story\.first_comment/],
      [{ content: 'x', mediaItems: [...image, ...image], platforms: on({ platformSpecificData: story }) }, /instagram\.story\.single_media/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { userTags: [{ username: 'a', x: 540, y: 0.5 }] } }) }, /userTags\.0\.x.*instagram\.user_tags\.position/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video }], platforms: on({ platformSpecificData: { userTags: [{ username: 'a', x: 0.5, y: 0.5 }] } }) }, /instagram\.user_tags\.media/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { ...story, userTags: [{ username: 'a', x: 0.5, y: 0.5 }] } }) }, /instagram\.user_tags\.media/],
      [{ content: 'x', mediaItems: image, platforms: on({ platformSpecificData: { firstComment: 'c'.repeat(2201) } }) }, /instagram\.first_comment\.max_length/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: video, instagramThumbnail: 'https://example.com/cover.png' }], platforms: on() }, /instagram\.thumbnail\.format/],
    ];
    for (const [payload, rule] of cases) {
      const res = await post({ publishNow: true, ...payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
      expect(JSON.stringify(res.json().details.fields)).toMatch(rule);
    }
    expect(platformCalls()).toBe(before);
  });

  it('refuses a thumbnail over 8 MB before creating any container', async () => {
    const before = platformCalls();
    const res = await post({ content: 'big cover', publishNow: true, mediaItems: [{ type: 'video', url: video, instagramThumbnail: `${media.url}/huge-cover.jpg` }], platforms: on() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/instagram\.thumbnail\.max_bytes/);
    expect(platformCalls()).toBe(before);
  });
});

describe('Instagram: rules that used to fail only at publish time are refused when the post is scheduled', () => {
  it('a PNG, a 4:5-breaking image, 21 @-mentions, 61 s story and carousel videos: 400 naming the rule, no platform call', async () => {
    const before = platformCalls();
    const [png, tall, ok] = await h.upload([
      { filename: 'a.png', contentType: 'image/png', data: makeImage({ format: 'png', width: 64, height: 64 }) },
      { filename: 'tall.jpg', contentType: 'image/jpeg', data: makeImage({ format: 'jpeg', width: 400, height: 501 }) },
      { filename: 'ok.jpg', contentType: 'image/jpeg', data: makeImage({ format: 'jpeg', width: 64, height: 64 }) },
    ]);
    const [long] = await h.upload([{ filename: 'long.mp4', contentType: 'video/mp4', data: makeVideo({ seconds: 61 }) }]);
    const cases: Array<[object, string, string]> = [
      [{ content: 'x', mediaItems: [png] }, 'mediaItems.0', 'instagram.image.format'],
      [{ content: 'x', mediaItems: [tall] }, 'mediaItems.0', 'instagram.image.aspect_ratio'],
      [{ content: Array.from({ length: 21 }, (_, i) => `@u${i}`).join(' '), mediaItems: [ok] }, 'content', 'instagram.caption.mentions'],
      [{ content: 'x', mediaItems: [long], platforms: on({ platformSpecificData: { contentType: 'story' } }) }, 'mediaItems.0', 'instagram.story.video_duration'],
      [{ content: 'x', mediaItems: [ok, long] }, 'mediaItems.1', 'instagram.carousel.video_duration'],
    ];
    for (const [payload, field, rule] of cases) {
      const res = await post({ publishNow: true, platforms: on(), ...payload });
      expect(res.statusCode, `${rule}: ${res.body.slice(0, 300)}`).toBe(400);
      const fields = res.json().details.fields as Record<string, string[]>;
      const key = Object.keys(fields).find((k) => k === field || k.endsWith(`.${field}`));
      expect(key, `${rule}: ${JSON.stringify(fields)}`).toBeDefined();
      expect(fields[key!].join()).toContain(`[rule ${rule}]`);
    }
    expect(platformCalls()).toBe(before);
  });

  it('an image named by URL is probed when the post is created: a PNG behind a .jpg URL, and a 1:2 JPEG, are refused with 400', async () => {
    const before = platformCalls();
    const pngUrl = media.put('/looks-like.jpg', makeImage({ format: 'png', width: 64, height: 64 }), 'image/jpeg');
    const tallUrl = media.put('/tall-by-url.jpg', makeImage({ format: 'jpeg', width: 300, height: 600 }), 'image/jpeg');
    for (const [url, rule] of [[pngUrl, 'instagram.image.format'], [tallUrl, 'instagram.image.aspect_ratio']]) {
      const res = await post({ content: 'by url', publishNow: true, platforms: on(), mediaItems: [{ type: 'image', url }] });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
      expect(res.json().details.fields['mediaItems.0'].join()).toContain(`[rule ${rule}]`);
    }
    expect(platformCalls()).toBe(before);
  });
});

describe('Instagram: the rule cases against the simulator (test/rules/instagram.cases.ts)', () => {
  const publisher = harnessPublisher(h, 'instagram');
  simulatorRuleCases({ cases: instagramRuleCases, publisher, media: () => media });

  it('the platform itself: instagram.thumbnail.format: a JPEG cover is taken, a PNG cover fails the reel container (the rule-case helper generates media items, not covers)', async () => {
    const { adapter, account } = await publisher();
    const png = media.put('/rules/cover.png', makeImage({ format: 'png', width: 90, height: 160 }), 'image/png');
    const ok = await sendPastHerald(adapter, account, fullPost({ text: 'jpeg cover', mediaItems: [{ type: 'video', url: video, instagramThumbnail: cover }] }) as PublishRequest);
    expect(ok?.message ?? null).toBeNull();
    const err = await sendPastHerald(adapter, account, fullPost({ text: 'png cover', mediaItems: [{ type: 'video', url: video, instagramThumbnail: png }] }) as PublishRequest);
    expect(err?.message).toMatch(/2207005 The cover image format png is not supported/);
  });
});

contract.failedFirstComment({
  payload: (content, firstComment) => ({ content, mediaItems: [{ type: 'image', url: img[2] }], platforms: on({ platformSpecificData: { firstComment } }) }),
  fault: () => sim.addFault({ op: 'comment', kind: 'server_error', count: 1 }),
  error: /unexpected error/,
});

contract.firstCommentOnVerify({
  payload: (content, firstComment, n) => ({ content, mediaItems: [{ type: 'image', url: img[n] }], platforms: on({ platformSpecificData: { firstComment } }) }),
  comments: (id) => mediaOf(id).comments,
  titles: [
    'interrupted after the first comment was posted: verify reads the comments and records it, exactly one comment',
    'answer lost after media_publish, before the first comment: verify finds the media and comments once',
  ],
});

contract.failures({
  rateLimit: { title: 'rate limited (code 4): the target waits and then publishes once' },
  serverError: { title: '5xx on container creation: retried, published once' },
  lostAnswer: { title: 'answer lost after media_publish: verify sees PUBLISHED and records the media, no duplicate' },
  dropped: { title: 'publish call dropped before Instagram acted: verify sees FINISHED, the same container is published once', retry: sameContainers },
  lostAnswerBurst: { title: 'answer lost, then 150 newer media: verify pages the media edge back past them and finds it, no second publish', n: 150, minLists: 2 }, // at most 100 a call
  verifyUnreadable: { title: 'the media cannot be listed during verify (5xx): not published again, asked again later' },
  lookBack: { title: 'publish dropped before Instagram acted, 150 media since: the FINISHED container proves it, published once', n: 150 },
  expired: {
    title: 'token about to expire: extended with ig_refresh_token before publishing',
    async expire() {
      const old = (await h.expireSoon()).accessToken;
      const before = sim.calls.get('GET /refresh_access_token') ?? 0;
      return (after) => {
        expect(sim.calls.get('GET /refresh_access_token')).toBe(before + 1);
        expect(after.accessToken).not.toBe(old);
      };
    },
  },
  more() {
    it('processing error (ERROR status): fails with Instagram\'s status text, nothing published', async () => {
      const res = await post({ content: 'broken media', publishNow: true, mediaItems: [{ type: 'image', url: `${media.url}/missing.jpg` }], platforms: on() });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/2207052/);
      sim.addFault({ op: 'create', kind: 'processing_failed', count: 1 });
      const v = await post({ content: 'bad codec', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
      expect(v.json().platformResults[0].error).toMatch(/could not process the video.*2207026/);
      expect(sim.media.filter((m) => m.caption === 'broken media' || m.caption === 'bad codec')).toHaveLength(0);
    });

    // A container in ERROR or EXPIRED was never published (IG Container reference) and never can be: verify answers
    // not_published with a new container, which the next commit publishes, once.
    const scheduled = async (content: string, url: string) =>
      (await post({ content, scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url }], platforms: on() })).json().post._id as string;
    const firstContainer = async (postId: string) => {
      const { rows } = await h.ctx.db.query<{ prepared: { containerId: string } }>(
        `SELECT a.prepared FROM publish_attempts a JOIN post_targets t ON t.id = a.target_id WHERE t.post_id = $1 AND a.phase = 'commit' ORDER BY a.id LIMIT 1`, [postId]);
      return rows[0].prepared.containerId;
    };

    it('publish dropped, then the container EXPIRED (24 h): verify proves nothing was published, a new container is published once', async () => {
      sim.addFault({ op: 'publish', kind: 'drop', count: 1 });
      const id = await scheduled('expired while in doubt', img[0]);
      await h.runDue(id);
      expect((await target(id)).status).toBe('pending');
      const old = await firstContainer(id);
      sim.ageContainers(25 * 3600_000);
      await h.runDue(id);
      const t = await target(id);
      expect(t.status).toBe('published');
      const published = sim.media.filter((m) => m.caption === 'expired while in doubt');
      expect(published).toHaveLength(1);
      expect(published[0].container).not.toBe(old);
      expect(sim.containers.get(old)!.status_code).toBe('EXPIRED');
      expect(t.platform_post_id).toBe(published[0].id);
    });

    it('publish failed inside Instagram with no answer (container ERROR): verify proves nothing was published, a new container is published once', async () => {
      sim.addFault({ op: 'publish', kind: 'error_dropped', count: 1 });
      const id = await scheduled('errored while in doubt', img[1]);
      await h.runDue(id);
      expect((await target(id)).status).toBe('pending');
      const old = await firstContainer(id);
      expect(sim.containers.get(old)!.status_code).toBe('ERROR');
      await h.runDue(id);
      expect((await target(id)).status).toBe('published');
      const published = sim.media.filter((m) => m.caption === 'errored while in doubt');
      expect(published).toHaveLength(1);
      expect(published[0].container).not.toBe(old);
      // The new container was recorded with the commit attempt before media_publish (what a later verify would check).
      const { rows } = await h.ctx.db.query<{ phase: string; outcome: string; container: string }>(
        `SELECT a.phase, a.outcome, a.prepared->>'containerId' AS container FROM publish_attempts a JOIN post_targets t ON t.id = a.target_id
          WHERE t.post_id = $1 ORDER BY a.id`, [id]);
      expect(rows).toEqual([
        { phase: 'commit', outcome: 'unknown', container: old },
        { phase: 'verify', outcome: 'not_published', container: old },
        { phase: 'commit', outcome: 'published', container: published[0].container },
      ]);
    });

    it('container EXPIRED and the new one cannot be made (its media is gone): the post fails with Instagram\'s reason, nothing published', async () => {
      const url = media.put('/vanishing.jpg', makeImage({ format: 'jpeg', width: 64, height: 64 }), 'image/jpeg');
      sim.addFault({ op: 'publish', kind: 'drop', count: 1 });
      const id = await scheduled('expired, media gone', url);
      await h.runDue(id);
      sim.ageContainers(25 * 3600_000);
      media.put('/vanishing.jpg', Buffer.alloc(0), 'image/jpeg');
      await h.runDue(id);
      const t = await target(id);
      expect(t.status).toBe('failed');
      expect(t.error_message).toMatch(/EXPIRED \(never published\).*2207052/);
      expect(sim.media.filter((m) => m.caption === 'expired, media gone')).toHaveLength(0);
    });
  },
});

contract.revoked({ revoke: () => sim.revokeAll() });

contract.metrics({
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    const comments = sim.media.find((m) => m.id === id)!.comments.length + c.comments;
    return { impressions: null, reach: c.reach, views: c.views, likes: c.likes, comments, shares: c.shares, saves: c.saves, clicks: null };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.revokeAll(),
});
