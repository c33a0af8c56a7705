/**
 * Mastodon adapter against two simulated instances with different limits, through the real app:
 * connecting (the instance named, Herald's app registered there once and kept sealed, OAuth with
 * PKCE S256, the instance's limits kept in the account's settings, re-registration after
 * `invalid_client`, private addresses refused), each post kind (text, images with alt text, a
 * video processed asynchronously, a thread of replies, the options: content warning, visibility,
 * language, sensitive, poll), the rules following the account's instance, the shared failure
 * cases (verify after a lost answer, pages of newer statuses, a dropped call), unpublish,
 * revocation and metrics.
 */
import { describe, expect, it } from 'vitest';
import { startMastodonSimulator, type MastodonSimulator } from '../../sim/mastodon/server.ts';
import { createProfile, createTestApp, createTenant, type Tenant } from '../support/app.ts';
import { platformHarness, type ConnectResult } from '../support/harness.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { cases as mastodonRuleCases } from '../rules/mastodon.cases.ts';
import { harnessPublisher, simulatorRuleCases } from './rule-cases.ts';
import { platformContract } from './suite.ts';

let sim: MastodonSimulator;
/** A second instance: 1,000 characters, 6 attachments. */
let big: MastodonSimulator;
let media: MediaServer;
let img: string[];
let video: string;
let gif: string;
const h = platformHarness({
  platform: 'mastodon', tag: 'md',
  async setup() {
    // More uploads than an instance takes in 30 minutes: the rule cases upload dozens of files (a test below checks the default throttle).
    sim = await startMastodonSimulator({ processingPolls: 2, domain: 'small.example', mediaRateLimit: 1000 });
    big = await startMastodonSimulator({ domain: 'big.example', limits: { maxCharacters: 1000, maxMediaAttachments: 6 } });
    media = await startMediaServer();
    img = [1, 2, 3, 4, 5].map((i) => media.put(`/img${i}.png`, makeImage({ format: 'png', width: 60 + i, height: 60 }), 'image/png'));
    video = media.put('/clip.mp4', makeVideo({ seconds: 2, width: 160, height: 120 }), 'video/mp4');
    gif = media.put('/anim.gif', makeImage({ format: 'gif', width: 40, height: 40, frames: 3 }), 'image/gif');
    // The simulators are on loopback: private addresses allowed here (a test below checks they are refused otherwise).
    return { env: { HERALD_ALLOW_PRIVATE_URLS: 'true' } };
  },
  teardown: async () => { await sim?.close(); await big?.close(); await media?.close(); },
});

/** The connect dance with the instance named: GET /v1/connect/mastodon?instance -> the instance's authorize page -> Herald's callback. */
async function connectTo(instance: MastodonSimulator, profileId: string, o: { tenant?: Tenant; redirectUrl?: string } = {}): Promise<ConnectResult> {
  const t = o.tenant ?? h.tenant;
  const q = new URLSearchParams({ profileId, instance: instance.url, redirect_url: o.redirectUrl ?? 'https://client.example/done' });
  const start = await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/mastodon?${q}`, headers: t.headers });
  expect(start.statusCode, start.body).toBe(200);
  const { authUrl, state } = start.json() as { authUrl: string; state: string };
  const consent = await fetch(authUrl, { redirect: 'manual' });
  expect(consent.status, await consent.clone().text()).toBe(302);
  const callback = new URL(consent.headers.get('location')!);
  expect(callback.searchParams.get('state')).toBe(state);
  const callbackPath = callback.pathname + callback.search;
  const done = await h.ctx.app.inject({ method: 'GET', url: callbackPath });
  return { done, callbackPath, state, authUrl };
}
h.connect = (profileId, o = {}) => connectTo(sim, profileId, o);
const accountIdOf = (r: ConnectResult) => new URL(r.done.headers.location as string).searchParams.get('accountId')!;

const on = (extra: object = {}, accountId = h.accountId) => [{ platform: 'mastodon', accountId, ...extra }];
const post = (payload: object) => h.post(payload);
const creates = () => sim.calls.get('POST /api/v1/statuses') ?? 0;

const contract = platformContract({
  platform: 'mastodon', name: 'Mastodon', h,
  payload: (content) => ({ content, platforms: on() }),
  fault: (kind) => sim.addFault(kind === 'list_unreadable' ? { op: 'list', kind: 'rate_limit', count: 1 } : { op: 'create', kind, count: 1 }),
  created: (content) => sim.statuses.filter((s) => s.text === content),
  creates,
  lists: () => sim.calls.get('GET /api/v1/accounts/:id/statuses') ?? 0,
  bury: (n, prefix) => { for (let i = 0; i < n; i++) sim.addStatus(`${prefix} ${i}`); },
});

describe('Mastodon: connecting', () => {
  it('connects: the instance named, Herald\'s app registered there once (secret sealed), PKCE S256, the token and instance URL stored sealed, the instance\'s limits in the settings', async () => {
    const res = await connectTo(sim, h.profileId);
    const au = new URL(res.authUrl);
    expect(au.origin).toBe(sim.url);
    expect(au.pathname).toBe('/oauth/authorize');
    expect(au.searchParams.get('scope')).toBe('read:accounts read:statuses write:statuses write:media');
    expect(au.searchParams.get('code_challenge_method')).toBe('S256');
    expect(au.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.done.statusCode).toBe(302);
    const to = new URL(res.done.headers.location as string);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ connected: 'mastodon', profileId: h.profileId, username: 'herald@small.example' });
    const accounts = await h.accounts();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'mastodon', isActive: true, username: 'herald@small.example', displayName: 'Herald Mastodon Sim', profileUrl: 'https://small.example/@herald' });
    h.accountId = accounts[0]._id;
    const row = await h.account();
    expect(row.platform_user_id).toBe(sim.user.id);
    expect(row.token_expires_at).toBeNull();
    expect(row.credentials).toMatch(/^v1:/);
    const creds = await h.credentials();
    expect(creds).toMatchObject({ instanceUrl: sim.url, accessToken: expect.any(String) });
    expect(row.settings.mastodonInstance).toMatchObject({ domain: 'small.example', maxCharacters: 500, maxMediaAttachments: 4, charactersReservedPerUrl: 23 });
    const apps = await h.ctx.db.query<{ client_id: string; client_secret: string }>('SELECT client_id, client_secret FROM instance_apps WHERE instance_url = $1', [sim.url]);
    expect(apps.rows).toHaveLength(1);
    expect(apps.rows[0].client_secret).toMatch(/^v1:/);
    expect(h.ctx.services.secrets.open(apps.rows[0].client_secret)).toBe(sim.apps.get(apps.rows[0].client_id)!.client_secret);
    // A second connection to the same instance uses the kept app.
    const regs = sim.registrations();
    await connectTo(sim, await createProfile(h.ctx, h.tenant));
    expect(sim.registrations()).toBe(regs);
  });

  it('registers again after the instance answers invalid_client (it forgot the app): that connection fails, the next one works', async () => {
    const profile = await createProfile(h.ctx, h.tenant);
    const q = new URLSearchParams({ profileId: profile, instance: sim.url, redirect_url: 'https://client.example/done' });
    const start = await h.ctx.app.inject({ method: 'GET', url: `/v1/connect/mastodon?${q}`, headers: h.tenant.headers });
    const { authUrl } = start.json();
    const consent = await fetch(authUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    sim.forgetApps();
    const failed = await h.ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(new URL(failed.headers.location as string).searchParams.get('error')).toBe('connection_failed');
    expect((await h.ctx.db.query('SELECT 1 FROM instance_apps WHERE instance_url = $1', [sim.url])).rowCount).toBe(0);
    const regs = sim.registrations();
    const again = await connectTo(sim, profile);
    expect(again.done.statusCode).toBe(302);
    expect(new URL(again.done.headers.location as string).searchParams.get('connected')).toBe('mastodon');
    expect(sim.registrations()).toBe(regs + 1);
  });

  it('refuses an instance that is not a host name, without one, or (outside development) a private address, naming the field instance', async () => {
    const bad = async (instance: string | null, ctx = h.ctx, tenant = h.tenant, profileId = h.profileId) => {
      const q = new URLSearchParams({ profileId, ...(instance !== null ? { instance } : {}) });
      const res = await ctx.app.inject({ method: 'GET', url: `/v1/connect/mastodon?${q}`, headers: tenant.headers });
      expect(res.statusCode, res.body).toBe(400);
      return res.json().details.fields.instance[0] as string;
    };
    expect(await bad(null)).toMatch(/required/);
    expect(await bad('not a host')).toMatch(/host name/);
    expect(await bad('mastodon.social/@alice')).toMatch(/host name only/);
    expect(await bad('localhost')).toMatch(/valid host name/);
    const strict = await createTestApp({ env: { HERALD_ALLOW_PRIVATE_URLS: 'false' } });
    try {
      const t = await createTenant(strict);
      const p = await createProfile(strict, t);
      expect(await bad('127.0.0.1', strict, t, p)).toMatch(/private or reserved address/);
      expect(await bad('10.1.2.3:8080', strict, t, p)).toMatch(/private or reserved address/);
      expect(await bad(sim.url, strict, t, p)).toMatch(/https/);
      expect(await bad('localhost.localdomain', strict, t, p)).toMatch(/private or reserved|does not resolve/);
    } finally {
      await strict.close();
    }
  });
});

describe('Mastodon: publishing', () => {
  it('publishes a text status with its URL, sending an Idempotency-Key', async () => {
    const res = await post({ content: 'Hello fediverse from Herald 👋', publishNow: true, platforms: on() });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json().post.platforms[0];
    const s = sim.statuses.find((x) => x.id === t.platformPostId)!;
    expect(s).toMatchObject({ text: 'Hello fediverse from Herald 👋', in_reply_to_id: null, application: { name: 'Herald' } });
    expect(t.platformPostUrl).toBe(`https://small.example/@herald/${s.id}`);
  });

  it('publishes images with alt text, a GIF among them, and a video processed asynchronously (202, then 206 until ready)', async () => {
    const a = await post({ content: 'pictures', publishNow: true, mediaItems: [{ type: 'image', url: img[0], altText: 'A red square' }, { type: 'image', url: img[1] }, { type: 'gif', url: gif }], platforms: on() });
    expect(a.statusCode, a.body).toBe(201);
    const s = sim.statuses.find((x) => x.id === a.json().post.platforms[0].platformPostId)!;
    expect(s.media_ids.map((id) => [sim.media.get(id)!.type, sim.media.get(id)!.description])).toEqual([['image', 'A red square'], ['image', null], ['gifv', null]]);
    const polls = sim.calls.get('GET /api/v1/media/:id') ?? 0;
    const v = await post({ content: 'a clip', publishNow: true, mediaItems: [{ type: 'video', url: video }], platforms: on() });
    expect(v.statusCode, v.body).toBe(201);
    const vs = sim.statuses.find((x) => x.id === v.json().post.platforms[0].platformPostId)!;
    expect(sim.media.get(vs.media_ids[0])!.type).toBe('video');
    expect((sim.calls.get('GET /api/v1/media/:id') ?? 0) - polls).toBeGreaterThanOrEqual(3);
  });

  it('the simulator refuses a status whose attachment is still processing (422), as the platform does', async () => {
    const tok = (await h.credentials()).accessToken as string;
    const form = new FormData();
    form.append('file', new Blob([makeVideo({ seconds: 1, width: 160, height: 120 })], { type: 'video/mp4' }), 'v.mp4');
    const up = await fetch(`${sim.url}/api/v2/media`, { method: 'POST', headers: { authorization: `Bearer ${tok}` }, body: form });
    expect(up.status).toBe(202);
    const { id } = await up.json() as { id: string };
    const st = await fetch(`${sim.url}/api/v1/statuses`, { method: 'POST', headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'x', media_ids: [id] }) });
    expect(st.status).toBe(422);
    expect(await st.json()).toEqual({ error: 'Cannot attach files that have not finished processing. Try again in a moment!' });
  });

  it('publishes a thread: each reply in_reply_to_id the previous status, one after the other', async () => {
    const res = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadItems: [{ content: 'thread 1/3' }, { content: 'thread 2/3' }, { content: 'thread 3/3' }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const ids = (res.json().post.thread[0].items as Array<{ platformPostId: string }>).map((i) => i.platformPostId);
    expect(ids).toHaveLength(3);
    const chain = ids.map((id) => sim.statuses.find((s) => s.id === id)!);
    expect(chain.map((s) => [s.text, s.in_reply_to_id])).toEqual([['thread 1/3', null], ['thread 2/3', ids[0]], ['thread 3/3', ids[1]]]);
  });

  it('sends the options: content warning, visibility, language, sensitive; a poll with its settings', async () => {
    const a = await post({ content: 'behind a warning', publishNow: true, mediaItems: [{ type: 'image', url: img[2] }],
      platforms: on({ platformSpecificData: { spoilerText: 'spoilers', visibility: 'unlisted', language: 'de', sensitive: true } }) });
    expect(a.statusCode, a.body).toBe(201);
    expect(sim.statuses.find((s) => s.id === a.json().post.platforms[0].platformPostId)).toMatchObject({ spoiler_text: 'spoilers', visibility: 'unlisted', language: 'de', sensitive: true });
    const p = await post({ content: 'Which one?', publishNow: true, platforms: on({ platformSpecificData: { poll: { options: ['this', 'that'], expiresIn: 3600, multiple: true, hideTotals: true } } }) });
    expect(p.statusCode, p.body).toBe(201);
    expect(sim.statuses.find((s) => s.id === p.json().post.platforms[0].platformPostId)!.poll).toEqual({ options: ['this', 'that'], expires_in: 3600, multiple: true, hide_totals: true });
  });

  it('refuses what breaks a rule before any call, naming the field and the rule (a poll with media, an unknown visibility)', async () => {
    const before = creates();
    const res = await post({ content: 'x', publishNow: true, mediaItems: [{ type: 'image', url: img[0] }],
      platforms: on({ platformSpecificData: { poll: { options: ['a', 'b'], expiresIn: 3600 }, visibility: 'followers' } }) });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toMatch(/mastodon\.poll\.media_exclusive/);
    expect(JSON.stringify(res.json())).toMatch(/mastodon\.visibility/);
    expect(creates()).toBe(before);
  });

  it('the limits follow the instance: a 600-character status fits the 1,000-character instance and is refused for the 500-character one, naming the rule', async () => {
    const bigProfile = await createProfile(h.ctx, h.tenant);
    const bigAccount = accountIdOf(await connectTo(big, bigProfile));
    expect((await h.account(bigAccount)).settings.mastodonInstance).toMatchObject({ domain: 'big.example', maxCharacters: 1000, maxMediaAttachments: 6 });
    // The account view shows them (the composer checks with them as the server does).
    expect((await h.accounts(bigProfile))[0].ruleSettings.mastodonInstance).toMatchObject({ maxCharacters: 1000, maxMediaAttachments: 6 });
    const text = 'b'.repeat(600);
    const ok = await post({ content: text, publishNow: true, platforms: on({}, bigAccount) });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(big.statuses.some((s) => s.text === text)).toBe(true);
    const refused = await post({ content: text, publishNow: true, platforms: on() });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toMatch(/mastodon\.text\.max_characters/);
    expect(JSON.stringify(refused.json())).toMatch(/at most 500 characters/);
    expect(sim.statuses.some((s) => s.text === text)).toBe(false);
    // Five images: the big instance takes them, the small one does not.
    const five = img.map((url) => ({ type: 'image', url }));
    expect((await post({ content: 'five', publishNow: true, mediaItems: five, platforms: on({}, bigAccount) })).statusCode).toBe(201);
    const over = await post({ content: 'five', publishNow: true, mediaItems: five, platforms: on() });
    expect(JSON.stringify(over.json())).toMatch(/mastodon\.media\.max_attachments/);
    // The instance changes its limit: reconnecting reads it again.
    big.limits.maxCharacters = 700;
    await connectTo(big, bigProfile);
    expect((await h.account(bigAccount)).settings.mastodonInstance).toMatchObject({ maxCharacters: 700 });
    const refusedNow = await post({ content: 'd'.repeat(701), publishNow: true, platforms: on({}, bigAccount) });
    expect(JSON.stringify(refusedNow.json())).toMatch(/mastodon\.text\.max_characters/);
  });

  it('the instance lowered its limit after connect: prepare reads it again and refuses, naming the rule', async () => {
    const text = 'c'.repeat(450);
    sim.limits.maxCharacters = 400;
    try {
      const res = await post({ content: text, publishNow: true, platforms: on() });
      expect(res.statusCode).toBe(207);
      expect(res.json().platformResults[0].error).toMatch(/mastodon\.text\.max_characters/);
      expect(sim.statuses.some((s) => s.text === text)).toBe(false);
    } finally {
      sim.limits.maxCharacters = 500;
    }
  });

  it('verify after a crash between the thread\'s statuses: the live ones are found and the rest posted after them, no duplicates', async () => {
    sim.addFault({ op: 'create', kind: 'drop_after_create', count: 1, after: 1 });
    const res = await post({ content: 'x', scheduledFor: '2030-01-01T00:00:00Z', platforms: on({ platformSpecificData: { threadItems: [{ content: 'resume 1/3' }, { content: 'resume 2/3' }, { content: 'resume 3/3' }] } }) });
    const id = res.json().post._id;
    await h.runDue(id);
    expect((await h.target(id)).status).toBe('pending');
    expect(sim.statuses.filter((s) => s.text.startsWith('resume')).map((s) => s.text)).toEqual(['resume 1/3', 'resume 2/3']);
    await h.runDue(id);
    const t = await h.target(id);
    expect(t.status, t.error_message ?? '').toBe('published');
    const chain = ['resume 1/3', 'resume 2/3', 'resume 3/3'].map((x) => sim.statuses.filter((s) => s.text === x));
    expect(chain.map((c) => c.length)).toEqual([1, 1, 1]);
    expect(chain[2][0].in_reply_to_id).toBe(chain[1][0].id);
    expect(t.platform_post_id).toBe(chain[0][0].id);
  });

  it('verify matches a status on its content as the instance formats it (paragraphs, line breaks, a long link, a remote mention, a hashtag, HTML characters)', async () => {
    const text = 'First line & <b>not bold</b>\nsecond line with #Herald\n\nA new paragraph for @alice@example.social: https://example.com/a/very/long/path/that/the/instance/shortens?q=1 "quoted"';
    sim.addFault({ op: 'create', kind: 'drop_after_create', count: 1 });
    const id = (await post({ content: text, scheduledFor: '2030-01-01T00:00:00Z', platforms: on() })).json().post._id;
    await h.runDue(id);
    expect((await h.target(id)).status).toBe('pending');
    const listed = await fetch(`${sim.url}/api/v1/statuses/${sim.statuses.find((s) => s.text === text)!.id}`);
    expect(((await listed.json()) as { content: string }).content).toMatch(/^<p>First line &amp; &lt;b&gt;not bold&lt;\/b&gt;<br \/>.*<\/p><p>.*@<span>alice<\/span>.*<span class="ellipsis">/);
    const before = creates();
    await h.runDue(id);
    const t = await h.target(id);
    expect(t.status, t.error_message ?? '').toBe('published');
    expect(creates()).toBe(before);
    expect(sim.statuses.filter((s) => s.text === text)).toHaveLength(1);
  });

  it('the simulator keeps an Idempotency-Key an hour per account: a repeat answers the same status', async () => {
    const tok = (await h.credentials()).accessToken as string;
    const send = () => fetch(`${sim.url}/api/v1/statuses`, { method: 'POST', headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json', 'idempotency-key': 'k-1' }, body: JSON.stringify({ status: 'once only' }) });
    const a = await (await send()).json() as { id: string };
    const b = await (await send()).json() as { id: string };
    expect(b.id).toBe(a.id);
    expect(sim.statuses.filter((s) => s.text === 'once only')).toHaveLength(1);
  });

  it('a verify whose paged look-up is throttled (300 min_id reads per 15 minutes) waits for the reset instead of giving up, and posts nothing twice', async () => {
    const s = await startMastodonSimulator({ pagingRateLimit: 0, domain: 'throttled.example' });
    try {
      const profileId = await createProfile(h.ctx, h.tenant, 'Throttled look-ups');
      const accountId = accountIdOf(await connectTo(s, profileId));
      s.addFault({ op: 'create', kind: 'drop_after_create', count: 1 });
      const res = await post({ content: 'answer lost, look-up throttled', scheduledFor: '2030-01-01T00:00:00Z', platforms: on({}, accountId) });
      const id = res.json().post._id;
      // One commit (answer lost), then more verifies than the verify budget (MAX_ATTEMPTS, 5) allows.
      for (let run = 0; run < 6; run++) await h.runDue(id);
      const t = await h.target(id);
      // Still pending (not failed after the verify budget), the next ask at the instance's reset.
      expect(t.status, `${t.error_category}: ${t.error_message}`).toBe('pending');
      expect(t.error_message).toMatch(/limits the look-up/);
      const { rows: [r] } = await h.ctx.db.query<{ run_at: Date }>('SELECT run_at FROM post_targets WHERE post_id = $1', [id]);
      expect(r.run_at.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
      expect(s.statuses.filter((x) => x.text === 'answer lost, look-up throttled')).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('the simulator throttles media uploads (30 per 30 minutes by default): the adapter\'s upload waits as rate limited', async () => {
    const s = await startMastodonSimulator({ mediaRateLimit: 1 });
    try {
      const tok = await (async () => {
        const reg = await (await fetch(`${s.url}/api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 't', redirect_uris: 'urn:ietf:wg:oauth:2.0:oob', scopes: 'write:media' }) })).json() as { client_id: string; client_secret: string };
        const au = await fetch(`${s.url}/oauth/authorize?${new URLSearchParams({ client_id: reg.client_id, redirect_uri: 'urn:ietf:wg:oauth:2.0:oob', response_type: 'code', scope: 'write:media' })}`, { redirect: 'manual' });
        const code = new URL(au.headers.get('location')!).searchParams.get('code')!;
        const tr = await fetch(`${s.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: reg.client_id, client_secret: reg.client_secret, redirect_uri: 'urn:ietf:wg:oauth:2.0:oob' }) });
        return ((await tr.json()) as { access_token: string }).access_token;
      })();
      const upload = () => { const f = new FormData(); f.append('file', new Blob([makeImage({ format: 'png', width: 8, height: 8 })], { type: 'image/png' }), 'a.png'); return fetch(`${s.url}/api/v2/media`, { method: 'POST', headers: { authorization: `Bearer ${tok}` }, body: f }); };
      expect((await upload()).status).toBe(200);
      const over = await upload();
      expect(over.status).toBe(429);
      expect(Date.parse(over.headers.get('x-ratelimit-reset')!)).toBeGreaterThan(Date.now() + 29 * 60_000);
    } finally {
      await s.close();
    }
  });

  it('the simulator pages the account\'s statuses 40 at most with Link headers, and answers X-RateLimit-* headers', async () => {
    for (let i = 0; i < 45; i++) sim.addStatus(`page ${i}`);
    const tok = (await h.credentials()).accessToken as string;
    const r = await fetch(`${sim.url}/api/v1/accounts/${sim.user.id}/statuses?limit=100`, { headers: { authorization: `Bearer ${tok}` } });
    expect(((await r.json()) as unknown[]).length).toBe(40);
    expect(r.headers.get('link')).toMatch(/max_id=\d+>; rel="next", <.*min_id=\d+>; rel="prev"/);
    expect(r.headers.get('x-ratelimit-limit')).toBe('300');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(300);
    expect(Date.parse(r.headers.get('x-ratelimit-reset')!)).toBeGreaterThan(Date.now());
  });

  simulatorRuleCases({
    cases: mastodonRuleCases,
    publisher: harnessPublisher(h, 'mastodon'),
    media: () => media,
  });
});

contract.failures({
  rateLimit: { title: 'rate limited (429 with X-RateLimit-Reset): the target waits and then publishes once' },
  serverError: { title: '503: retried with backoff, published once' },
  lostAnswer: { title: 'answer lost after the instance created the status: verify pages the account\'s statuses from the id noted at prepare and finds it, no second create' },
  lostAnswerBurst: { n: 90, minLists: 3 },
  verifyUnreadable: {},
  dropped: {},
  lookBack: { n: 85, minLists: 3 },
});

contract.unpublish({
  title: 'unpublishes a status: DELETE /api/v1/statuses/:id; again changes nothing; one already gone counts as deleted',
  publish: (content) => post({ content, publishNow: true, platforms: on() }),
  onPlatform: (id) => sim.statuses.some((s) => s.id === id),
  removeOnPlatform: (id) => { sim.statuses.splice(sim.statuses.findIndex((s) => s.id === id), 1); },
});

describe('Mastodon: unpublishing a thread', () => {
  it('deletes every status, last first', async () => {
    const res = await post({ content: 'x', publishNow: true, platforms: on({ platformSpecificData: { threadItems: [{ content: 'gone 1/2' }, { content: 'gone 2/2' }] } }) });
    expect(res.statusCode, res.body).toBe(201);
    const out = await h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${res.json().post._id}/unpublish`, headers: h.tenant.headers, payload: {} });
    expect(out.json()).toMatchObject({ success: true, results: [{ platform: 'mastodon', outcome: 'deleted' }] });
    expect(sim.statuses.filter((s) => s.text.startsWith('gone'))).toEqual([]);
    const ids = (res.json().post.thread[0].items as Array<{ platformPostId: string }>).map((i) => i.platformPostId);
    expect(sim.deleted.slice(-2)).toEqual([ids[1], ids[0]]);
  });
});

contract.revoked({ revoke: () => sim.revokeAll() });

contract.metrics({
  expected: (id) => {
    const c = sim.metrics.last(id)!;
    return { impressions: null, reach: null, views: null, likes: c.likes, comments: c.comments, shares: c.shares, saves: null, clicks: null };
  },
  rateLimit: () => sim.addFault({ op: 'metrics', kind: 'rate_limit', count: 1 }),
  revoke: () => sim.revokeAll(),
});
