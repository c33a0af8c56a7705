/**
 * POST /v1/posts/{postId}/edit on a Facebook Page post through the real app and the Facebook adapter
 * against the Facebook simulator, which enforces `POST /{post-id}` with `message` (the Page's token
 * only, the message limits, no stories): the post's message changes and keeps its id; the simulator
 * refuses another token and a story.
 */
import { describe, expect, it } from 'vitest';
import { startFacebookSimulator, type FacebookSimulator } from '../../sim/facebook/server.ts';
import { platformEnv, platformHarness, type ConnectResult } from '../support/harness.ts';

let sim: FacebookSimulator;
const h = platformHarness({
  platform: 'facebook', tag: 'fbedit',
  async setup() {
    sim = await startFacebookSimulator({});
    return { env: platformEnv('facebook', sim) };
  },
  teardown: async () => { await sim?.close(); },
  // OAuth, then the Page (the select-page step).
  async connect(hh, dance, t): Promise<ConnectResult> {
    const to = new URL(dance.done.headers.location as string, 'http://x');
    const chosen = await hh.ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: t.headers, payload: {
      profileId: to.searchParams.get('profileId'), pageId: sim.pages[0].id, tempToken: to.searchParams.get('tempToken'), userProfile: { id: sim.user.id, name: sim.user.name },
    } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    return { ...dance, done: { statusCode: 302, headers: { location: `https://client.example/done?accountId=${chosen.json().account._id}` } } };
  },
});

describe('editing a Facebook Page post', () => {
  it('changes the message with POST /{post-id}; the id stays; the simulator refuses a story and a foreign token', async () => {
    h.accountId ||= await h.connectNew();
    const res = await h.post({ content: 'Open Sunday 10-4', publishNow: true, platforms: [{ platform: 'facebook', accountId: h.accountId }] });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json().post;
    const id = post.platforms[0].platformPostId as string;
    const edited = await h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${post._id}/edit`, headers: h.tenant.headers, payload: { platform: 'facebook', content: 'Open Sunday 11-4' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().id).toBe(id);
    const p = sim.posts.find((x) => x.id === id)!;
    expect(p).toMatchObject({ message: 'Open Sunday 11-4', updated: expect.any(String) });

    // The simulator's rules, as Facebook states them: a valid token; the Page's token only; stories have no message to edit.
    const update = (postId: string, token: string) => fetch(`${sim.url}/v25.0/${postId}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ message: 'x' }) });
    expect((await update(id, 'not-a-token')).status).toBe(400);
    const pageToken = String((await h.credentials()).accessToken);
    const other = sim.addPost(sim.pages[1].id, 'feed', 'another Page\'s post');
    expect((await update(other.id, pageToken)).status).toBe(403);
    sim.posts.push({ id: `${sim.pages[0].id}_999`, pageId: sim.pages[0].id, kind: 'photo_story', message: '', photos: [], created: '2026-01-01T00:00:00+0000' });
    const story = await update(`${sim.pages[0].id}_999`, pageToken);
    expect(story.status).toBe(400);
    expect(await story.text()).toMatch(/story cannot be edited/);
    expect(p.message).toBe('Open Sunday 11-4');
  });
});
