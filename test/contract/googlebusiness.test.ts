/**
 * Google Business Profile adapter against its simulator, through the real app: Google OAuth
 * (offline access, consent, PKCE, refresh) then the location choice (one account per location),
 * the location list and switch (gmb-locations), local posts of every kind (update, photo, video,
 * event, offer, call-to-action buttons in Late's and Google's names), rule refusals before any
 * Google call, moderation (PROCESSING stays pending until LIVE; REJECTED fails), the exact verify
 * after a lost answer and after a crash between commit and finish, unpublish, revocation (refused
 * refresh, 403 PERMISSION_DENIED), the refresh job and the rule table against the simulator.
 */
import { describe, expect, it } from 'vitest';
import { startGoogleBusinessSimulator, type GoogleBusinessSimulator, type SimLocation } from '../../sim/googlebusiness/server.ts';
import { googlebusinessOAuth } from '../../src/platforms/googlebusiness/oauth.ts';
import { createProfile, createTenant, insertAccount } from '../support/app.ts';
import type { ConnectResult } from '../support/harness.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { cases } from '../rules/googlebusiness.cases.ts';
import { harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

let sim: GoogleBusinessSimulator;
let media: MediaServer;
let photo: string;
let clip: string;
let gif: string;
const CREATE = 'POST /v4/accounts/:a/locations/:l/localPosts';
const LIST = 'GET /v4/accounts/:a/locations/:l/localPosts';

const h = platformHarness({
  platform: 'googlebusiness', tag: 'gbp',
  async setup() {
    sim = await startGoogleBusinessSimulator({ mediaFetch: { allowPrivate: true } }); // media is on a loopback server
    media = await startMediaServer();
    photo = media.put('/photo.jpg', makeImage({ format: 'jpeg', width: 400, height: 300 }), 'image/jpeg');
    clip = media.put('/clip.mp4', makeVideo({ seconds: 2, width: 1280, height: 720 }), 'video/mp4');
    gif = media.put('/a.gif', makeImage({ format: 'gif', width: 300, height: 300, frames: 2 }), 'image/gif');
    return { env: platformEnv('googlebusiness', sim) };
  },
  teardown: async () => { await sim?.close(); await media?.close(); },
  /** The callback sends the browser to the location picker; choose the first location. */
  async connect(h, dance, t): Promise<ConnectResult> {
    const selectUrl = new URL(dance.done.headers.location as string, 'http://x');
    expect(selectUrl.pathname).toBe('/dashboard/connect/googlebusiness/select-location');
    const chosen = await h.ctx.app.inject({ method: 'POST', url: '/v1/connect/googlebusiness/select-location', headers: t.headers, payload: {
      profileId: selectUrl.searchParams.get('profileId'), tempToken: selectUrl.searchParams.get('tempToken'), locationId: sim.locations[0].name,
    } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    return { ...dance, done: { statusCode: 302, headers: { location: chosen.json().redirect_url as string } }, selectUrl };
  },
});

const loc0 = (): SimLocation => sim.locations[0];
const digits = (l: SimLocation) => l.name.replace('locations/', '');
const post = (payload: object) => h.post(payload);
const on = (psd: Record<string, unknown> = {}, id = h.accountId) => [{ platform: 'googlebusiness', accountId: id, platformSpecificData: psd }];
const byName = (name: string) => sim.posts.find((p) => p.name === name)!;
const creates = () => sim.calls.get(CREATE) ?? 0;
const api = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, t = h.tenant) => h.ctx.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });

const contract = platformContract({
  platform: 'googlebusiness', name: 'Google Business Profile', h,
  payload: (content) => ({ content, platforms: on() }),
  fault: (kind) => sim.addFault(kind === 'list_unreadable' ? { op: 'list', kind: 'server_error', count: 1 } : { op: 'create', kind, count: 1 }),
  created: (content) => sim.posts.filter((p) => p.body.summary === content).map((p) => ({ id: p.name })),
  creates,
  lists: () => sim.calls.get(LIST) ?? 0,
  bury: (n, prefix) => { for (let i = 0; i < n; i++) sim.addPost(loc0(), `${prefix} ${i}`); },
});

contract.connect({
  title: 'Google OAuth (business.manage, offline, consent, PKCE), then the location: the account is the location, with its 1-hour token and a refresh token',
  username: () => loc0().title,
  account: { username: 'Herald Bakery Downtown', displayName: 'Herald Bakery Downtown' },
  minTtlMs: 55 * 60_000,
  maxTtlMs: 61 * 60_000,
  platformUserId: () => digits(loc0()),
  authUrl(au) {
    expect(au.pathname).toBe('/o/oauth2/v2/auth');
    expect(au.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/business.manage');
    expect(au.searchParams.get('access_type')).toBe('offline');
    expect(au.searchParams.get('prompt')).toBe('consent');
    expect(au.searchParams.get('code_challenge_method')).toBe('S256');
  },
  stored(row, creds, { selectUrl }) {
    expect(selectUrl?.searchParams.get('tempToken')).toEqual(expect.any(String));
    expect(creds.refreshToken).toEqual(expect.any(String));
    expect(row.settings).toMatchObject({ googleAccountId: loc0().account, locationId: loc0().name, selectedLocationName: 'Herald Bakery Downtown' });
  },
  singleUse: true,
  api: {
    title: 'completes through POST /v1/connect/googlebusiness: a tempToken and every managed location (not another user\'s); select-location stores the same account',
    async check(res) {
      expect(res.json().account).toBeUndefined();
      const listed = res.json().locations as Array<{ id: string; name: string; accountId: string }>;
      expect(listed.map((l) => l.name)).toEqual(['Herald Bakery Downtown', 'Herald Bakery 2', 'Herald Bakery Airport']);
      expect(listed[2]).toMatchObject({ id: digits(sim.locations[2]), accountId: sim.accounts[1].name, address: '1 Main Street, Shelbyville', category: 'Bakery' });
      const chosen = await api('POST', '/v1/connect/googlebusiness/select-location', { profileId: h.profileId, tempToken: res.json().tempToken, locationId: digits(loc0()), accountId: loc0().account });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json()).toMatchObject({ message: 'Google Business Profile location connected successfully', account: { _id: h.accountId, platform: 'googlebusiness' } });
    },
  },
  more() {
    it('select-location: another user\'s location is 403, a malformed id 400 naming locationId; the list call answers the locations', async () => {
      const p = await createProfile(h.ctx, h.tenant);
      const s = (await api('GET', `/v1/connect/googlebusiness?profileId=${p}`)).json();
      const code = new URL((await fetch(s.authUrl, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
      const tempToken = (await api('POST', '/v1/connect/googlebusiness', { code, state: s.state, profileId: p })).json().tempToken as string;
      const listed = await api('GET', `/v1/connect/googlebusiness/select-location?profileId=${p}&tempToken=${encodeURIComponent(tempToken)}`);
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json().locations).toHaveLength(3);
      const bad = await api('POST', '/v1/connect/googlebusiness/select-location', { profileId: p, tempToken, locationId: 'downtown' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.fields.locationId).toBeTruthy();
      const foreign = sim.locations.find((l) => l.title === 'Not Yours Cafe')!;
      const refused = await api('POST', '/v1/connect/googlebusiness/select-location', { profileId: p, tempToken, locationId: foreign.name });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatch(/does not manage the location/);
      const ok = await api('POST', '/v1/connect/googlebusiness/select-location', { profileId: p, tempToken, locationId: digits(sim.locations[2]) });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().account).toMatchObject({ username: 'Herald Bakery Airport' });
    });
  },
});

describe('Google Business Profile: locations of an account (gmb-locations)', () => {
  it('lists the managed locations with the current one; search filters on the name; limit caps with hasMore', async () => {
    const res = await api('GET', `/v1/accounts/${h.accountId}/gmb-locations`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ selectedLocationId: digits(loc0()), hasMore: false, cached: false });
    expect(res.json().locations).toHaveLength(3);
    expect((await api('GET', `/v1/accounts/${h.accountId}/gmb-locations?search=airport`)).json().locations.map((l: { name: string }) => l.name)).toEqual(['Herald Bakery Airport']);
    expect((await api('GET', `/v1/accounts/${h.accountId}/gmb-locations?limit=1`)).json()).toMatchObject({ hasMore: true, locations: [{ id: digits(loc0()) }] });
  });

  it('switches the account to another managed location and back; another user\'s location is 403; a non-GBP account is 400', async () => {
    const other = sim.locations[1];
    const res = await api('PUT', `/v1/accounts/${h.accountId}/gmb-locations`, { selectedLocationId: other.name });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ selectedLocation: { id: digits(other), name: other.title }, account: { username: other.title } });
    expect((await h.account()).platform_user_id).toBe(digits(other));
    expect((await h.account()).settings.locationId).toBe(other.name);
    const foreign = sim.locations.find((l) => l.title === 'Not Yours Cafe')!;
    expect((await api('PUT', `/v1/accounts/${h.accountId}/gmb-locations`, { selectedLocationId: digits(foreign) })).statusCode).toBe(403);
    const back = await api('PUT', `/v1/accounts/${h.accountId}/gmb-locations`, { selectedLocationId: digits(loc0()), googleAccountId: loc0().account });
    expect(back.statusCode, back.body).toBe(200);
    expect((await h.account()).platform_user_id).toBe(digits(loc0()));
    const bsky = await insertAccount(h.ctx, h.tenant, h.profileId, 'bluesky');
    const wrong = await api('GET', `/v1/accounts/${bsky}/gmb-locations`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details.fields.accountId).toBeTruthy();
    const stranger = await createTenant(h.ctx);
    expect((await api('GET', `/v1/accounts/${h.accountId}/gmb-locations`, undefined, stranger)).statusCode).toBe(404);
  });
});

describe('Google Business Profile: publishing local posts', () => {
  it('an update: POST localPosts with topicType STANDARD and the summary; the result is the post name and its searchUrl', async () => {
    const res = await post({ content: 'Fresh bread from 7am', publishNow: true, platforms: on({ languageCode: 'en' }) });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    expect(t.platformPostId).toMatch(new RegExp(`^${loc0().account}/${loc0().name}/localPosts/\\d+$`));
    expect(t.platformPostUrl).toMatch(/^https:\/\/local\.google\.com\/place\?id=.*&lpsid=\d+$/);
    expect(byName(t.platformPostId)).toMatchObject({ state: 'LIVE', body: { topicType: 'STANDARD', summary: 'Fresh bread from 7am', languageCode: 'en' } });
  });

  it('one photo and one video go by sourceUrl (Google fetches them)', async () => {
    const a = await post({ content: 'Our new cake', publishNow: true, mediaItems: [{ type: 'image', url: photo }], platforms: on() });
    expect(a.statusCode, a.body).toBe(201);
    expect(byName(a.json().post.platforms[0].platformPostId).body.media).toEqual([{ mediaFormat: 'PHOTO', sourceUrl: photo }]);
    const b = await post({ content: 'A look inside', publishNow: true, mediaItems: [{ type: 'video', url: clip }], platforms: on() });
    expect(b.statusCode, b.body).toBe(201);
    expect(byName(b.json().post.platforms[0].platformPostId).body.media).toEqual([{ mediaFormat: 'VIDEO', sourceUrl: clip }]);
  });

  it('an event with ISO dates and a Late-style button: Google\'s Date/TimeOfDay schedule and callToAction.actionType', async () => {
    const res = await post({ content: 'Join our open day', publishNow: true, platforms: on({
      topicType: 'EVENT', event: { title: 'Open day', schedule: { startDate: '2030-05-01T09:00', endDate: '2030-05-01T17:30' } },
      callToAction: { type: 'SIGN_UP', url: 'https://bakery.example/open-day' },
    }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(byName(res.json().post.platforms[0].platformPostId).body).toMatchObject({
      topicType: 'EVENT',
      event: { title: 'Open day', schedule: { startDate: { year: 2030, month: 5, day: 1 }, startTime: { hours: 9, minutes: 0 }, endDate: { year: 2030, month: 5, day: 1 }, endTime: { hours: 17, minutes: 30 } } },
      callToAction: { actionType: 'SIGN_UP', url: 'https://bakery.example/open-day' },
    });
  });

  it('an offer (Google\'s native dates, coupon, redeem URL, terms); a CALL button is sent without a url', async () => {
    const offer = await post({ content: '10% off all week', publishNow: true, platforms: on({
      topicType: 'OFFER', event: { title: 'Spring sale', schedule: { startDate: { year: 2030, month: 3, day: 1 }, endDate: { year: 2030, month: 3, day: 7 } } },
      offer: { couponCode: 'SPRING10', redeemOnlineUrl: 'https://bakery.example/sale', termsConditions: 'One per customer' },
    }) });
    expect(offer.statusCode, offer.body).toBe(201);
    expect(byName(offer.json().post.platforms[0].platformPostId).body).toMatchObject({ topicType: 'OFFER', offer: { couponCode: 'SPRING10' }, event: { title: 'Spring sale' } });
    const call = await post({ content: 'Call us for catering', publishNow: true, platforms: on({ callToAction: { actionType: 'CALL', url: 'https://ignored.example' } }) });
    expect(call.statusCode, call.body).toBe(201);
    expect(byName(call.json().post.platforms[0].platformPostId).body.callToAction).toEqual({ actionType: 'CALL' });
  });

  it('refuses rule violations with 400 naming the field and the rule, before any call to Google', async () => {
    const before = creates();
    const refused = async (payload: object) => {
      const res = await post({ publishNow: true, ...payload });
      expect(res.statusCode, res.body).toBe(400);
      return JSON.stringify(res.json().details.fields);
    };
    expect(await refused({ content: 's'.repeat(1501), platforms: on() })).toMatch(/googlebusiness\.summary\.max_length/);
    expect(await refused({ content: 'two', mediaItems: [{ type: 'image', url: photo }, { type: 'video', url: clip }], platforms: on() })).toMatch(/googlebusiness\.media\.max_items/);
    expect(await refused({ content: 'gif', mediaItems: [{ type: 'gif', url: gif, mimeType: 'image/gif' }], platforms: on() })).toMatch(/googlebusiness\.media\.type/);
    expect(await refused({ content: 'no url', platforms: on({ callToAction: { type: 'BOOK' } }) })).toMatch(/platformSpecificData\.callToAction\.url.*googlebusiness\.cta\.url/);
    expect(await refused({ content: 'no event', platforms: on({ topicType: 'EVENT' }) })).toMatch(/googlebusiness\.event\.required/);
    expect(await refused({ content: 'backwards', platforms: on({ topicType: 'EVENT', event: { title: 'x', schedule: { startDate: '2030-05-02', endDate: '2030-05-01' } } }) })).toMatch(/googlebusiness\.event\.end_after_start/);
    expect(await refused({ content: 'offer', platforms: on({ offer: { couponCode: 'X' } }) })).toMatch(/googlebusiness\.offer\.topic/);
    expect(await refused({ content: 'thread', platforms: on({ threadItems: [{ content: 'a' }, { content: 'b' }] }) })).toMatch(/googlebusiness\.threads\.unsupported/);
    expect(await refused({ content: 'elsewhere', platforms: on({ locationId: sim.locations[1].name }) })).toMatch(/googlebusiness\.location\.id/);
    expect(creates()).toBe(before);
  });
});

describe('Google Business Profile: moderation', () => {
  it('a post still PROCESSING stays pending (goesLiveAt) and is confirmed published once LIVE, never created again', async () => {
    sim.moderation.ms = 3600_000;
    try {
      const res = await post({ content: 'Waiting for review', publishNow: true, platforms: on() });
      const id = res.json().post._id as string;
      const t = await h.target(id);
      expect(t.status, t.error_message ?? '').toBe('pending');
      expect(t.platform_post_id).toMatch(/localPosts\/\d+$/);
      expect(t.result?.extra).toMatchObject({ state: 'PROCESSING' });
      expect(t.run_at!.getTime()).toBeGreaterThan(Date.now() + 30_000);
      const view = (await api('GET', `/v1/posts/${id}`)).json().post;
      expect(view.platforms[0]).toMatchObject({ status: 'pending', goesLiveAt: expect.any(String) });
      const made = creates();
      await h.runDue(id);
      expect((await h.target(id)).status).toBe('pending'); // still PROCESSING on Google
      sim.moderate(t.platform_post_id!, 'LIVE');
      await h.runDue(id);
      const live = await h.target(id);
      expect(live.status, live.error_message ?? '').toBe('published');
      expect(live.platform_post_url).toMatch(/lpsid=/);
      expect(creates()).toBe(made);
    } finally {
      sim.moderation.ms = 0;
    }
  });

  it('a post Google rejects fails: at once when the answer says REJECTED, or when confirmLive finds it REJECTED', async () => {
    const now = await post({ content: 'Call 555-123-4567 to order', publishNow: true, platforms: on() });
    expect(now.statusCode).toBe(207);
    expect(now.json().platformResults[0].error).toMatch(/Google rejected the post in moderation/);
    sim.moderation.ms = 3600_000;
    try {
      const res = await post({ content: 'Later rejected', publishNow: true, platforms: on() });
      const id = res.json().post._id as string;
      const t = await h.target(id);
      expect(t.status).toBe('pending');
      sim.moderate(t.platform_post_id!, 'REJECTED');
      await h.runDue(id);
      const failed = await h.target(id);
      expect(failed.status).toBe('failed');
      expect(failed.error_message).toMatch(/Not published: Google rejected the post in moderation/);
    } finally {
      sim.moderation.ms = 0;
    }
  });
});

describe('Google Business Profile: exact verify', () => {
  it('a crash between commit and finish: verify lists the location\'s posts, finds the one made, publishes without a second create', async () => {
    const id = (await post({ content: 'Crash after commit', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id as string;
    await h.runDue(id);
    const first = await h.target(id);
    expect(first.status).toBe('published');
    await h.forgetOutcome(id);
    const made = creates();
    const lists = sim.calls.get(LIST) ?? 0;
    await h.runDue(id);
    const t = await h.target(id);
    expect(t.status).toBe('published');
    expect(t.platform_post_id).toBe(first.platform_post_id);
    expect(creates()).toBe(made);
    expect((sim.calls.get(LIST) ?? 0) - lists).toBeGreaterThanOrEqual(1);
  });

  it('the same summary posted twice since the attempt is ambiguous: unknown, never a second create', async () => {
    sim.addFault({ op: 'create', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: 'Twice the same', scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id as string;
    await h.runDue(id);
    sim.addPost(loc0(), 'Twice the same');
    const made = creates();
    await h.runDue(id);
    const t = await h.target(id);
    expect(t).toMatchObject({ status: 'pending', in_doubt: true });
    expect(creates()).toBe(made);
    // The other one deleted in Business Profile: the next verify finds exactly one.
    sim.posts.splice(sim.posts.findIndex((p) => p.body.summary === 'Twice the same' && p.body.languageCode === 'en'), 1);
    await h.runDue(id);
    expect((await h.target(id)).status).toBe('published');
    expect(creates()).toBe(made);
  });
});

contract.unpublish({
  title: 'unpublishes a local post: DELETE /v4/{name} removes it; again changes nothing; one already deleted in Business Profile counts as deleted',
  publish: (content) => post({ content, publishNow: true, platforms: on() }),
  onPlatform: (name) => sim.posts.some((p) => p.name === name),
  removeOnPlatform: (name) => { sim.posts.splice(sim.posts.findIndex((p) => p.name === name), 1); },
  after: async (name) => {
    const tok = (await h.credentials()).accessToken as string;
    const res = await fetch(`${sim.url}/v4/${name}`, { headers: { authorization: `Bearer ${tok}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
  },
});

describe('Google Business Profile: the rule table against the simulator', () => {
  simulatorRuleCases({ cases, publisher: harnessPublisher(h, 'googlebusiness'), media: () => media });
});

describe('Google Business Profile: the simulator speaks Google\'s API', () => {
  it('locations.list needs a readMask; the Google error model with field violations; another user\'s account is 403', async () => {
    const tok = (await h.credentials()).accessToken as string;
    const get = (path: string) => fetch(`${sim.url}${path}`, { headers: { authorization: `Bearer ${tok}` } });
    const noMask = await get(`/v1/${loc0().account}/locations`);
    expect(noMask.status).toBe(400);
    expect(await noMask.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'read_mask' }] }] } });
    const foreign = sim.accounts.find((a) => !a.mine)!;
    expect((await get(`/v1/${foreign.name}/locations?readMask=name`)).status).toBe(403);
    const tooBig = await get(`/v4/${loc0().account}/${loc0().name}/localPosts?pageSize=101`);
    expect(tooBig.status).toBe(400);
  });

  it('a project Google has not approved (quota 0): every call is 429 RESOURCE_EXHAUSTED, which Herald reads as a rate limit', async () => {
    const gated = await startGoogleBusinessSimulator({ quotaZero: true });
    try {
      const app = { clientId: gated.clientId, clientSecret: gated.clientSecret, apiBaseUrl: gated.url, authBaseUrl: gated.url };
      const consent = await fetch(googlebusinessOAuth.authorizeUrl(app, { state: 's', redirectUri: 'https://h.example/cb' }), { redirect: 'manual' });
      const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
      const tokens = await googlebusinessOAuth.exchangeCode(app, { code, redirectUri: 'https://h.example/cb' });
      const raw = await fetch(`${gated.url}/v1/accounts`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      expect(raw.status).toBe(429);
      expect(((await raw.json()) as { error: unknown }).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
      await expect(googlebusinessOAuth.identify(app, tokens)).rejects.toMatchObject({ kind: 'rate_limited', opts: { platformCode: 'RESOURCE_EXHAUSTED' } });
    } finally {
      await gated.close();
    }
  });

  it('the authorize URL asks offline access with consent; the refresh keeps the refresh token', async () => {
    const app = { clientId: sim.clientId, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url };
    const au = new URL(googlebusinessOAuth.authorizeUrl(app, { state: 's', redirectUri: 'https://h.example/cb' }));
    expect(Object.fromEntries(au.searchParams)).toMatchObject({ access_type: 'offline', prompt: 'consent', response_type: 'code' });
    const creds = await h.credentials();
    const next = await googlebusinessOAuth.refresh!(app, creds as never);
    expect(next.refreshToken).toBe(creds.refreshToken);
    expect(new Date(next.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
  });
});

contract.failures({
  rateLimit: { title: '429 RESOURCE_EXHAUSTED: the target waits and then publishes once' },
  serverError: {},
  expired: { title: 'expired access token (401 UNAUTHENTICATED): refreshed and published', expire: () => { sim.expireAccessTokens(); return (after) => expect(after.refreshToken).toEqual(expect.any(String)); }, twice: true },
  lostAnswer: { title: 'answer lost after Google created the post: verify finds it among the location\'s posts, no duplicate' },
  lostAnswerBurst: { title: 'answer lost, then 250 newer posts: verify reads every page (100 a page) and finds it, no second create', n: 250, minLists: 3 },
  verifyUnreadable: { title: 'the location\'s posts cannot be read during verify (503): not created again, asked again later' },
  dropped: { title: 'connection dropped before Google acted: the complete listing proves it absent, created once' },
  lookBack: { title: 'connection dropped before Google acted, 150 posts since: every page is read, nothing matches, created once', n: 150, minLists: 2 },
  more() {
    it('403 PERMISSION_DENIED (access to the location lost): the account needs reconnecting', async () => {
      const id = await h.connectNew();
      sim.addFault({ op: 'create', kind: 'permission_denied', count: 1 });
      const res = await post({ content: 'no longer allowed', publishNow: true, platforms: on({}, id) });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/reconnect/i);
      expect(await h.account(id)).toMatchObject({ is_active: false });
    });
  },
});

contract.revoked({ revoke: () => sim.revokeAll() });

contract.refreshJob({
  title: 'refreshes the 1-hour tokens that expire soon (keeping the refresh token), and marks an account whose refresh is refused (invalid_grant)',
  expire: (id) => h.dueForRefresh(id),
  minTtlMs: 55 * 60_000,
  check: (_row, creds) => expect(creds.refreshToken).toEqual(expect.any(String)),
  refuse: () => sim.revokeAll(),
});
