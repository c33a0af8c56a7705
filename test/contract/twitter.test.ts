/**
 * X adapter against the X simulator, through the real app: OAuth connect (PKCE, single-use
 * state, redirect parameters), publishing each post kind, each rule violation, and each
 * failure mode (rate limit, 5xx, expired token, revoked authorization, a post created but
 * its answer lost).
 */
import { describe, expect, it } from 'vitest';
import { startXSimulator, type XSimulator } from '../../sim/twitter/server.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { makePng } from '../support/png.ts';
import { cases } from '../rules/twitter.cases.ts';
import { harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

let sim: XSimulator;
let media: MediaServer;
const h = platformHarness({
  platform: 'twitter', tag: 'x',
  async setup() {
    sim = await startXSimulator({ processingPolls: 2 });
    media = await startMediaServer();
    return { env: platformEnv('twitter', sim) };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});
const on = (extra: object = {}) => [{ platform: 'twitter', accountId: h.accountId, ...extra }];
const post = (payload: object) => h.post(payload);
const runDue = (postId: string) => h.runDue(postId);
const target = (postId: string) => h.target(postId);
const creates = () => sim.calls.get('POST /2/tweets') ?? 0;

const contract = platformContract({
  platform: 'twitter', name: 'X', h,
  payload: (content) => ({ content, platforms: on() }),
  fault: (kind) => sim.addFault(kind === 'list_unreadable' ? { op: 'timeline', kind: 'rate_limit', count: 1 } : { op: 'tweet', kind, count: 1 }),
  created: (content) => sim.tweets.filter((x) => x.sent === content),
  creates,
  lists: () => sim.calls.get('GET /2/users/:id/tweets') ?? 0,
  bury: (n, prefix) => { for (let i = 0; i < n; i++) sim.addTweet(`${prefix} post ${i}`); },
});

contract.connect({
  title: 'authUrl with S256 challenge, callback stores the account and redirects with connected, profileId, username',
  username: () => sim.user.username,
  account: { username: 'herald_sim', displayName: 'Herald Simulator', permissions: ['posts:write', 'posts:read'] },
  minTtlMs: 3600_000,
  platformUserId: () => sim.user.id,
  authUrl: (u) => expect(u.searchParams.get('code_challenge_method')).toBe('S256'),
  singleUse: true,
  api: { title: 'completes through POST /v1/connect/twitter for API callers; reconnecting keeps one account' },
});

describe('X: publishing', () => {
  it('publishes a text post and returns the x.com URL', async () => {
    const res = await post({ content: 'Hello X from Herald', publishNow: true, platforms: on() });
    expect(res.statusCode).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^\d+$/);
    expect(t.platformPostUrl).toBe(`https://x.com/herald_sim/status/${t.platformPostId}`);
    expect(sim.tweets.find((x) => x.id === t.platformPostId)?.text).toBe('Hello X from Herald');
  });

  it('publishes images uploaded through /v1/media', async () => {
    const files = await h.upload([1, 2].map((i) => ({ filename: `p${i}.png`, contentType: 'image/png', data: makePng(3, i) })));
    const res = await post({ content: 'two pictures', publishNow: true, mediaItems: files, platforms: on() });
    expect(res.statusCode).toBe(201);
    const tw = sim.tweets.find((x) => x.id === res.json().post.platforms[0].platformPostId)!;
    expect(tw.media_ids).toHaveLength(2);
  });

  it('publishes a thread as replies, one URL per item', async () => {
    const res = await post({
      content: 'thread 1/3', publishNow: true,
      platforms: on({ platformSpecificData: { threadItems: [{ content: 'thread 1/3' }, { content: 'thread 2/3' }, { content: 'thread 3/3' }] } }),
    });
    expect(res.statusCode).toBe(201);
    const items = res.json().post.thread[0].items;
    expect(items).toHaveLength(3);
    const [a, b, c] = items.map((i: { platformPostId: string }) => sim.tweets.find((x) => x.id === i.platformPostId)!);
    expect([b.in_reply_to, c.in_reply_to]).toEqual([a.id, b.id]);
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = sim.calls.get('POST /2/tweets') ?? 0;
    const long = await post({ content: `${'a'.repeat(250)} https://example.com/long/path ${'👍'.repeat(5)}`, publishNow: true, platforms: on() });
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content[0]).toMatch(/twitter\.text\.max_weighted_length/);
    const five = await post({ content: 'x', publishNow: true, mediaItems: Array.from({ length: 5 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.png` })), platforms: on() });
    expect(five.json().details.fields.mediaItems.join()).toMatch(/twitter\.media\.max_images/);
    const mixed = await post({ content: 'x', publishNow: true, mediaItems: [{ type: 'video', url: 'https://example.com/a.mp4' }, { type: 'image', url: 'https://example.com/b.png' }], platforms: on() });
    expect(mixed.json().details.fields.mediaItems.join()).toMatch(/twitter\.media\.one_gif_or_video/);
    expect(sim.calls.get('POST /2/tweets') ?? 0).toBe(before);
  });

  it('refuses a thread with an empty reply when it is scheduled, not after its first post is live', async () => {
    const before = creates();
    const res = await post({
      content: 'empty reply 1/2', scheduledFor: '2030-01-01T00:00:00Z',
      platforms: on({ platformSpecificData: { threadItems: [{ content: 'empty reply 1/2' }, { content: '  ' }] } }),
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json().details.fields as Record<string, string[]>;
    expect(fields['platforms.0.platformSpecificData.threadItems.1.content'].join()).toMatch(/\[rule twitter\.text\.empty\]/);
    const long = await post({
      content: 'long reply 1/2', scheduledFor: '2030-01-01T00:00:00Z',
      platforms: on({ platformSpecificData: { threadItems: [{ content: 'long reply 1/2' }, { content: `${'日本'.repeat(70)}x` }] } }),
    });
    expect(long.statusCode).toBe(400);
    expect((long.json().details.fields as Record<string, string[]>)['platforms.0.platformSpecificData.threadItems.1.content'].join()).toMatch(/\[rule twitter\.text\.max_weighted_length\]/);
    expect(creates()).toBe(before);
  });
});

describe('X: the rule table against the simulator', () => {
  simulatorRuleCases({
    cases,
    publisher: harnessPublisher(h, 'twitter'),
    media: () => media,
  });
});

contract.failures({
  rateLimit: { title: 'rate limited: the target waits for the reset and then publishes', waiting: (t) => expect(t.run_at!.getTime()).toBeGreaterThan(Date.now() + 30_000) },
  serverError: {},
  expired: {
    title: 'expired access token: refreshed (rotating refresh token stored) and published',
    async expire() {
      const before = (await h.account()).token_expires_at!;
      sim.expireAccessTokens();
      return async () => expect((await h.account()).token_expires_at!.getTime()).toBeGreaterThanOrEqual(before.getTime());
    },
    twice: true,
  },
  lostAnswer: {},
  lostAnswerBurst: { n: 150, minLists: 2 }, // 151 posts: two pages of 100
  verifyUnreadable: { title: 'timeline unreadable during verify (429): not committed again, asked again later' },
  dropped: { title: 'connection dropped before X saw the post: a complete look-back finds nothing, published once' },
  more() {
    it('answer lost for a post with a link: X shows it as t.co, verify matches the link as sent', async () => {
      sim.addFault({ op: 'tweet', kind: 'drop_after_create', count: 1 });
      const text = 'read https://example.com/a-long-article?x=1 today';
      const id = (await post({ content: text, scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
      await runDue(id);
      const shown = sim.tweets.find((x) => x.sent === text)!;
      expect(shown.text).toMatch(/^read https:\/\/t\.co\/\w+ today$/);
      await runDue(id);
      const t = await target(id);
      expect(t.status).toBe('published');
      expect(t.platform_post_id).toBe(shown.id);
      expect(sim.tweets.filter((x) => x.sent === text)).toHaveLength(1);
    });

    it('answer lost for the second post of a thread: verify finds the first two, the commit posts only the third', async () => {
      sim.addFault({ op: 'tweet', kind: 'drop_after_create', count: 1, after: 1 });
      const items = ['resume 1/3', 'resume 2/3', 'resume 3/3'];
      const id = (await post({
        content: items[0], scheduledFor: '2030-01-01T00:00:00Z',
        platforms: on({ platformSpecificData: { threadItems: items.map((content) => ({ content })) } }),
      })).json().post._id;
      await runDue(id);
      expect((await target(id)).status).toBe('pending');
      expect(sim.tweets.filter((x) => items.includes(x.sent))).toHaveLength(2);
      await runDue(id);
      expect((await target(id)).status).toBe('published');
      const live = items.map((text) => sim.tweets.filter((x) => x.sent === text));
      expect(live.map((l) => l.length)).toEqual([1, 1, 1]);
      expect([live[1][0].in_reply_to, live[2][0].in_reply_to]).toEqual([live[0][0].id, live[1][0].id]);
      const res = await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: h.tenant.headers });
      expect(res.json().post.thread[0].items.map((i: { platformPostId: string }) => i.platformPostId)).toEqual(live.map((l) => l[0].id));
    });

    it('duplicate content is rejected with X\'s message and not retried', async () => {
      await post({ content: 'say it once', publishNow: true, platforms: on() });
      // allowDuplicate: past Herald's own 24-hour duplicate check, to X's.
      const res = await post({ content: 'say it once', publishNow: true, allowDuplicate: true, platforms: on() });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/duplicate content/);
    });
  },
});

contract.revoked({ revoke: () => sim.revokeAll() });

contract.refreshJob({
  title: 'refreshes tokens that expire soon, and marks an account whose refresh is refused',
  expire: (id) => h.dueForRefresh(id),
  minTtlMs: 3600_000,
  refuse: () => sim.revokeAll(),
});

contract.metrics({
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    return { impressions: c.impressions, reach: null, views: null, likes: c.likes, comments: c.comments, shares: c.shares + c.quotes, saves: c.saves, clicks: null };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.revokeAll(),
});
