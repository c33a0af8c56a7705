/**
 * POST /v1/posts/{postId}/edit on Pinterest through the real app and the Pinterest adapter against
 * the Pinterest simulator, which enforces PATCH /v5/pins/{pin_id} (pins:write, the user's own Pin,
 * description at most 800 characters, no media change): the Pin's description changes, its title
 * and media stay; a description over Pinterest's limit is refused before the call, naming the rule.
 */
import { describe, expect, it } from 'vitest';
import { startPinterestSimulator, type PinterestSimulator } from '../../sim/pinterest/server.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';
import { makeImage } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';

let sim: PinterestSimulator;
let media: MediaServer;
const h = platformHarness({
  platform: 'pinterest', tag: 'pinedit',
  async setup() {
    sim = await startPinterestSimulator({ mediaFetch: { allowPrivate: true } });
    media = await startMediaServer();
    media.put('/pin.jpg', makeImage({ format: 'jpeg', width: 64, height: 64 }), 'image/jpeg');
    return { env: platformEnv('pinterest', sim) };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
});

describe('editing a Pin', () => {
  it('changes the Pin\'s description with PATCH /v5/pins/{id}; the title and media stay', async () => {
    h.accountId ||= await h.connectNew();
    const res = await h.post({
      content: 'A first description', publishNow: true, mediaItems: [{ type: 'image', url: `${media.url}/pin.jpg` }],
      platforms: [{ platform: 'pinterest', accountId: h.accountId, platformSpecificData: { title: 'Pin title', boardId: sim.boards[0].id } }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json().post;
    const pin = sim.pins.find((p) => p.id === post.platforms[0].platformPostId)!;
    const media0 = pin.media_source;
    const edited = await h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${post._id}/edit`, headers: h.tenant.headers, payload: { platform: 'pinterest', content: 'A better description' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ success: true, id: pin.id });
    expect(pin).toMatchObject({ description: 'A better description', title: 'Pin title' });
    expect(pin.media_source).toBe(media0);
    expect(sim.calls.get('PATCH /v5/pins/:id')).toBe(1);

    const long = await h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${post._id}/edit`, headers: h.tenant.headers, payload: { platform: 'pinterest', content: 'd'.repeat(801) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content[0]).toMatch(/\[rule pinterest\./);
    expect(sim.calls.get('PATCH /v5/pins/:id')).toBe(1);
    expect(pin.description).toBe('A better description');
  });

  it('the simulator refuses a media change and another user\'s Pin', async () => {
    const token = (await h.credentials()).accessToken as string;
    const pin = sim.pins[0];
    const patch = (id: string, body: object) => fetch(`${sim.url}/v5/pins/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await patch(pin.id, { media_source: { source_type: 'image_url', url: 'https://x.test/a.jpg' } })).status).toBe(400);
    const foreignBoard = sim.boards.find((b) => b.owner !== 'herald_sim' && b.name.includes('Someone'))!;
    const foreign = sim.addPin(foreignBoard.id, 'theirs');
    expect((await patch(foreign.id, { description: 'mine now' })).status).toBe(403);
    expect((await patch('999999', { description: 'x' })).status).toBe(404);
  });
});
