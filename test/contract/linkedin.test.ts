/**
 * LinkedIn adapter against the LinkedIn simulator, through the real app: OAuth connect
 * (60-day tokens, refresh only for partner apps), the organization routes (admin-only list,
 * personal <-> organization switch, numeric ids only, tenancy), each post kind (text with
 * mentions and little-text escaping, image, multi-image, video in parts, document, first
 * comment), each rule violation refused before any platform call, and each failure mode
 * (rate limit, 5xx, processing failure, expired and revoked tokens, an answer lost after the
 * post was created, a failed first comment).
 */
import { describe, expect, it } from 'vitest';
import { startLinkedInSimulator, type LinkedInSimOptions, type LinkedInSimulator } from '../../sim/linkedin/server.ts';
import { createProfile, createTenant, insertAccount } from '../support/app.ts';
import { platformEnv, platformHarness, type ConnectResult } from '../support/harness.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { makeImage } from '../support/media.ts';
import { makePng } from '../support/png.ts';
import { cases } from '../rules/linkedin.cases.ts';
import { harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract, type Case } from './suite.ts';

let sim: LinkedInSimulator;
const simOpts: LinkedInSimOptions = { processingPolls: 2, videoPartBytes: 1024 };
let media: MediaServer;
let img: string[];
let video: string;

function pdf(pages: number): Buffer {
  const objs = Array.from({ length: pages }, (_, i) => `${i + 2} 0 obj << /Type /Page /Parent 1 0 R >> endobj\n`).join('');
  return Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Pages /Count ${pages} >> endobj\n${objs}%%EOF\n`, 'latin1');
}

const h = platformHarness({
  platform: 'linkedin', tag: 'li',
  async setup() {
    sim = await startLinkedInSimulator(simOpts);
    media = await startMediaServer();
    img = [1, 2, 3].map((i) => media.put(`/img${i}.png`, makePng(4, i + 1), 'image/png'));
    video = media.put('/clip.mp4', Buffer.alloc(3000, 9), 'video/mp4');
    media.put('/deck.pdf', pdf(12), 'application/pdf');
    media.put('/huge.pdf', pdf(301), 'application/pdf');
    return { env: platformEnv('linkedin', sim) };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
  async connect(h, dance, t): Promise<ConnectResult> {
    const selectUrl = new URL(dance.done.headers.location as string, 'http://x');
    if (selectUrl.pathname !== '/dashboard/connect/linkedin/select-organization') return { ...dance, selectUrl: null };
    // The member administers organizations: the callback asks for the author; choose the member.
    const chosen = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/linkedin/select-organization', headers: t.headers, payload: {
      profileId: selectUrl.searchParams.get('profileId'), tempToken: selectUrl.searchParams.get('tempToken'), userProfile: {}, accountType: 'personal',
    } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    return { ...dance, done: { statusCode: 302, headers: { location: chosen.json().redirect_url as string } }, selectUrl };
  },
});

const post = (payload: object) => h.post(payload);
const on = (extra: object = {}, id = h.accountId) => [{ platform: 'linkedin', accountId: id, ...extra }];
const orgs = (id = h.accountId, t = h.tenant) => h.ctx.app.inject({ method: 'GET', url: `/v1/accounts/${id}/linkedin-organizations`, headers: t.headers });
const select = (payload: object, id = h.accountId, t = h.tenant) => h.ctx.app.inject({ method: 'PUT', url: `/v1/accounts/${id}/linkedin-organization`, headers: t.headers, payload });
const simPost = (urn: string) => sim.posts.find((p) => p.id === urn)!;
const runDue = (postId: string) => h.runDue(postId);
const target = (postId: string) => h.target(postId);
/** Members cannot list their posts: verify needs the organization's token, so these cases publish as the organization. */
const asOrganization = new Set<Case>(['serverError', 'lostAnswer', 'lostAnswerBurst', 'verifyUnreadable', 'lookBack', 'metrics']);

const contract = platformContract({
  platform: 'linkedin', name: 'LinkedIn', h,
  payload: (content) => ({ content, platforms: on() }),
  fault: (kind) => sim.addFault(kind === 'list_unreadable' ? { op: 'list', kind: 'rate_limit', count: 1 } : { op: 'post', kind, count: 1 }),
  created: (content) => sim.posts.filter((x) => x.commentary === content),
  creates: () => sim.calls.get('POST /rest/posts') ?? 0,
  lists: () => sim.calls.get('GET /rest/posts') ?? 0,
  bury: (n, prefix) => { for (let i = 0; i < n; i++) sim.addPost('urn:li:organization:2414183', `org ${prefix} ${i}`); },
  async within(c, fn) {
    if (!asOrganization.has(c)) return fn();
    await select({ accountType: 'organization', selectedOrganization: { id: '2414183' } });
    try {
      return await fn();
    } finally {
      await select({ accountType: 'personal' });
    }
  },
});

contract.connect({
  title: 'space-separated scopes, no PKCE, 60-day token, no refresh token for a non-partner app',
  username: () => sim.member.name,
  account: { displayName: 'Herald LinkedIn Sim' },
  minTtlMs: 59 * 86400_000,
  platformUserId: () => sim.member.sub,
  authUrl(au) {
    expect(au.pathname).toBe('/oauth/v2/authorization');
    expect(au.searchParams.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['openid', 'profile', 'w_member_social', 'w_organization_social', 'rw_organization_admin']));
    expect(au.searchParams.has('code_challenge')).toBe(false);
  },
  stored(_row, creds, { selectUrl }) {
    expect(selectUrl?.searchParams.get('profileId')).toBe(h.profileId);
    expect(selectUrl?.searchParams.get('tempToken')).toEqual(expect.any(String));
    expect(creds.refreshToken).toBeNull();
  },
  singleUse: true,
  api: {
    title: 'completes through POST /v1/connect/linkedin; reconnecting keeps one account',
    async check(res) {
      expect(res.json().account).toBeUndefined();
      expect(res.json().organizations).toEqual([{ id: '2414183', urn: 'urn:li:organization:2414183', name: 'Herald Demo Co', vanityName: 'herald-demo' }]);
      const chosen = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/linkedin/select-organization', headers: h.tenant.headers, payload: { profileId: h.profileId, tempToken: res.json().tempToken, userProfile: {}, accountType: 'personal' } });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json().account._id).toBe(h.accountId);
      expect(chosen.json().account.accountType).toBe('personal');
    },
  },
  more() {
    it('select-organization at connect: an administered organization by numeric id; others refused; single use', async () => {
      const p = await createProfile(h.ctx, h.tenant);
      const start = async () => {
        const s = (await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/linkedin?profileId=${p}`, headers: h.tenant.headers })).json();
        const code = new URL((await fetch(s.authUrl, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
        return (await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/linkedin', headers: h.tenant.headers, payload: { code, state: s.state, profileId: p } })).json().tempToken as string;
      };
      const tempToken = await start();
      // The selection screen lists the administered organizations without using up the tempToken.
      const listed = await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/linkedin/select-organization?profileId=${p}&tempToken=${encodeURIComponent(tempToken)}`, headers: h.tenant.headers });
      expect(listed.statusCode).toBe(200);
      expect(listed.json().organizations).toEqual(expect.arrayContaining([expect.objectContaining({ id: '2414183', urn: 'urn:li:organization:2414183' })]));
      expect(listed.json().organizations.map((o: { id: string }) => o.id)).not.toContain('5550001');
      const choose = (payload: object) => h.ctx.app.inject({ method: 'POST', url: '/v1/connect/linkedin/select-organization', headers: h.tenant.headers, payload: { profileId: p, tempToken, userProfile: {}, ...payload } });
      const vanity = await choose({ accountType: 'organization', selectedOrganization: { urn: 'urn:li:organization:herald-demo' } });
      expect(vanity.statusCode).toBe(400);
      expect(vanity.json().error).toMatch(/numeric company id/);
      const notAdmin = await choose({ accountType: 'organization', selectedOrganization: { id: '5550001', urn: 'urn:li:organization:5550001', name: 'Recruiting Only Inc' } });
      expect(notAdmin.statusCode).toBe(403);
      const missing = await choose({ accountType: 'organization' });
      expect(missing.statusCode).toBe(400);
      const ok = await choose({ accountType: 'organization', selectedOrganization: { id: '2414183', urn: 'urn:li:organization:2414183', name: 'Herald Demo Co' } });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().account).toMatchObject({ platform: 'linkedin', accountType: 'organization', selectedOrganization: { id: '2414183', urn: 'urn:li:organization:2414183', name: 'Herald Demo Co' } });
      const again = await choose({ accountType: 'personal' });
      expect(again.statusCode).toBe(400);
      const other = await createTenant(h.ctx);
      // Another tenant: the profile is not theirs (404, like any foreign id).
      const foreign = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/linkedin/select-organization', headers: other.headers, payload: { profileId: p, tempToken: await start(), userProfile: {}, accountType: 'personal' } });
      expect(foreign.statusCode).toBe(404);
    });
    it('a member without organizations is connected directly as a personal account', async () => {
      const saved = sim.orgs.map((o) => o.state);
      sim.orgs.forEach((o) => { o.state = 'REVOKED'; });
      try {
        const p = await createProfile(h.ctx, h.tenant);
        const { done, selectUrl } = await h.connect(p);
        expect(selectUrl).toBeNull();
        expect(Object.fromEntries(new URL(done.headers.location as string).searchParams)).toMatchObject({ connected: 'linkedin', profileId: p });
      } finally {
        sim.orgs.forEach((o, i) => { o.state = saved[i]; });
      }
    });
  },
});

describe('LinkedIn: organizations', () => {
  it('lists only organizations the member administers (approved ADMINISTRATOR), personal by default', async () => {
    const res = await orgs();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      accountType: 'personal', selectedOrganization: null,
      organizations: [{ id: '2414183', urn: 'urn:li:organization:2414183', name: 'Herald Demo Co', localizedName: 'Herald Demo Co', vanityName: 'herald-demo' }],
    });
  });

  it('refuses vanity names with a clear 400, and organizations the member does not administer with 403', async () => {
    const v1 = await select({ accountType: 'organization', selectedOrganization: { urn: 'urn:li:organization:herald-demo' } });
    expect(v1.statusCode).toBe(400);
    expect(v1.json().error).toMatch(/numeric company id.*not a vanity name/);
    const v2 = await select({ accountType: 'organization', selectedOrganization: { id: 'herald-demo', name: 'Herald Demo Co' } });
    expect(v2.statusCode).toBe(400);
    expect(JSON.stringify(v2.json().details.fields)).toMatch(/selectedOrganization\.id/);
    expect((await select({ accountType: 'organization' })).statusCode).toBe(400);
    for (const id of ['5550001', '7770002']) {
      const r = await select({ accountType: 'organization', selectedOrganization: { id } });
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toMatch(/not an approved administrator/);
    }
  });

  it('switches to an organization and back; the account shows accountType and selectedOrganization', async () => {
    const res = await select({ accountType: 'organization', selectedOrganization: { urn: 'urn:li:organization:2414183', name: 'whatever', manual: false } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account).toMatchObject({ accountType: 'organization', selectedOrganization: { id: '2414183', urn: 'urn:li:organization:2414183', name: 'Herald Demo Co', manual: false } });
    const back = await select({ accountType: 'personal' });
    expect(back.json().account.accountType).toBe('personal');
    expect(back.json().account.selectedOrganization).toBeUndefined();
  });

  it('tenancy: another tenant gets 404 and changes nothing; a non-LinkedIn account is refused', async () => {
    const other = await createTenant(h.ctx);
    expect((await orgs(h.accountId, other)).statusCode).toBe(404);
    expect((await select({ accountType: 'organization', selectedOrganization: { id: '2414183' } }, h.accountId, other)).statusCode).toBe(404);
    expect((await orgs()).json().accountType).toBe('personal');
    const bsky = await insertAccount(h.ctx, h.tenant, h.profileId, 'bluesky');
    const r = await orgs(bsky);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatch(/not a LinkedIn account/);
  });
});

describe('LinkedIn: publishing', () => {
  contract.unpublish({
    title: 'unpublishes a post: DELETE /rest/posts/{urn} removes it; again changes nothing; one deleted on LinkedIn first counts as deleted',
    publish: (content) => post({ content, publishNow: true, platforms: on() }),
    onPlatform: (id) => sim.posts.some((x) => x.id === id),
    removeOnPlatform: (id) => { sim.posts.splice(sim.posts.findIndex((x) => x.id === id), 1); },
  });

  it('publishes text with mentions and hashtags in little-text format (reserved characters escaped)', async () => {
    const content = 'Hi @[Ada Lovelace](urn:li:person:ab12CD) & @[Herald Demo Co](urn:li:organization:2414183) #launch (beta) 50% *off* [soon] <b>';
    const res = await post({ content, publishNow: true, platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(/^urn:li:share:\d{19}$/);
    expect(t.platformPostUrl).toBe(`https://www.linkedin.com/feed/update/${t.platformPostId}`);
    const p = simPost(t.platformPostId);
    expect(p.author).toBe(`urn:li:person:${sim.member.sub}`);
    expect(p.commentary).toBe('Hi @[Ada Lovelace](urn:li:person:ab12CD) & @[Herald Demo Co](urn:li:organization:2414183) {hashtag|\\#|launch} \\(beta\\) 50% \\*off\\* \\[soon\\] \\<b\\>');
  });

  it('publishes one image, and 3 images as multiImage', async () => {
    const one = await post({ content: 'one picture', publishNow: true, mediaItems: [{ type: 'image', url: img[0], altText: 'red' }], platforms: on() });
    expect(one.statusCode, one.body).toBe(201);
    const c1 = simPost(one.json().post.platforms[0].platformPostId).content as { media: { id: string; altText: string } };
    expect(c1.media.id).toMatch(/^urn:li:image:/);
    expect(c1.media.altText).toBe('red');
    const three = await post({ content: 'three pictures', publishNow: true, mediaItems: img.map((url) => ({ type: 'image', url })), platforms: on() });
    expect(three.statusCode, three.body).toBe(201);
    const c3 = simPost(three.json().post.platforms[0].platformPostId).content as { multiImage: { images: Array<{ id: string }> } };
    expect(c3.multiImage.images).toHaveLength(3);
  });

  it('publishes a video uploaded in parts (ETags in order), processed until AVAILABLE', async () => {
    const res = await post({ content: 'a clip', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const c = simPost(res.json().post.platforms[0].platformPostId).content as { media: { id: string } };
    expect(c.media.id).toMatch(/^urn:li:video:/);
    const a = sim.assets.get(c.media.id)!;
    expect(a.parts).toHaveLength(3);
    expect(a).toMatchObject({ bytes: 3000, status: 'AVAILABLE' });
  });

  it('publishes one PDF document with a title', async () => {
    const res = await post({ content: 'our deck', publishNow: true, mediaItems: [{ type: 'document', url: `${media.url}/deck.pdf` }], platforms: on({ platformSpecificData: { documentTitle: 'Q3 deck' } }) });
    expect(res.statusCode, res.body).toBe(201);
    const c = simPost(res.json().post.platforms[0].platformPostId).content as { media: { id: string; title: string } };
    expect(c.media).toMatchObject({ id: expect.stringMatching(/^urn:li:document:/), title: 'Q3 deck' });
  });

  it('refuses a PDF over the page limit (configurable, about 300) before creating the post', async () => {
    const before = sim.posts.length;
    const res = await post({ content: 'too long a deck', publishNow: true, mediaItems: [{ type: 'document', url: `${media.url}/huge.pdf` }], platforms: on() });
    expect(res.statusCode).toBe(207);
    expect(res.json().platformResults[0].error).toMatch(/about 300 pages; this PDF has 301/);
    expect(sim.posts.length).toBe(before);
  });

  it('posts the first comment after the post and records it on the target', async () => {
    const res = await post({ content: 'with a comment', publishNow: true, platforms: on({ platformSpecificData: { firstComment: 'Link in the comments: https://example.com' } }) });
    expect(res.statusCode, res.body).toBe(201);
    const urn = res.json().post.platforms[0].platformPostId;
    expect(simPost(urn).comments).toEqual([expect.objectContaining({ actor: `urn:li:person:${sim.member.sub}`, text: 'Link in the comments: https://example.com' })]);
    const t = await target(res.json().post._id);
    expect(t.result?.extra?.firstComment).toMatchObject({ status: 'published', id: expect.stringMatching(/^urn:li:comment:/) });
  });

  it('publishes as the selected organization (author urn:li:organization:<id>), comment as the organization', async () => {
    expect((await select({ accountType: 'organization', selectedOrganization: { id: 2414183 } })).statusCode).toBe(200);
    try {
      const res = await post({ content: 'from the company page', publishNow: true, mediaItems: [{ type: 'image', url: img[1] }], platforms: on({ platformSpecificData: { firstComment: 'company comment' } }) });
      expect(res.statusCode, res.body).toBe(201);
      const p = simPost(res.json().post.platforms[0].platformPostId);
      expect(p.author).toBe('urn:li:organization:2414183');
      expect(sim.assets.get((p.content as { media: { id: string } }).media.id)?.owner).toBe('urn:li:organization:2414183');
      expect(p.comments[0].actor).toBe('urn:li:organization:2414183');
    } finally {
      await select({ accountType: 'personal' });
    }
  });

  it('refuses rule violations before any platform call, naming the rule', async () => {
    const before = (sim.calls.get('POST /rest/posts') ?? 0) + (sim.calls.get('POST /rest/images') ?? 0);
    const cases: Array<[object, RegExp]> = [
      [{ content: 'a'.repeat(3001) }, /linkedin\.text\.max_length/],
      [{ content: 'x', mediaItems: Array.from({ length: 21 }, (_, i) => ({ type: 'image', url: `https://example.com/${i}.png` })) }, /linkedin\.media\.max_images/],
      [{ content: 'x', mediaItems: [{ type: 'document', url: 'https://example.com/a.pdf' }, { type: 'image', url: 'https://example.com/b.png' }] }, /linkedin\.document\.alone/],
      [{ content: 'x', mediaItems: [{ type: 'document', url: 'https://example.com/a.pdf' }, { type: 'document', url: 'https://example.com/b.pdf' }] }, /linkedin\.document\.one/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: 'https://example.com/a.mp4' }, { type: 'video', url: 'https://example.com/b.mp4' }] }, /linkedin\.video\.one/],
      [{ content: 'x', mediaItems: [{ type: 'video', url: 'https://example.com/a.mp4' }, { type: 'image', url: 'https://example.com/b.png' }] }, /linkedin\.video\.alone/],
      [{ content: 'Thanks @[Acme](urn:li:organization:acme-corp)' }, /linkedin\.mention\.organization_id/],
    ];
    for (const [payload, rule] of cases) {
      const res = await post({ ...payload, publishNow: true, platforms: on() });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(JSON.stringify(res.json().details.fields)).toMatch(rule);
    }
    const comment = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { firstComment: 'c'.repeat(1251) } }) });
    expect(JSON.stringify(comment.json().details.fields)).toMatch(/platformSpecificData\.firstComment.*linkedin\.first_comment\.max_length/);
    expect((sim.calls.get('POST /rest/posts') ?? 0) + (sim.calls.get('POST /rest/images') ?? 0)).toBe(before);
  });

  it('refuses when scheduled what LinkedIn would refuse at publish time: WebP, too many pixels (known from Herald\'s upload), commentary over 3,000 once escaped', async () => {
    const before = (sim.calls.get('POST /rest/posts') ?? 0) + (sim.calls.get('POST /rest/images') ?? 0);
    const later = { scheduledFor: '2030-01-01T00:00:00Z' };
    const upload = async (filename: string, contentType: string, data: Buffer) => {
      return (await h.upload([{ filename, contentType, data }]))[0];
    };
    const huge = await upload('huge.jpg', 'image/jpeg', makeImage({ format: 'jpeg', width: 6140, height: 5888 }));
    const webp = await upload('pic.webp', 'image/webp', makeImage({ format: 'webp', width: 64, height: 64 }));
    const cases: Array<[object, string, RegExp]> = [
      [{ content: 'webp', mediaItems: [webp] }, 'mediaItems.0', /JPG, GIF or PNG.*\[rule linkedin\.image\.format\]/],
      [{ content: 'webp by URL', mediaItems: [{ type: 'image', url: 'https://example.com/a.webp' }] }, 'mediaItems.0', /\[rule linkedin\.image\.format\]/],
      [{ content: 'huge', mediaItems: [huge] }, 'mediaItems.0', /fewer than 36,152,320 pixels.*6140 x 5888.*\[rule linkedin\.image\.max_pixels\]/],
      [{ content: `${'a'.repeat(2990)} (see) [1]` }, 'content', /3,000 characters as sent.*3,004 \(3,000 before escaping\).*\[rule linkedin\.text\.max_length\]/],
    ];
    for (const [payload, field, rule] of cases) {
      const res = await post({ ...payload, ...later, platforms: on() });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect((res.json().details.fields as Record<string, string[]>)[field]?.join() ?? JSON.stringify(res.json().details.fields)).toMatch(rule);
    }
    expect((sim.calls.get('POST /rest/posts') ?? 0) + (sim.calls.get('POST /rest/images') ?? 0)).toBe(before);
  });
});

describe('LinkedIn: the rule table against the simulator', () => {
  simulatorRuleCases({
    cases,
    publisher: harnessPublisher(h, 'linkedin'),
    media: () => media,
  });
});

describe('LinkedIn: simulator fidelity', () => {
  it('refuses /rest calls without LinkedIn-Version, or with a sunset version', async () => {
    const none = await fetch(`${sim.url}/rest/organizationAcls?q=roleAssignee`, { headers: { authorization: 'Bearer x' } });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ status: 400, code: 'VERSION_MISSING' });
    const old = await fetch(`${sim.url}/rest/organizationAcls?q=roleAssignee`, { headers: { authorization: 'Bearer x', 'linkedin-version': '202301' } });
    expect(old.status).toBe(426);
  });
});

contract.failedFirstComment({
  payload: (content, firstComment) => ({ content, platforms: on({ platformSpecificData: { firstComment } }) }),
  fault: () => sim.addFault({ op: 'comment', kind: 'server_error', count: 1 }),
  error: /Service Unavailable/,
});

contract.failures({
  rateLimit: {
    title: 'rate limited (429): the target waits (daily limits reset at midnight UTC) and then publishes once',
    waiting(t) {
      const now = new Date();
      const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      expect(Math.abs(t.run_at!.getTime() - midnight)).toBeLessThan(60_000);
    },
  },
  // A 5xx leaves the outcome unknown: the retry verifies first, which needs a token that may list posts (organizations).
  serverError: { title: '5xx on the post (organization): verify proves it absent, retried, published once' },
  lostAnswer: { title: 'answer lost after an organization post was created: verify finds it in the page\'s posts, no duplicate' },
  lostAnswerBurst: { title: 'organization: answer lost, then 150 newer posts: verify pages the author\'s posts back past them and finds it, no second create', n: 150, minLists: 2 }, // at most 100 a call
  verifyUnreadable: { title: 'organization: the posts cannot be listed during verify (429): not created again, asked again later' },
  lookBack: { title: 'organization: call dropped before LinkedIn acted, 150 posts since: the complete look-back finds nothing, created once', n: 150, minLists: 2 },
  more() {
    it('video processing failure: fails with LinkedIn\'s reason, nothing published', async () => {
      sim.addFault({ op: 'upload', kind: 'processing_failed', count: 1 });
      const res = await post({ content: 'bad codec', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/could not process the video: Video codec is not supported/);
      expect(sim.posts.filter((p) => p.commentary === 'bad codec')).toHaveLength(0);
    });
    it('answer lost after a member post was created: members cannot list posts (403), so verify says unknown, no second create, and the target ends "may have been published"', async () => {
      sim.addFault({ op: 'post', kind: 'drop_after_create', count: 1 });
      const id = (await post({ content: 'member post unanswered', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
      await runDue(id);
      expect((await target(id)).status).toBe('pending');
      const creates = sim.calls.get('POST /rest/posts');
      await runDue(id);
      const waiting = await target(id);
      expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_error' });
      expect(waiting.error_message).toMatch(/does not let this account list its posts/);
      for (let i = 0; i < 6 && (await target(id)).status === 'pending'; i++) await runDue(id);
      const t = await target(id);
      expect(t).toMatchObject({ status: 'failed', error_category: 'unknown' });
      expect(t.error_message).toMatch(/may have been published/);
      expect(sim.calls.get('POST /rest/posts')).toBe(creates);
      expect(sim.posts.filter((x) => x.commentary === 'member post unanswered')).toHaveLength(1);
    });
    it('organization: answer lost after an image post; a text post with the same commentary is not taken for it (matched by the image URN)', async () => {
      await select({ accountType: 'organization', selectedOrganization: { id: '2414183' } });
      try {
        sim.addFault({ op: 'post', kind: 'drop_after_create', count: 1 });
        const id = (await post({ content: 'org image unanswered', scheduledFor: '2030-01-01T00:00:00Z', mediaItems: [{ type: 'image', url: img[2] }], platforms: on() })).json().post._id;
        await runDue(id);
        sim.addPost('urn:li:organization:2414183', 'org image unanswered');
        await runDue(id);
        const t = await target(id);
        expect(t.status).toBe('published');
        const created = sim.posts.filter((x) => x.commentary === 'org image unanswered' && x.content);
        expect(created).toHaveLength(1);
        expect(t.platform_post_id).toBe(created[0].id);
      } finally {
        await select({ accountType: 'personal' });
      }
    });
    it('partner app: an expired access token is refreshed; the refresh token keeps its first-consent expiry', async () => {
      simOpts.partner = true;
      try {
        const p = await createProfile(h.ctx, h.tenant);
        const { done } = await h.connect(p);
        const id = new URL(done.headers.location as string).searchParams.get('accountId')!;
        const read = async () => h.ctx.services.secrets.openJson<{ accessToken: string; refreshToken: string; refreshTokenExpiresAt: string }>(
          (await h.ctx.db.query<{ credentials: string }>('SELECT credentials FROM accounts WHERE id = $1', [id])).rows[0].credentials);
        const first = await read();
        expect(first.refreshToken).toBeTruthy();
        expect(Date.parse(first.refreshTokenExpiresAt) - Date.now()).toBeGreaterThan(364 * 86400_000);
        sim.expireAccessTokens();
        const res = await post({ content: 'after a partner refresh', publishNow: true, platforms: on({}, id) });
        expect(res.statusCode, res.body).toBe(201);
        const after = await read();
        expect(after.accessToken).not.toBe(first.accessToken);
        expect(after.refreshTokenExpiresAt).toBe(first.refreshTokenExpiresAt);
      } finally {
        simOpts.partner = false;
      }
    });
    it('expired token without a refresh token (non-partner app): the account needs reconnecting', async () => {
      const p = await createProfile(h.ctx, h.tenant);
      const { done } = await h.connect(p);
      const id = new URL(done.headers.location as string).searchParams.get('accountId')!;
      sim.expireAccessTokens();
      const res = await post({ content: 'after expiry', publishNow: true, platforms: on({}, id) });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/refresh tokens only to approved partner apps.*reconnect/i);
      const acc = (await h.ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${p}`, headers: h.tenant.headers })).json().accounts[0];
      expect(acc).toMatchObject({ isActive: false, needsReconnection: true });
    });
  },
});

contract.revoked({
  title: 'revoked token (401 65601 REVOKED_ACCESS_TOKEN): reconnect needed, no refresh attempted',
  async revoke() {
    const { done } = await h.connect(h.profileId);
    expect(new URL(done.headers.location as string).searchParams.get('accountId')).toBe(h.accountId);
    sim.revokeAll();
    const tokenCalls = sim.calls.get('POST /oauth/v2/accessToken');
    return () => expect(sim.calls.get('POST /oauth/v2/accessToken')).toBe(tokenCalls);
  },
  error: /revoked.*reconnect/i,
});

contract.metrics({
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    return { impressions: c.impressions, reach: c.reach, views: null, likes: c.likes, comments: c.comments, shares: c.shares, saves: null, clicks: c.clicks };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.revokeAll(),
});
