/**
 * A YouTube target with its own time (decision 0064) against the YouTube simulator, through the
 * real app: it is uploaded at once (YouTube schedules natively, decision 0017) as private with
 * publishAt = the target's own time, not the post's, and waits for that time to confirm it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startYouTubeSimulator, type YouTubeSimulator } from '../../sim/youtube/server.ts';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { YouTubeAdapter } from '../../src/platforms/youtube/adapter.ts';
import { youtubeOAuth } from '../../src/platforms/youtube/oauth.ts';
import { platformHarness } from '../support/harness.ts';
import { makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';

let sim: YouTubeSimulator;
let media: MediaServer;
let videoUrl: string;
const h = platformHarness({
  platform: 'youtube', tag: 'yt-own', setupTimeoutMs: 120_000,
  async setup() {
    sim = await startYouTubeSimulator({ dailyUnits: 1_000_000 });
    media = await startMediaServer();
    videoUrl = media.put('/long.mp4', makeVideo({ seconds: 190, width: 160, height: 120, rate: 5, audio: false }), 'video/mp4');
    const app = { clientId: sim.clientId, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url };
    const adapter = new YouTubeAdapter(youtubeOAuth, () => app);
    return { deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9', platformApps: { youtube: app } }, { youtube: adapter as never }) } };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});

let accountId: string;
beforeAll(async () => { accountId = await h.connectNew(); }, 60_000);

describe('YouTube: a target with its own scheduledFor', () => {
  it('is uploaded at once as private with publishAt = its own time, and waits for that time', async () => {
    const postAt = new Date(Date.now() + 2 * 3600_000);
    postAt.setUTCSeconds(0, 0);
    const own = new Date(Date.now() + 30 * 3600_000);
    own.setUTCSeconds(0, 0);
    const res = await h.post({ content: 'Premiere on its own day', scheduledFor: postAt.toISOString(), mediaItems: [{ type: 'video', url: videoUrl }],
      platforms: [{ platform: 'youtube', accountId, scheduledFor: own.toISOString() }] });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().post._id as string;
    expect((await h.target(id)).run_at!.getTime()).toBeLessThanOrEqual(Date.now());
    const claimed = (await h.worker.claimDue(50)).filter((x) => x.post_id === id);
    expect(claimed).toHaveLength(1);
    await h.worker.runTarget(claimed[0]);
    const uploaded = await h.target(id);
    expect(uploaded.status, uploaded.error_message ?? '').toBe('pending');
    expect(uploaded.run_at!.getTime()).toBe(own.getTime());
    expect(sim.videos.find((v) => v.id === uploaded.platform_post_id)).toMatchObject({ privacyStatus: 'private', publishAt: own.toISOString() });
    const view = (await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: h.tenant.headers })).json().post;
    expect(view).toMatchObject({ scheduledFor: postAt.toISOString(), status: 'scheduled' });
    expect(view.platforms[0]).toMatchObject({ scheduledFor: own.toISOString(), goesLiveAt: own.toISOString() });
  });
});
