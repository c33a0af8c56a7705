/**
 * Threads adapter against the Threads simulator, through the real app: OAuth connect
 * (code -> long-lived token), each post kind (text, image, video, carousel, thread as
 * replies, reply to an existing post), each rule violation refused before any platform
 * call, and each failure mode (rate limit, 5xx, processing error, token refresh, revoked
 * authorization, an answer lost after publishing, a publish call that never arrived).
 */
import { describe, expect, it } from 'vitest';
import { startThreadsSimulator, type ThreadsSimulator } from '../../sim/threads/server.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { cases as threadsRuleCases } from '../rules/threads.cases.ts';
import { harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

let sim: ThreadsSimulator;
let media: MediaServer;
let img: string[];
let video: string;
const h = platformHarness({
  platform: 'threads', tag: 'th',
  async setup() {
    sim = await startThreadsSimulator({ processingPolls: 1, minRefreshAgeSeconds: 0, mediaFetch: { allowPrivate: true } }); // media is on a loopback server
    media = await startMediaServer();
    img = [1, 2, 3].map((i) => media.put(`/img${i}.png`, makeImage({ format: 'png', width: 60 + i, height: 60 }), 'image/png'));
    video = media.put('/clip.mp4', makeVideo({ seconds: 2 }), 'video/mp4');
    return { env: platformEnv('threads', sim) };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});
const on = (extra: object = {}) => [{ platform: 'threads', accountId: h.accountId, ...extra }];
const post = (payload: object) => h.post(payload);
const runDue = (postId: string) => h.runDue(postId);
const target = (postId: string) => h.target(postId);
const publishes = () => sim.calls.get('POST /v1.0/:userId/threads_publish') ?? 0;
/** The container count does not change: the same container is published. */
const sameContainers = () => { const n = sim.containers.size; return () => expect(sim.containers.size).toBe(n); };

const contract = platformContract({
  platform: 'threads', name: 'Threads', h,
  payload: (content) => ({ content, platforms: on() }),
  fault: (kind, c) => sim.addFault(kind === 'list_unreadable' ? { op: 'list', kind: 'rate_limit', count: 1 }
    : { op: c === 'serverError' ? 'create' : 'publish', kind, count: 1 }),
  created: (content) => sim.posts.filter((x) => x.text === content),
  creates: publishes,
  lists: () => sim.calls.get('GET /v1.0/:userId/threads') ?? 0,
  bury: (n, prefix) => { for (let i = 0; i < n; i++) sim.addPost(`${prefix} ${i}`); },
});

contract.connect({
  title: 'comma-separated scopes, no PKCE, long-lived (60-day) token stored sealed',
  username: () => sim.user.username,
  account: { username: 'herald_threads', displayName: 'Herald Threads Sim' },
  minTtlMs: 50 * 86400_000,
  platformUserId: () => sim.user.id,
  authUrl(au) {
    expect(au.pathname).toBe('/oauth/authorize');
    expect(au.searchParams.get('scope')).toBe('threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies,threads_manage_insights,threads_delete');
    expect(au.searchParams.has('code_challenge')).toBe(false);
  },
  singleUse: true,
  api: { title: 'completes through POST /v1/connect/threads; a reused code is refused', reusedCode: /Invalid verification code/ },
});

describe('Threads: publishing', () => {
  it('unpublishes a thread: DELETE /{threads-media-id} for each post, last reply first; gone from reads; again changes nothing; one already gone counts as deleted', async () => {
    const unpublish = (postId: string) => h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/unpublish`, headers: h.tenant.headers, payload: {} });
    const res = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadItems: [{ content: 'taken back 1/2' }, { content: 'taken back 2/2' }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const postId = res.json().post._id;
    const ids = (res.json().post.thread[0].items as Array<{ platformPostId: string }>).map((i) => i.platformPostId);
    for (const outcome of ['deleted', 'already_removed']) {
      const out = await unpublish(postId);
      expect(out.json()).toMatchObject({ success: true, post: { status: 'cancelled' }, results: [{ platform: 'threads', outcome }] });
    }
    expect(sim.posts.filter((p) => ids.includes(p.id))).toEqual([]);
    const tok = (await h.credentials()).accessToken as string;
    const read = await fetch(`${sim.url}/v1.0/${ids[0]}?fields=id,text`, { headers: { authorization: `Bearer ${tok}` } });
    expect(read.status).toBe(400);
    // Deleted in the app first: Threads answers 100/33 ("does not exist"), which counts as deleted.
    const other = (await post({ content: 'Deleted in the app first', publishNow: true, platforms: on() })).json().post;
    sim.posts.splice(sim.posts.findIndex((p) => p.id === other.platforms[0].platformPostId), 1);
    expect((await unpublish(other._id)).json()).toMatchObject({ results: [{ platform: 'threads', outcome: 'deleted' }] });
  });

  it('an account connected before Herald asked for threads_delete: the delete is refused and the result says to reconnect', async () => {
    const res = await post({ content: 'Kept by an old token', publishNow: true, platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const au = await fetch(`${sim.url}/oauth/authorize?${new URLSearchParams({ client_id: sim.clientId, redirect_uri: 'https://h.example/cb', scope: 'threads_basic,threads_content_publish', response_type: 'code', state: 's' })}`, { redirect: 'manual' });
    const code = new URL(au.headers.get('location')!).searchParams.get('code')!;
    const tr = await fetch(`${sim.url}/oauth/access_token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: sim.clientId, client_secret: sim.clientSecret, grant_type: 'authorization_code', code, redirect_uri: 'https://h.example/cb' }) });
    const creds = await h.credentials();
    const seal = (c: object) => h.ctx.db.query('UPDATE accounts SET credentials = $2 WHERE id = $1', [h.accountId, h.ctx.services.secrets.sealJson(c)]);
    await seal({ ...creds, accessToken: ((await tr.json()) as { access_token: string }).access_token });
    try {
      const out = await h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${res.json().post._id}/unpublish`, headers: h.tenant.headers, payload: {} });
      expect(out.json()).toMatchObject({ success: false, results: [{ platform: 'threads', outcome: 'failed', error: expect.stringMatching(/reconnect the Threads account.*threads_delete/) }] });
      expect(sim.posts.some((p) => p.text === 'Kept by an old token')).toBe(true);
    } finally {
      await seal(creds);
    }
  });

  it('the simulator\'s DELETE /{threads-media-id}: threads_delete permission, only the user\'s own post, 100/33 for a missing one, 100 deletes a day', async () => {
    const s = await startThreadsSimulator({ deletesPerDay: 2 });
    try {
      const token = async (scope: string) => {
        const au = await fetch(`${s.url}/oauth/authorize?${new URLSearchParams({ client_id: s.clientId, redirect_uri: 'https://h.example/cb', scope, response_type: 'code', state: 's' })}`, { redirect: 'manual' });
        const code = new URL(au.headers.get('location')!).searchParams.get('code')!;
        const t = await fetch(`${s.url}/oauth/access_token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: s.clientId, client_secret: s.clientSecret, grant_type: 'authorization_code', code, redirect_uri: 'https://h.example/cb' }) });
        return ((await t.json()) as { access_token: string }).access_token;
      };
      type E = { error: { code: number; error_subcode?: number } };
      const del = (tok: string, id: string) => fetch(`${s.url}/v1.0/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${tok}` } });
      const [a, b, c] = ['a', 'b', 'c'].map((t) => s.addPost(t));
      const narrow = await del(await token('threads_basic,threads_content_publish'), a.id);
      expect([narrow.status, ((await narrow.json()) as E).error.code]).toEqual([403, 10]);
      const tok = await token('threads_basic,threads_delete');
      const theirs = s.addPost('theirs');
      theirs.owner = '17841400000000999';
      expect((await del(tok, theirs.id)).status).toBe(403);
      const ok = await del(tok, a.id);
      expect(await ok.json()).toEqual({ success: true, deleted_id: a.id });
      expect(s.posts.some((p) => p.id === a.id)).toBe(false);
      const gone = await del(tok, a.id);
      expect([gone.status, ((await gone.json()) as E).error]).toMatchObject([400, { code: 100, error_subcode: 33 }]);
      expect((await del(tok, b.id)).status).toBe(200);
      const over = await del(tok, c.id);
      expect([over.status, ((await over.json()) as E).error.code]).toEqual([400, 4]);
    } finally {
      await s.close();
    }
  });

  it('publishes a text post (container then threads_publish) with its permalink', async () => {
    const res = await post({ content: 'Hello Threads from Herald 👋', publishNow: true, platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^\d+$/);
    expect(t.platformPostUrl).toMatch(/^https:\/\/www\.threads\.net\/@herald_threads\/post\//);
    const p = sim.posts.find((x) => x.id === t.platformPostId)!;
    expect(p).toMatchObject({ media_type: 'TEXT', text: 'Hello Threads from Herald 👋' });
  });

  it('publishes one image and one video (status polled until FINISHED)', async () => {
    const a = await post({ content: 'a picture', publishNow: true, mediaItems: [{ type: 'image', url: img[0] }], platforms: on() });
    expect(a.statusCode, a.body).toBe(201);
    expect(sim.posts.find((x) => x.id === a.json().post.platforms[0].platformPostId)?.media_type).toBe('IMAGE');
    const v = await post({ content: 'a clip', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(v.statusCode, v.body).toBe(201);
    expect(sim.posts.find((x) => x.id === v.json().post.platforms[0].platformPostId)?.media_type).toBe('VIDEO');
  });

  it('publishes a carousel (children, then the parent) as one post', async () => {
    const res = await post({ content: 'three pictures', publishNow: true, mediaItems: [...img.map((url) => ({ type: 'image', url })), { type: 'video', url: video }], platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const p = sim.posts.find((x) => x.id === res.json().post.platforms[0].platformPostId)!;
    expect(p.media_type).toBe('CAROUSEL');
    expect(p.children).toHaveLength(4);
    expect(p.children.every((c) => sim.containers.get(c)?.is_carousel_item)).toBe(true);
  });

  it('publishes a thread as a chain of replies, one URL per item', async () => {
    const res = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadItems: [{ content: 'thread 1/3' }, { content: 'thread 2/3' }, { content: 'thread 3/3' }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const items = res.json().post.thread[0].items as Array<{ platformPostId: string }>;
    expect(items).toHaveLength(3);
    const [a, b, c] = items.map((i) => sim.posts.find((x) => x.id === i.platformPostId)!);
    expect([a.reply_to_id, b.reply_to_id, c.reply_to_id]).toEqual([undefined, a.id, b.id]);
  });

  it('replies to an existing Threads post with replyToId', async () => {
    const root = sim.posts.find((x) => x.text === 'Hello Threads from Herald 👋')!;
    const res = await post({ content: 'a reply', publishNow: true, platforms: on({ platformSpecificData: { replyToId: root.id } }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(sim.posts.find((x) => x.id === res.json().post.platforms[0].platformPostId)?.reply_to_id).toBe(root.id);
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = (sim.calls.get('POST /v1.0/:userId/threads') ?? 0) + (sim.calls.get('POST /v1.0/:userId/threads_publish') ?? 0);
    // 490 letters + 3 emoji of 4 UTF-8 bytes = 502 > 500, although only 493 characters.
    const long = await post({ content: `${'a'.repeat(490)}${'👍'.repeat(3)}`, publishNow: true, platforms: on() });
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content[0]).toMatch(/threads\.text\.max_length/);
    const ok = `${'a'.repeat(488)}${'👍'.repeat(3)}`;
    expect((await post({ content: ok, isDraft: true, platforms: on() })).statusCode).toBe(201);
    const many = await post({ content: 'x', publishNow: true, mediaItems: Array.from({ length: 21 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.png` })), platforms: on() });
    expect(many.json().details.fields.mediaItems.join()).toMatch(/threads\.carousel\.max_items/);
    const doc = await post({ content: 'x', publishNow: true, mediaItems: [{ type: 'document', url: 'https://example.com/a.pdf' }], platforms: on() });
    expect(JSON.stringify(doc.json().details.fields)).toMatch(/threads\.media\.type/);
    const thread = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadItems: [{ content: 'ok' }, { content: 'b'.repeat(501) }] } }) });
    expect(JSON.stringify(thread.json().details.fields)).toMatch(/threadItems\.1\.content.*threads\.text\.max_length/);
    const empty = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadItems: [{ content: 'first' }, { content: ' ' }] } }) });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json().details.fields)).toMatch(/threadItems\.1\.content":\["[^"]*\[rule threads\.text\.required\]/);
    const links = await post({ content: Array.from({ length: 6 }, (_, i) => `https://example${i}.com/`).join(' '), publishNow: true, platforms: on() });
    expect(links.statusCode).toBe(400);
    expect(links.json().details.fields.content.join()).toMatch(/\[rule threads\.text\.max_links\]/);
    const webp = await post({ content: 'x', publishNow: true, mediaItems: [{ type: 'image', url: 'https://example.com/a.webp', mimeType: 'image/webp' }], platforms: on() });
    expect(webp.statusCode).toBe(400);
    expect(JSON.stringify(webp.json().details.fields)).toMatch(/\[rule threads\.media\.format\]/);
    const reply = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { replyToId: 'not-an-id' } }) });
    expect(JSON.stringify(reply.json().details.fields)).toMatch(/threads\.reply_to\.id/);
    expect((sim.calls.get('POST /v1.0/:userId/threads') ?? 0) + (sim.calls.get('POST /v1.0/:userId/threads_publish') ?? 0)).toBe(before);
  });
});

describe('Threads: the rule cases against the simulator (test/rules/threads.cases.ts)', () => {
  simulatorRuleCases({
    cases: threadsRuleCases,
    publisher: harnessPublisher(h, 'threads'),
    media: () => media,
  });
});

contract.failures({
  rateLimit: { title: 'rate limited (Graph code 4): the target waits and then publishes once' },
  serverError: { title: '5xx on container creation: retried, published once' },
  lostAnswer: { title: 'answer lost after threads_publish: verify sees the container PUBLISHED and records the post, no duplicate' },
  dropped: { title: 'publish call dropped before Threads acted: verify sees FINISHED, the same container is published once', retry: sameContainers },
  lostAnswerBurst: { title: 'answer lost, then 150 newer posts: verify pages the user\'s threads back past them and finds it, no second publish', n: 150, minLists: 2 }, // at most 100 a call
  verifyUnreadable: { title: 'the threads cannot be listed during verify (rate limited): not published again, asked again later' },
  lookBack: { title: 'publish dropped before Threads acted, 150 posts since: the FINISHED container proves it, published once', n: 150 },
  expired: {
    title: 'token about to expire: extended with th_refresh_token before publishing',
    async expire() {
      const old = (await h.expireSoon()).accessToken;
      const before = sim.calls.get('GET /refresh_access_token') ?? 0;
      return async (after) => {
        expect(sim.calls.get('GET /refresh_access_token')).toBe(before + 1);
        expect(after.accessToken).not.toBe(old);
        expect((await h.account()).token_expires_at!.getTime()).toBeGreaterThan(Date.now() + 50 * 86400_000);
      };
    },
  },
  more() {
    it('processing error (media not fetchable): fails with Threads\' message, nothing published', async () => {
      const res = await post({ content: 'broken media', publishNow: true, mediaItems: [{ type: 'image', url: `${media.url}/missing.png` }], platforms: on() });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/could not be fetched from this URI/);
      sim.addFault({ op: 'create', kind: 'processing_failed', count: 1 });
      const v = await post({ content: 'bad codec', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
      expect(v.json().platformResults[0].error).toMatch(/could not process the video/);
      expect(sim.posts.filter((p) => p.text === 'broken media' || p.text === 'bad codec')).toHaveLength(0);
    });

    it('a thread whose second post went live without an answer: verify finds the live chain and the rest is posted once', async () => {
      sim.addFault({ op: 'publish', kind: 'drop_after_create', count: 1, after: 1 }); // the root's publish passes, the first reply's answer is lost
      const items = [{ content: 'resume 1/3' }, { content: 'resume 2/3' }, { content: 'resume 3/3' }];
      const id = (await post({ content: 'x', scheduledFor: '2030-01-01T00:00:00Z', platforms: on({ platformSpecificData: { threadItems: items } }) })).json().post._id;
      await runDue(id);
      expect((await target(id)).status).toBe('pending');
      for (let i = 0; i < 120; i++) sim.addPost(`noise ${i}`, { replyToId: sim.posts.find((x) => x.text === 'resume 1/3')!.id }); // other replies to the root
      await runDue(id);
      const t = await target(id);
      expect(t.status).toBe('published');
      const [a, b, c] = items.map((it) => sim.posts.filter((x) => x.text === it.content));
      expect([a.length, b.length, c.length]).toEqual([1, 1, 1]);
      expect([b[0].reply_to_id, c[0].reply_to_id]).toEqual([a[0].id, b[0].id]);
      expect(t.platform_post_id).toBe(a[0].id);
    });
  },
});

contract.revoked({ revoke: () => sim.revokeAll() });

contract.refreshJob({
  title: 'extends tokens that expire soon, and marks an account whose token Threads refuses',
  expire: (id) => h.expireSoon(id),
  minTtlMs: 50 * 86400_000,
  refuse: () => sim.expireAccessTokens(),
});

contract.metrics({
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    return { impressions: null, reach: null, views: c.views, likes: c.likes, comments: c.comments, shares: c.shares + c.quotes, saves: null, clicks: null };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.revokeAll(),
});
