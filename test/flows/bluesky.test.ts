/**
 * Bluesky end to end, for real: a local PDS (@atproto/dev-env), the real app over
 * PostgreSQL, the real worker. Connect with an app password, publish now, schedule a
 * few seconds ahead, a thread, an image post, and a text over 300 graphemes refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBlueskyPds, type BlueskyPdsHarness, type PdsAccount } from '../../sim/bluesky-pds.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { startWorker, type Worker } from '../../src/publishing/worker.ts';
import { createPublisher } from '../../src/publishing/publisher.ts';
import { makePng, multipart } from '../support/png.ts';
import { waitFor } from '../support/net.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { resolvePost, simulatorRuleCases } from '../contract/rule-cases.ts';
import { fullPost, image } from '../rules/cases.ts';
import { cases as blueskyRuleCases } from '../rules/bluesky.cases.ts';
import type { PublishRequest } from '../../src/platforms/types.ts';

let pds: BlueskyPdsHarness;
let ctx: TestContext;
let worker: Worker;
let alice: PdsAccount;
let tenant: Tenant;
let profileId: string;
let accountId: string;
let media: MediaServer;

beforeAll(async () => {
  pds = await startBlueskyPds();
  ctx = await createTestApp({ env: { HERALD_BLUESKY_SERVICE_URL: pds.url } });
  const s = ctx.services;
  const publisher = createPublisher({ db: ctx.db, accounts: s.accountsRepository, adapters: s.adapters, mediaStorage: s.mediaStorage, config: ctx.config, clock: s.clock, workerId: `worker-test-${process.pid}` });
  worker = await startWorker({ db: ctx.db, publisher, concurrency: 10, pollMs: 200, staleMs: 5_000 });
  alice = await pds.createAccount('alice');
  await pds.createAccount('bob');
  tenant = await createTenant(ctx);
  profileId = await createProfile(ctx, tenant, 'Main');
  media = await startMediaServer();
});

afterAll(async () => {
  await worker?.stop(5_000);
  await ctx?.close();
  await pds?.close();
  await media?.close();
});

const rkeyOf = (url: string) => url.split('/').pop()!;

describe('Bluesky end to end on a local PDS', () => {
  it('refuses wrong credentials with a clear 400 and stores nothing', async () => {
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/connect/bluesky/credentials', headers: tenant.headers,
      payload: { identifier: alice.handle, appPassword: 'aaaa-bbbb-cccc-dddd', state: `${tenant.userId}-${profileId}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.appPassword[0]).toMatch(/app password/);
    const accounts = await ctx.app.inject({ method: 'GET', url: '/v1/accounts', headers: tenant.headers });
    expect(accounts.json().accounts).toEqual([]);
  });

  it('connects with an app password; credentials are encrypted at rest', async () => {
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/connect/bluesky/credentials', headers: tenant.headers,
      payload: { identifier: alice.handle, appPassword: alice.appPassword, state: `${tenant.userId}-${profileId}`, redirectUri: 'https://app.example/done' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.account).toMatchObject({ platform: 'bluesky', username: 'alice.test', profileId, isActive: true, permissions: ['posts:write', 'posts:read'] });
    expect(body.redirect_url).toBe(`https://app.example/done?connected=bluesky&profileId=${profileId}&username=alice.test`);
    accountId = body.account._id;
    const { rows } = await ctx.db.query<{ credentials: string; platform_user_id: string }>('SELECT credentials, platform_user_id FROM accounts WHERE id = $1', [accountId]);
    expect(rows[0].platform_user_id).toBe(alice.did);
    expect(rows[0].credentials).toMatch(/^v1:/);
    expect(rows[0].credentials).not.toContain(alice.appPassword);
    expect(rows[0].credentials).not.toContain('accessJwt');
  });

  it('publishes now: 201 with the bsky.app URL, and the record with facets is on the PDS', async () => {
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: 'Hello from Herald 🚀 https://example.com/x #herald @bob.test', publishNow: true, platforms: [{ platform: 'bluesky', accountId }] },
    });
    expect(res.statusCode).toBe(201);
    const target = res.json().post.platforms[0];
    expect(target.status).toBe('published');
    expect(target.platformPostUrl).toMatch(/^https:\/\/bsky\.app\/profile\/alice\.test\/post\/[a-z2-7]{13}$/);
    expect(target.platformPostId).toBe(`at://${alice.did}/app.bsky.feed.post/${rkeyOf(target.platformPostUrl)}`);
    const rec = await pds.getRecord(target.platformPostId);
    expect(rec?.value.text).toBe('Hello from Herald 🚀 https://example.com/x #herald @bob.test');
    const features = (rec!.value.facets as Array<{ features: Array<{ $type: string }> }>).flatMap((f) => f.features.map((x) => x.$type));
    expect(features.sort()).toEqual(['app.bsky.richtext.facet#link', 'app.bsky.richtext.facet#mention', 'app.bsky.richtext.facet#tag']);
  });

  it('adds the post\'s missing hashtags and mentions to the text, and they become tag and mention facets', async () => {
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: 'Tagged #herald', hashtags: ['herald', 'launch'], mentions: ['bob.test'], publishNow: true, platforms: [{ platform: 'bluesky', accountId }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().post).toMatchObject({ hashtags: ['herald', 'launch'], mentions: ['bob.test'] });
    const rec = await pds.getRecord(res.json().post.platforms[0].platformPostId);
    expect(rec?.value.text).toBe('Tagged #herald\n\n#launch @bob.test');
    const features = (rec!.value.facets as Array<{ features: Array<{ $type: string; tag?: string; did?: string }> }>).flatMap((f) => f.features);
    expect(features.filter((f) => f.$type === 'app.bsky.richtext.facet#tag').map((f) => f.tag)).toEqual(['herald', 'launch']);
    expect(features.filter((f) => f.$type === 'app.bsky.richtext.facet#mention').map((f) => f.did)).toEqual([expect.stringMatching(/^did:/)]);
  });

  it('publishes a post scheduled a few seconds ahead, once, through the worker', async () => {
    const at = new Date(Date.now() + 3_000);
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: 'Scheduled via Herald', scheduledFor: at.toISOString(), platforms: [{ platform: 'bluesky', accountId }] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().post.status).toBe('scheduled');
    const id = res.json().post._id;
    const post = await waitFor(async () => {
      const p = (await ctx.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: tenant.headers })).json().post;
      return p.status === 'published' ? p : null;
    }, { timeoutMs: 20_000, intervalMs: 150 });
    expect(new Date(post.platforms[0].publishedAt).getTime()).toBeGreaterThanOrEqual(at.getTime());
    const records = (await pds.listPosts(alice.did)).filter((r) => r.value.text === 'Scheduled via Herald');
    expect(records).toHaveLength(1);
    expect(records[0].uri).toBe(post.platforms[0].platformPostId);
  });

  it('publishes a thread as a reply chain and returns one permalink per item', async () => {
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: {
        content: 'Thread root', publishNow: true,
        platforms: [{ platform: 'bluesky', accountId, platformSpecificData: { threadItems: [{ content: 'Thread root' }, { content: 'Second' }, { content: 'Third' }] } }],
      },
    });
    expect(res.statusCode).toBe(201);
    const p = res.json().post;
    expect(p.thread[0].items).toHaveLength(3);
    const [root, second, third] = await Promise.all(p.thread[0].items.map((i: { platformPostId: string }) => pds.getRecord(i.platformPostId)));
    expect(root?.value.text).toBe('Thread root');
    expect((second?.value.reply as { parent: { uri: string } }).parent.uri).toBe(root!.uri);
    expect((third?.value.reply as { parent: { uri: string }; root: { uri: string } })).toMatchObject({ parent: { uri: second!.uri }, root: { uri: root!.uri } });
  });

  it('unpublishes a thread: every record is deleted on the PDS (deleteRecord), the post is cancelled, and again changes nothing', async () => {
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: {
        content: 'Gone soon', publishNow: true,
        platforms: [{ platform: 'bluesky', accountId, platformSpecificData: { threadItems: [{ content: 'Gone soon' }, { content: 'Gone too' }] } }],
      },
    });
    expect(res.statusCode).toBe(201);
    const p = res.json().post;
    const uris = p.thread[0].items.map((i: { platformPostId: string }) => i.platformPostId);
    expect(await Promise.all(uris.map((u: string) => pds.getRecord(u)))).not.toContain(null);
    for (let i = 0; i < 2; i++) {
      const out = await ctx.app.inject({ method: 'POST', url: `/v1/posts/${p._id}/unpublish`, headers: tenant.headers, payload: {} });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toMatchObject({ success: true, post: { status: 'cancelled' }, results: [{ platform: 'bluesky', outcome: i === 0 ? 'deleted' : 'already_removed' }] });
    }
    expect(await Promise.all(uris.map((u: string) => pds.getRecord(u)))).toEqual([null, null]);
  });

  it('uploads an image through /v1/media and publishes it as an image embed', async () => {
    const png = makePng(4, 3);
    const mp = multipart('files', [{ filename: 'pic.png', contentType: 'image/png', data: png }]);
    const up = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': mp.contentType }, payload: mp.payload });
    expect(up.statusCode).toBe(200);
    const file = up.json().files[0];
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: 'With a picture', publishNow: true, mediaItems: [{ ...file, altText: 'a red rectangle' }], platforms: [{ platform: 'bluesky', accountId }] },
    });
    expect(res.statusCode).toBe(201);
    const rec = await pds.getRecord(res.json().post.platforms[0].platformPostId);
    const embed = rec!.value.embed as { $type: string; images: Array<{ alt: string; image: { size: number; mimeType: string }; aspectRatio: unknown }> };
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(embed.images[0]).toMatchObject({ alt: 'a red rectangle', image: { size: png.length, mimeType: 'image/png' }, aspectRatio: { width: 4, height: 3 } });
  });

  it('refuses a text over 300 graphemes before publishing: no record is created', async () => {
    const before = (await pds.listPosts(alice.did)).length;
    const res = await ctx.app.inject({
      method: 'POST', url: '/v1/posts', headers: tenant.headers,
      payload: { content: 'a'.repeat(301), publishNow: true, platforms: [{ platform: 'bluesky', accountId }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields.content[0]).toMatch(/300 graphemes/);
    expect((await pds.listPosts(alice.did)).length).toBe(before);
  });
});

/** An XRPC call to the local PDS: the JSON answer, or an Error carrying the PDS's own error name and message. */
async function pdsCall(method: string, init: { token?: string; json?: unknown; bytes?: Buffer; contentType?: string }): Promise<Record<string, any>> {
  const res = await fetch(`${pds.url}/xrpc/${method}`, {
    method: 'POST',
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), 'content-type': init.contentType ?? 'application/json' },
    body: init.bytes ?? JSON.stringify(init.json),
  });
  const body = await res.json() as Record<string, any>;
  if (!res.ok) throw new Error(`${method} ${res.status}: ${body.error}: ${body.message}`);
  return body;
}

/**
 * Sends a post straight to the PDS, past Herald: logs in as alice, uploads each image as a blob
 * and creates the post records (a reply chain for a thread) with lexicon validation on, as the
 * Bluesky app does. Resolves to the PDS's refusal, or null when every record was created.
 */
async function sendToPds(req: PublishRequest): Promise<Error | null> {
  try {
    const { accessJwt, did } = await pdsCall('com.atproto.server.createSession', { json: { identifier: alice.handle, password: alice.password } });
    const items = req.threadItems.length ? req.threadItems.map((t, i) => ({ text: t.content, media: i === 0 && !t.mediaItems?.length ? req.mediaItems : t.mediaItems ?? [] })) : [{ text: req.text, media: req.mediaItems }];
    let root: { uri: string; cid: string } | undefined;
    let parent: { uri: string; cid: string } | undefined;
    for (const item of items) {
      const images = [];
      for (const m of item.media) {
        const file = await fetch(m.url);
        const bytes = Buffer.from(await file.arrayBuffer());
        const { blob } = await pdsCall('com.atproto.repo.uploadBlob', { token: accessJwt, bytes, contentType: m.mimeType ?? file.headers.get('content-type') ?? 'application/octet-stream' });
        images.push({ image: blob, alt: '' });
      }
      const langs = req.platformSpecificData.langs;
      const record = {
        $type: 'app.bsky.feed.post', text: item.text, createdAt: new Date().toISOString(),
        ...(images.length ? { embed: { $type: 'app.bsky.embed.images', images } } : {}),
        ...(langs !== undefined ? { langs } : {}),
        ...(root && parent ? { reply: { root, parent } } : {}),
      };
      const created = await pdsCall('com.atproto.repo.createRecord', { token: accessJwt, json: { repo: did, collection: 'app.bsky.feed.post', record, validate: true } });
      parent = { uri: created.uri, cid: created.cid };
      root ??= parent;
    }
    return null;
  } catch (e) {
    return e as Error;
  }
}

describe('Bluesky rules, held against the real PDS', () => {
  // The image size rule is held against the PDS below: this PDS carries an older lexicon.
  simulatorRuleCases({ cases: blueskyRuleCases.filter((c) => c.rule !== 'bluesky.image.max_bytes'), send: sendToPds, media: () => media });

  it('the local PDS (@atproto/pds 0.4.217, the last release on Node 20) still enforces the older 1,000,000-byte image limit; HERALD_BLUESKY_MAX_IMAGE_BYTES holds Herald to it', async () => {
    const post = (bytes: number) => resolvePost(media, fullPost({ text: 'size', mediaItems: [image('png', 64, 64, { bytes })] }));
    expect(await sendToPds(post(1_000_000))).toBeNull();
    expect((await sendToPds(post(1_000_001)))?.message).toMatch(/blob too big \(maximum 1000000, got 1000001\)/);
    // The current lexicon's 2,000,000 is Herald's default; an operator whose PDS is older sets the cap.
    const strict = await createTestApp({ env: { HERALD_BLUESKY_SERVICE_URL: pds.url, HERALD_BLUESKY_MAX_IMAGE_BYTES: '1000000' } });
    try {
      const adapter = strict.services.adapters.require('bluesky');
      expect(adapter.validate(post(1_000_000))).toEqual([]);
      expect(adapter.validate(post(1_000_001)).map((v) => v.rule)).toEqual(['bluesky.image.max_bytes']);
    } finally {
      await strict.close();
    }
    expect(ctx.services.adapters.require('bluesky').validate(post(1_000_001))).toEqual([]);
  });
});
