/**
 * POST /v1/posts/{postId}/edit on LinkedIn through the real app and the LinkedIn adapter against the
 * LinkedIn simulator, which enforces the Posts API's partial update (POST /rest/posts/{urn} with
 * X-RestLi-Method: PARTIAL_UPDATE, `patch.$set.commentary` only, little text format, 3,000
 * characters, the author's own post): the commentary changes, escaped as at publish; a text over the
 * limit is refused before the call naming the rule; the simulator refuses other fields and other
 * authors' posts.
 */
import { describe, expect, it } from 'vitest';
import { startLinkedInSimulator, type LinkedInSimulator } from '../../sim/linkedin/server.ts';
import { LINKEDIN_API_VERSION } from '../../src/platforms/linkedin/rest.ts';
import { platformEnv, platformHarness, type ConnectResult } from '../support/harness.ts';

let sim: LinkedInSimulator;
const h = platformHarness({
  platform: 'linkedin', tag: 'liedit',
  async setup() {
    sim = await startLinkedInSimulator({});
    return { env: platformEnv('linkedin', sim) };
  },
  teardown: async () => { await sim?.close(); },
  async connect(hh, dance, t): Promise<ConnectResult> {
    const selectUrl = new URL(dance.done.headers.location as string, 'http://x');
    if (selectUrl.pathname !== '/dashboard/connect/linkedin/select-organization') return { ...dance, selectUrl: null };
    const chosen = await hh.ctx.app.inject({ method: 'POST', url: '/v1/connect/linkedin/select-organization', headers: t.headers, payload: {
      profileId: selectUrl.searchParams.get('profileId'), tempToken: selectUrl.searchParams.get('tempToken'), userProfile: {}, accountType: 'personal',
    } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    return { ...dance, done: { statusCode: 302, headers: { location: chosen.json().redirect_url as string } }, selectUrl };
  },
});

describe('editing a LinkedIn post', () => {
  it('changes the commentary with a PARTIAL_UPDATE, escaped in little text format; the URN stays', async () => {
    h.accountId ||= await h.connectNew();
    const res = await h.post({ content: 'Hiring: two engineers', publishNow: true, platforms: [{ platform: 'linkedin', accountId: h.accountId }] });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json().post;
    const urn = post.platforms[0].platformPostId as string;
    const edit = (content: string) => h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${post._id}/edit`, headers: h.tenant.headers, payload: { platform: 'linkedin', content } });
    const ok = await edit('Hiring: three engineers (remote) #jobs');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().id).toBe(urn);
    const p = sim.posts.find((x) => x.id === urn)!;
    // As at publish (toLittleText): reserved characters escaped, hashtags as LinkedIn's hashtag template.
    expect(p.commentary).toBe('Hiring: three engineers \\(remote\\) {hashtag|\\#|jobs}');
    expect(p.lastModifiedAt).toEqual(expect.any(Number));

    const calls = sim.calls.get('POST /rest/posts/:urn');
    const long = await edit('x'.repeat(3001));
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields.content[0]).toMatch(/\[rule linkedin\./);
    expect(sim.calls.get('POST /rest/posts/:urn')).toBe(calls);
  });

  it('the simulator refuses fields that cannot change, a missing method header and someone else\'s post', async () => {
    const token = (await h.credentials()).accessToken as string;
    const p = sim.posts[0];
    const update = (urn: string, body: object, method = 'PARTIAL_UPDATE') => fetch(`${sim.url}/rest/posts/${encodeURIComponent(urn)}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-restli-method': method, 'linkedin-version': LINKEDIN_API_VERSION, 'x-restli-protocol-version': '2.0.0' }, body: JSON.stringify(body),
    });
    expect((await update(p.id, { patch: { $set: { content: { media: { id: 'urn:li:image:1' } } } } })).status).toBe(422);
    expect((await update(p.id, { patch: { $set: { commentary: 'x' } } }, 'CREATE')).status).toBe(400);
    sim.posts.push({ ...p, id: 'urn:li:share:7000000000000000001', author: 'urn:li:person:someoneelse', comments: [] });
    expect((await update('urn:li:share:7000000000000000001', { patch: { $set: { commentary: 'mine' } } })).status).toBe(403);
    expect((await update('urn:li:share:7000000000000000999', { patch: { $set: { commentary: 'x' } } })).status).toBe(404);
  });
});
