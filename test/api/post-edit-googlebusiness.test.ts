/**
 * POST /v1/posts/{postId}/edit on a Google Business Profile local post through the real app and the
 * adapter against the simulator, which enforces PATCH localPosts (updateMask required and limited to
 * writable fields, the create rules on the result, moderation again): the summary changes, the other
 * fields stay; a summary over 1,500 characters is refused before the call, naming the rule.
 */
import { describe, expect, it } from 'vitest';
import { startGoogleBusinessSimulator, type GoogleBusinessSimulator } from '../../sim/googlebusiness/server.ts';
import { platformEnv, platformHarness, type ConnectResult } from '../support/harness.ts';

let sim: GoogleBusinessSimulator;
const h = platformHarness({
  platform: 'googlebusiness', tag: 'gbpedit',
  async setup() {
    sim = await startGoogleBusinessSimulator({});
    sim.moderation.ms = 0; // posts are LIVE at once
    return { env: platformEnv('googlebusiness', sim) };
  },
  teardown: async () => { await sim?.close(); },
  async connect(hh, dance, t): Promise<ConnectResult> {
    const selectUrl = new URL(dance.done.headers.location as string, 'http://x');
    const chosen = await hh.ctx.app.inject({ method: 'POST', url: '/v1/connect/googlebusiness/select-location', headers: t.headers, payload: {
      profileId: selectUrl.searchParams.get('profileId'), tempToken: selectUrl.searchParams.get('tempToken'), locationId: sim.locations[0].name,
    } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    return { ...dance, done: { statusCode: 302, headers: { location: chosen.json().redirect_url as string } }, selectUrl };
  },
});

describe('editing a local post', () => {
  it('changes the summary with PATCH ?updateMask=summary; the rest stays; too long is refused before the call', async () => {
    h.accountId ||= await h.connectNew();
    const res = await h.post({ content: 'Open late on Fridays', publishNow: true, platforms: [{ platform: 'googlebusiness', accountId: h.accountId }] });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json().post;
    expect(post.platforms[0].status).toBe('published');
    const p = sim.posts.find((x) => x.name === post.platforms[0].platformPostId)!;
    const topic = p.body.topicType;
    const edit = (content: string) => h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${post._id}/edit`, headers: h.tenant.headers, payload: { platform: 'googlebusiness', content } });
    const ok = await edit('Open late on Fridays and Saturdays');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(p.body).toMatchObject({ summary: 'Open late on Fridays and Saturdays', topicType: topic });
    expect(p.updateTime).toEqual(expect.any(String));
    const long = await edit('s'.repeat(1501));
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content[0]).toMatch(/\[rule googlebusiness\./);
    expect(sim.calls.get('PATCH /v4/accounts/:a/locations/:l/localPosts/:p')).toBe(1);

    // The simulator's own rules: a mask is required and names writable fields only.
    const token = (await h.credentials()).accessToken as string;
    const patch = (mask: string) => fetch(`${sim.url}/v4/${p.name}${mask ? `?updateMask=${mask}` : ''}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ summary: 'x' }) });
    expect((await patch('')).status).toBe(400);
    expect((await patch('createTime')).status).toBe(400);
  });
});
