/**
 * POST /v1/posts/{postId}/update-metadata (and the edit of a YouTube post's description) through
 * the real app and the YouTube adapter against the YouTube simulator, which enforces videos.update
 * (title 1-100 characters without < >, categoryId required with the snippet, tags within 500, the
 * channel's own videos, 50 quota units): post mode changes the video and the target's stored title,
 * description and options; direct mode (`_`, videoId + accountId) changes any video of the channel;
 * YouTube's rules are checked first (400 naming the field and rule); fields left out are kept.
 */
import { describe, expect, it } from 'vitest';
import { startYouTubeSimulator, type YouTubeSimulator } from '../../sim/youtube/server.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { YouTubeAdapter } from '../../src/platforms/youtube/adapter.ts';
import { youtubeOAuth } from '../../src/platforms/youtube/oauth.ts';
import { createProfile, createTenant, insertAccount } from '../support/app.ts';
import { platformHarness } from '../support/harness.ts';
import { makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';

let sim: YouTubeSimulator;
let media: MediaServer;
let clip: string;
const h = platformHarness({
  platform: 'youtube', tag: 'ytmeta', setupTimeoutMs: 120_000,
  async setup() {
    sim = await startYouTubeSimulator({ dailyUnits: 1_000_000 });
    media = await startMediaServer();
    clip = media.put('/clip.mp4', makeVideo({ seconds: 2, width: 160, height: 120, rate: 5, audio: false }), 'video/mp4');
    const app = { clientId: sim.clientId, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url };
    const adapter = new YouTubeAdapter(youtubeOAuth, () => app);
    return {
      env: { HERALD_ALLOW_PRIVATE_URLS: 'true' },
      deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9', platformApps: { youtube: app } }, { youtube: adapter as never }) },
    };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});

const meta = (postId: string, payload: object, headers: Record<string, string> = h.tenant.headers) =>
  h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/update-metadata`, headers, payload });

async function video(title: string) {
  h.accountId ||= await h.connectNew();
  const res = await h.post({
    content: `The first description of ${title}`, publishNow: true, mediaItems: [{ type: 'video', url: clip }],
    platforms: [{ platform: 'youtube', accountId: h.accountId, platformSpecificData: { title, tags: ['one', 'two'] } }],
  });
  expect(res.statusCode, res.body).toBe(201);
  const t = res.json().post.platforms[0];
  expect(t.status).toBe('published');
  return { postId: res.json().post._id as string, v: sim.videos.find((x) => x.id === t.platformPostId)! };
}

describe('POST /v1/posts/{postId}/update-metadata', () => {
  it('post mode: changes title, tags and privacy on YouTube, keeps the description, and stores them on the target', async () => {
    const { postId, v } = await video('Old title');
    const res = await meta(postId, { platform: 'youtube', title: 'New title', tags: ['three', 'Three', 'four'], privacyStatus: 'unlisted' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, updatedFields: ['title', 'tags', 'privacyStatus'] });
    expect(res.json().videoId).toBeUndefined();
    expect(v).toMatchObject({ title: 'New title', tags: ['three', 'four'], privacyStatus: 'unlisted', description: 'The first description of Old title', categoryId: '22' });
    expect(sim.updates.filter((u) => u.id === v.id)).toEqual([{ id: v.id, parts: ['snippet', 'status'] }]);
    const target = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: h.tenant.headers })).json().post.platforms[0];
    expect(target.platformSpecificData).toMatchObject({ title: 'New title', tags: ['three', 'four'], privacyStatus: 'unlisted' });
    const logs = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${postId}/logs?action=update_metadata`, headers: h.tenant.headers })).json().logs;
    expect(logs[0]).toMatchObject({ status: 'success', actorId: h.tenant.userId, changes: { title: { from: 'Old title', to: 'New title' }, privacyStatus: { to: 'unlisted' } } });
  });

  it('POST /edit on YouTube changes the description (videos.update) and the stored text', async () => {
    const { postId, v } = await video('Edit me');
    const res = await h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/edit`, headers: h.tenant.headers, payload: { platform: 'youtube', content: 'A better description <b>' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(v).toMatchObject({ description: 'A better description \uFF1Cb\uFF1E', title: 'Edit me', tags: ['one', 'two'] });
  });

  it('checks YouTube\'s rules first: a long title or angle brackets are 400 naming title and the rule; nothing sent', async () => {
    const { postId, v } = await video('Rules');
    const before = sim.updates.length;
    for (const title of ['t'.repeat(101), 'a <b> title']) {
      const res = await meta(postId, { platform: 'youtube', title });
      expect(res.statusCode).toBe(400);
      expect(res.json().details.fields.title[0]).toMatch(/\[rule youtube\.title\./);
    }
    expect(sim.updates.length).toBe(before);
    expect(v.title).toBe('Rules');
    // Tags past the 500-character total are dropped with a warning, as at creation (decision 0023); YouTube gets what fits its count.
    const tags = await meta(postId, { platform: 'youtube', tags: Array.from({ length: 60 }, (_, i) => `tag number ${i}`) });
    expect(tags.statusCode, tags.body).toBe(200);
    expect(tags.json().message).toMatch(/dropped \d+ tag\(s\) past the 500-character total/);
    expect(v.tags.length).toBeGreaterThan(10);
    expect(v.tags.length).toBeLessThan(60);
    // Nothing to change, unsupported fields, bad values: 400s naming the field.
    expect((await meta(postId, { platform: 'youtube' })).json().details.fields.body).toBeDefined();
    expect((await meta(postId, { platform: 'youtube', thumbnailUrl: 'https://x.example/t.png' })).json().details.fields.thumbnailUrl).toBeDefined();
    expect((await meta(postId, { platform: 'youtube', privacyStatus: 'secret' })).statusCode).toBe(400);
    expect((await meta(postId, { platform: 'youtube', categoryId: 'music' })).statusCode).toBe(400);
    expect((await meta(postId, { platform: 'tiktok', title: 'x' })).statusCode).toBe(400);
  });

  it('direct mode: postId "_" with videoId and accountId updates any video of the channel; both are required', async () => {
    h.accountId ||= await h.connectNew();
    const own = sim.addVideo('Uploaded on youtube.com');
    const res = await meta('_', { platform: 'youtube', videoId: own.id, accountId: h.accountId, description: 'From Herald', categoryId: '10' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, videoId: own.id, updatedFields: ['description', 'categoryId'] });
    expect(own).toMatchObject({ title: 'Uploaded on youtube.com', description: 'From Herald', categoryId: '10' });
    const missing = await meta('_', { platform: 'youtube', title: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().details.fields).sort()).toEqual(['accountId', 'videoId']);
    // A video YouTube does not have for this channel: the platform's answer, 502.
    const unknown = await meta('_', { platform: 'youtube', videoId: 'nosuchvideo', accountId: h.accountId, title: 'x' });
    expect(unknown.statusCode).toBe(502);
    // An account of another platform is refused naming accountId.
    const bsky = await insertAccount(h.ctx, h.tenant, h.profileId, 'bluesky');
    expect((await meta('_', { platform: 'youtube', videoId: own.id, accountId: bsky, title: 'x' })).json().details.fields.accountId).toBeDefined();
  });

  it('tenancy: another tenant\'s post or account is 404 and nothing changes', async () => {
    const { postId, v } = await video('Mine');
    const other = await createTenant(h.ctx);
    await createProfile(h.ctx, other);
    expect((await meta(postId, { platform: 'youtube', title: 'Theirs' }, other.headers)).statusCode).toBe(404);
    expect((await meta('_', { platform: 'youtube', videoId: v.id, accountId: h.accountId, title: 'Theirs' }, other.headers)).statusCode).toBe(404);
    expect(v.title).toBe('Mine');
  });
});
