/**
 * Bluesky adapter against a real local PDS (@atproto/dev-env TestNetworkNoAppView, offline).
 */
import { deflateSync } from 'node:zlib';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startBlueskyPds, type BlueskyPdsHarness, type PdsAccount } from '../../../sim/bluesky-pds.ts';
import { AdapterError, type AccountContext, type AdapterContext, type MediaRef, type PublishRequest } from '../types.ts';
import { BlueskyAdapter, connectBluesky, countGraphemes, type BlueskyCredentials, type BlueskyPrepared } from './adapter.ts';
import { imageDimensions } from './media.ts';
import { jwtExpiry } from './session.ts';
import { isTid, nextTid } from './tid.ts';
import { XrpcRequestError, toAdapterError } from './xrpc.ts';
import { fakeJwt } from '../../../test/support/jwt.ts';

// ---------- helpers ----------

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A valid RGB PNG of `width`×`height` pixels, built in code. */
function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const o = y * (1 + width * 3);
    for (let x = 0; x < width; x++) rows.set([(x * 40) & 255, (y * 40) & 255, 200], o + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** fetch wrapper counting XRPC calls by NSID. */
function countingFetch() {
  const calls = new Map<string, number>();
  const fetchFn: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const nsid = url.pathname.replace(/^\/xrpc\//, '');
    calls.set(nsid, (calls.get(nsid) ?? 0) + 1);
    return fetch(input, init);
  };
  return { fetch: fetchFn, count: (nsid: string) => calls.get(nsid) ?? 0, reset: () => calls.clear() };
}

interface TestCtx extends AdapterContext {
  saved: Array<{ credentials: Record<string, unknown>; tokenExpiresAt?: Date | null }>;
  logs: string[];
}

const png = makePng(4, 3);

function makeCtx(media: Record<string, Buffer> = {}): TestCtx {
  const saved: TestCtx['saved'] = [];
  const logs: string[] = [];
  return {
    saved,
    logs,
    async saveCredentials(credentials, tokenExpiresAt) {
      saved.push({ credentials, tokenExpiresAt });
    },
    async fetchMedia(item: MediaRef, maxBytes: number) {
      const bytes = media[item.url] ?? png;
      if (bytes.length > maxBytes) throw new Error(`too large: ${bytes.length} > ${maxBytes}`);
      return { bytes, mimeType: item.mimeType ?? 'image/png' };
    },
    log(msg) {
      logs.push(msg);
    },
  };
}

function req(text: string, extra: Partial<PublishRequest> = {}): PublishRequest {
  return { text, mediaItems: [], threadItems: [], platformSpecificData: {}, tags: [], visibility: 'public', ...extra };
}

function image(i = 0, extra: Partial<MediaRef> = {}): MediaRef {
  return { type: 'image', url: `https://media.example/img-${i}.png`, mimeType: 'image/png', ...extra };
}

function accountOf(creds: Record<string, unknown>): AccountContext<BlueskyCredentials> {
  const c = creds as unknown as BlueskyCredentials;
  return { id: `acc-${c.did}`, platformUserId: c.did, username: c.handle, credentials: { ...c }, settings: {} };
}


// ---------- suite ----------

let pds: BlueskyPdsHarness;
let alice: PdsAccount;
let bob: PdsAccount;
let aliceCreds: Record<string, unknown>;

beforeAll(async () => {
  pds = await startBlueskyPds();
  alice = await pds.createAccount('alice');
  bob = await pds.createAccount('bob.test');
  aliceCreds = (await connectBluesky(pds.url, alice.handle, alice.appPassword)).credentials;
}, 120_000);

afterAll(async () => {
  await pds?.close();
});

describe('connectBluesky', () => {
  it('logs in with an app password and returns the account', async () => {
    const c = countingFetch();
    const acc = await connectBluesky(pds.url, `@${alice.handle}`, alice.appPassword, { fetch: c.fetch });
    expect(acc.platformUserId).toBe(alice.did);
    expect(acc.username).toBe('alice.test');
    expect(acc.displayName).toBe('alice.test'); // no AppView on the dev PDS: falls back to the handle
    expect(acc.permissions).toEqual(['posts:write', 'posts:read']);
    expect(acc.settings).toMatchObject({ pdsUrl: pds.url, did: alice.did });
    expect(acc.tokenExpiresAt).toBeInstanceOf(Date);
    expect(acc.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 24 * 3600_000);
    const creds = acc.credentials as unknown as BlueskyCredentials;
    expect(creds).toMatchObject({ identifier: 'alice.test', appPassword: alice.appPassword, did: alice.did, handle: 'alice.test', pdsUrl: pds.url, serviceUrl: pds.url });
    expect(creds.accessJwt).toMatch(/^ey/);
    expect(creds.refreshJwt).toMatch(/^ey/);
    expect(c.count('com.atproto.server.createSession')).toBe(1);
  });

  it('refuses a wrong app password with AdapterError disconnected', async () => {
    const err = await connectBluesky(pds.url, alice.handle, 'aaaa-bbbb-cccc-dddd').catch((e) => e);
    expect(err).toBeInstanceOf(AdapterError);
    expect(err.kind).toBe('disconnected');
    expect(err.message).toMatch(/rejected the identifier or app password/);
    expect(err.opts.platformCode).toBe('AuthenticationRequired');
  });

  it('refuses the main account password (only app passwords are stored)', async () => {
    const err = await connectBluesky(pds.url, alice.handle, alice.password).catch((e) => e);
    expect(err).toBeInstanceOf(AdapterError);
    expect(err.kind).toBe('disconnected');
    expect(err.message).toMatch(/app password/);
  });

  it('an unreachable service is transient', async () => {
    const err = await connectBluesky('http://127.0.0.1:1', alice.handle, alice.appPassword).catch((e) => e);
    expect(err).toBeInstanceOf(AdapterError);
    expect(err.kind).toBe('transient');
  });
});

describe('validate (no network)', () => {
  const adapter = new BlueskyAdapter({ fetch: () => Promise.reject(new Error('no network in validate')) });

  it('accepts 300 graphemes and refuses 301', () => {
    expect(adapter.validate(req('a'.repeat(300)))).toEqual([]);
    const v = adapter.validate(req('a'.repeat(301)));
    expect(v).toEqual([
      { field: 'content', rule: 'bluesky.text.max_graphemes', message: 'Bluesky posts are limited to 300 graphemes (this text has 301)' },
    ]);
  });

  it('counts graphemes, not UTF-16 units, and also checks the 3000-byte limit', () => {
    expect(countGraphemes('👩‍👩‍👧')).toBe(1);
    expect(countGraphemes('e\u0301')).toBe(1);
    expect(countGraphemes('🇫🇷👍🏽')).toBe(2);
    // 300 thumbs: 600 UTF-16 units, 1200 bytes, 300 graphemes: fine.
    expect(adapter.validate(req('👍'.repeat(300)))).toEqual([]);
    expect(adapter.validate(req('👍'.repeat(301)))[0].message).toContain('(this text has 301)');
    // 200 family emoji: 200 graphemes but 3600 bytes: only the byte rule fails.
    const v = adapter.validate(req('👩‍👩‍👧'.repeat(200)));
    expect(v.map((x) => x.rule)).toEqual(['bluesky.text.max_bytes']);
    expect(v[0].message).toBe('Bluesky posts are limited to 3000 bytes of UTF-8 text (this text has 3600)');
  });

  it('refuses 5 images, video, documents and oversized images', () => {
    const five = adapter.validate(req('pics', { mediaItems: [0, 1, 2, 3, 4].map((i) => image(i)) }));
    expect(five).toEqual([
      { field: 'mediaItems', rule: 'bluesky.images.max_count', message: 'Bluesky posts can carry at most 4 images (this post has 5)' },
    ]);
    expect(adapter.validate(req('pics', { mediaItems: [0, 1, 2, 3].map((i) => image(i)) }))).toEqual([]);

    const video = adapter.validate(req('clip', { mediaItems: [image(0), { type: 'video', url: 'https://media.example/v.mp4', mimeType: 'video/mp4' }] }));
    expect(video).toHaveLength(1);
    expect(video[0]).toMatchObject({ field: 'mediaItems.1', rule: 'bluesky.media.video_unsupported' });
    expect(video[0].message).toMatch(/Video/);

    const doc = adapter.validate(req('doc', { mediaItems: [{ type: 'document', url: 'https://media.example/a.pdf' }] }));
    expect(doc[0]).toMatchObject({ field: 'mediaItems.0', rule: 'bluesky.media.type' });

    const big = adapter.validate(req('big', { mediaItems: [image(0, { size: 2_000_001 })] }));
    expect(big).toEqual([
      { field: 'mediaItems.0', rule: 'bluesky.image.max_bytes', message: 'Bluesky images are limited to 2,000,000 bytes (this one has 2,000,001)' },
    ]);
    expect(adapter.validate(req('', {}))[0].rule).toBe('bluesky.text.empty');
  });

  it('checks every thread item and refuses media after the first', () => {
    const v = adapter.validate(
      req('ignored', {
        threadItems: [
          { content: 'root', mediaItems: [image(0)] },
          { content: 'x'.repeat(301) },
          { content: 'third', mediaItems: [image(1)] },
        ],
      }),
    );
    expect(v.map((x) => [x.field, x.rule])).toEqual([
      ['threadItems.1.content', 'bluesky.text.max_graphemes'],
      ['threadItems.2.mediaItems', 'bluesky.thread.media_on_reply'],
    ]);
  });
});

describe('publishing against the local PDS', () => {
  it('publishes text with a link, a mention and a hashtag with correct UTF-8 byte facets', async () => {
    const adapter = new BlueskyAdapter();
    const ctx = makeCtx();
    const text = `Café ☕ 👩‍👩‍👧 hi @${bob.handle} and @nobody.test, read https://example.com/docs/start?x=1. #herald`;
    const r = req(text);
    expect(adapter.validate(r)).toEqual([]);
    const prepared = await adapter.prepare(ctx, accountOf(aliceCreds), r);
    expect(JSON.parse(JSON.stringify(prepared))).toEqual(prepared); // JSON-serialisable
    expect(prepared.posts).toHaveLength(1);
    expect(isTid(prepared.posts[0].rkey)).toBe(true);

    const result = await adapter.commit(ctx, accountOf(aliceCreds), r, prepared);
    expect(result.platformPostId).toBe(`at://${alice.did}/app.bsky.feed.post/${prepared.posts[0].rkey}`);
    expect(result.platformPostUrl).toBe(`https://bsky.app/profile/alice.test/post/${prepared.posts[0].rkey}`);
    expect(result.thread).toBeUndefined();
    expect(result.extra?.cid).toMatch(/^bafy/);

    const stored = await pds.getRecord(result.platformPostId);
    expect(stored).not.toBeNull();
    const value = stored!.value as { text: string; facets: Array<{ index: { byteStart: number; byteEnd: number }; features: Array<Record<string, string>> }>; embed: Record<string, unknown> };
    expect(value.text).toBe(text);
    const bytes = Buffer.from(text, 'utf8');
    const slices = value.facets.map((f) => [bytes.subarray(f.index.byteStart, f.index.byteEnd).toString('utf8'), f.features[0]]);
    expect(slices).toEqual([
      [`@${bob.handle}`, { $type: 'app.bsky.richtext.facet#mention', did: bob.did }],
      ['https://example.com/docs/start?x=1', { $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/docs/start?x=1' }],
      ['#herald', { $type: 'app.bsky.richtext.facet#tag', tag: 'herald' }],
    ]);
    // Byte offsets, not UTF-16 offsets: the mention starts after multi-byte characters.
    expect(value.facets[0].index.byteStart).toBe(Buffer.byteLength(`Café ☕ 👩‍👩‍👧 hi `));
    expect(value.facets[0].index.byteStart).not.toBe(`Café ☕ 👩‍👩‍👧 hi `.length);
    // Link card without fetching the page.
    expect(value.embed).toEqual({
      $type: 'app.bsky.embed.external',
      external: { uri: 'https://example.com/docs/start?x=1', title: 'example.com/docs/start', description: '' },
    });
    expect(ctx.saved).toHaveLength(0);
  });

  it('publishes an image post (blob upload, alt text, aspect ratio)', async () => {
    const adapter = new BlueskyAdapter();
    const ctx = makeCtx();
    const r = req('A tiny picture https://example.com', { mediaItems: [image(0, { altText: 'four by three pixels' }), image(1)] });
    const prepared = await adapter.prepare(ctx, accountOf(aliceCreds), r);
    const result = await adapter.commit(ctx, accountOf(aliceCreds), r, prepared);
    const stored = await pds.getRecord(result.platformPostId);
    const embed = stored!.value.embed as { $type: string; images: Array<{ alt: string; aspectRatio: unknown; image: { ref: { $link: string }; mimeType: string; size: number } }> };
    expect(embed.$type).toBe('app.bsky.embed.images'); // images win over the link card
    expect(embed.images).toHaveLength(2);
    expect(embed.images[0].alt).toBe('four by three pixels');
    expect(embed.images[1].alt).toBe('');
    expect(embed.images[0].aspectRatio).toEqual({ width: 4, height: 3 });
    expect(embed.images[0].image).toMatchObject({ mimeType: 'image/png', size: png.length });
    expect(embed.images[0].image.ref.$link).toMatch(/^bafk/);
    // The blob is really stored on the PDS.
    const blob = await fetch(`${pds.url}/xrpc/com.atproto.sync.getBlob?did=${alice.did}&cid=${embed.images[0].image.ref.$link}`);
    expect(blob.status).toBe(200);
    expect(Buffer.from(await blob.arrayBuffer()).equals(png)).toBe(true);
  });

  it('refuses at prepare an image that turns out larger than 2,000,000 bytes', async () => {
    const adapter = new BlueskyAdapter();
    const big = Buffer.concat([png, Buffer.alloc(2_000_001)]);
    const ctx = makeCtx();
    ctx.fetchMedia = async () => ({ bytes: big, mimeType: 'image/png' });
    const err = await adapter.prepare(ctx, accountOf(aliceCreds), req('big', { mediaItems: [image(9)] })).catch((e) => e);
    expect(err).toBeInstanceOf(AdapterError);
    expect(err.kind).toBe('rejected');
    expect(err.message).toMatch(/2,000,000 bytes/);
  });

  it('publishes a 3-item thread, each item replying to the previous one', async () => {
    const adapter = new BlueskyAdapter();
    const ctx = makeCtx();
    const r = req('ignored', {
      threadItems: [{ content: 'Thread 1/3', mediaItems: [image(0)] }, { content: 'Thread 2/3 #herald' }, { content: 'Thread 3/3' }],
    });
    const prepared = await adapter.prepare(ctx, accountOf(aliceCreds), r);
    expect(prepared.posts.map((p) => p.record.text)).toEqual(['Thread 1/3', 'Thread 2/3 #herald', 'Thread 3/3']);
    expect(new Set(prepared.posts.map((p) => p.rkey)).size).toBe(3);
    const result = await adapter.commit(ctx, accountOf(aliceCreds), r, prepared);
    expect(result.thread).toHaveLength(3);
    expect(result.thread![0].platformPostId).toBe(result.platformPostId);
    const recs = await Promise.all(result.thread!.map((t) => pds.getRecord(t.platformPostId)));
    const [root, second, third] = recs.map((x) => x!);
    expect(root.value.reply).toBeUndefined();
    expect((root.value.embed as { $type: string }).$type).toBe('app.bsky.embed.images');
    expect(second.value.reply).toEqual({ root: { uri: root.uri, cid: root.cid }, parent: { uri: root.uri, cid: root.cid } });
    expect(third.value.reply).toEqual({ root: { uri: root.uri, cid: root.cid }, parent: { uri: second.uri, cid: second.cid } });
    expect(result.extra).toMatchObject({ cid: root.cid, uris: [root.uri, second.uri, third.uri] });
  });

  it('commit is idempotent, and verify tells published from not published', async () => {
    const adapter = new BlueskyAdapter();
    const ctx = makeCtx();
    const r = req(`Idempotent ${Date.now()}`);
    const prepared = await adapter.prepare(ctx, accountOf(aliceCreds), r);
    // Stored as JSON on the attempt row: round-trip it.
    const stored: BlueskyPrepared = JSON.parse(JSON.stringify(prepared));

    expect(await adapter.verify(ctx, accountOf(aliceCreds), r, stored)).toEqual({ status: 'not_published' });
    const first = await adapter.commit(ctx, accountOf(aliceCreds), r, stored);
    const second = await adapter.commit(ctx, accountOf(aliceCreds), r, stored);
    expect(second).toEqual(first);
    const withText = (await pds.listPosts(alice.did)).filter((p) => p.value.text === r.text);
    expect(withText).toHaveLength(1);

    const v = await adapter.verify(ctx, accountOf(aliceCreds), r, stored);
    expect(v).toEqual({ status: 'published', result: first });
  });

  it('a thread cut in the middle verifies as not_published and a new commit resumes it without duplicates', async () => {
    const adapter = new BlueskyAdapter();
    const ctx = makeCtx();
    const tag = `cut-${Date.now()}`;
    const r = req('ignored', { threadItems: [{ content: `${tag} 1` }, { content: `${tag} 2` }, { content: `${tag} 3` }] });
    const prepared = await adapter.prepare(ctx, accountOf(aliceCreds), r);
    // Simulate a crash after the first item.
    await adapter.commit(ctx, accountOf(aliceCreds), r, { ...prepared, posts: prepared.posts.slice(0, 1) });
    expect(await adapter.verify(ctx, accountOf(aliceCreds), r, prepared)).toEqual({ status: 'not_published' });
    const result = await adapter.commit(ctx, accountOf(aliceCreds), r, prepared);
    expect(result.thread).toHaveLength(3);
    const posts = (await pds.listPosts(alice.did)).filter((p) => String(p.value.text).startsWith(tag));
    expect(posts).toHaveLength(3);
    expect((await adapter.verify(ctx, accountOf(aliceCreds), r, prepared)).status).toBe('published');
  });

  it('verify answers unknown when the PDS cannot be reached', async () => {
    const adapter = new BlueskyAdapter({ timeoutMs: 2000 });
    const ctx = makeCtx();
    const prepared = await adapter.prepare(ctx, accountOf(aliceCreds), req('never sent'));
    const unreachable = accountOf({ ...aliceCreds, pdsUrl: 'http://127.0.0.1:1' });
    const v = await adapter.verify(ctx, unreachable, req('never sent'), prepared);
    expect(v.status).toBe('unknown');
  });

  it('maps a PDS refusal to rejected with the platform message', async () => {
    const adapter = new BlueskyAdapter();
    const ctx = makeCtx();
    const prepared = await adapter.prepare(ctx, accountOf(aliceCreds), req('short'));
    prepared.posts[0].record.text = 'y'.repeat(301); // bypass validate: the PDS enforces the lexicon
    const err = await adapter.commit(ctx, accountOf(aliceCreds), req('short'), prepared).catch((e) => e);
    expect(err).toBeInstanceOf(AdapterError);
    expect(err.kind).toBe('rejected');
    expect(err.opts.platformCode).toBe('InvalidRequest');
    expect(err.message).toMatch(/grapheme/);
  });
});

describe('sessions', () => {
  it('reuses the session: two publishes call neither createSession nor refreshSession', async () => {
    const c = countingFetch();
    const adapter = new BlueskyAdapter({ fetch: c.fetch });
    const ctx = makeCtx();
    for (const n of [1, 2]) {
      const r = req(`reuse ${n} ${Date.now()}`);
      const prepared = await adapter.prepare(ctx, accountOf(aliceCreds), r);
      await adapter.commit(ctx, accountOf(aliceCreds), r, prepared);
    }
    expect(c.count('com.atproto.repo.createRecord')).toBe(2);
    expect(c.count('com.atproto.server.createSession')).toBe(0);
    expect(c.count('com.atproto.server.refreshSession')).toBe(0);
    expect(ctx.saved).toHaveLength(0);
  });

  it('refreshes an expired access JWT (proactively, from exp), saves it, and reuses it afterwards', async () => {
    const fresh = (await connectBluesky(pds.url, alice.handle, alice.appPassword)).credentials as unknown as BlueskyCredentials;
    const now = Math.floor(Date.now() / 1000);
    const expired = fakeJwt({ scope: 'com.atproto.appPass', sub: alice.did, iat: now - 7300, exp: now - 100 });
    const stale = { ...fresh, accessJwt: expired };
    const c = countingFetch();
    const adapter = new BlueskyAdapter({ fetch: c.fetch });
    const ctx = makeCtx();
    const r = req(`after refresh ${Date.now()}`);
    const prepared = await adapter.prepare(ctx, accountOf(stale), r);
    expect(c.count('com.atproto.server.refreshSession')).toBe(1);
    expect(ctx.saved).toHaveLength(1);
    const saved = ctx.saved[0].credentials as unknown as BlueskyCredentials;
    expect(saved.accessJwt).not.toBe(expired);
    expect(saved.refreshJwt).not.toBe(fresh.refreshJwt); // rotated
    expect(saved).toMatchObject({ did: alice.did, appPassword: alice.appPassword, pdsUrl: pds.url, identifier: 'alice.test' });
    expect(ctx.saved[0].tokenExpiresAt).toEqual(jwtExpiry(saved.refreshJwt));

    // The caller still holds the stale credentials (e.g. prepare and commit in one job): the adapter
    // uses the rotated session it already has instead of refreshing or logging in again.
    await adapter.commit(ctx, accountOf(stale), r, prepared);
    expect(c.count('com.atproto.server.refreshSession')).toBe(1);
    expect(c.count('com.atproto.server.createSession')).toBe(0);
    expect(ctx.saved).toHaveLength(1);
  });

  it('refreshes a garbage access JWT', async () => {
    const fresh = (await connectBluesky(pds.url, alice.handle, alice.appPassword)).credentials;
    const c = countingFetch();
    const adapter = new BlueskyAdapter({ fetch: c.fetch });
    const ctx = makeCtx();
    const r = req(`garbage token ${Date.now()}`);
    const prepared = await adapter.prepare(ctx, accountOf({ ...fresh, accessJwt: 'garbage' }), r);
    await adapter.commit(ctx, accountOf({ ...fresh, accessJwt: 'garbage' }), r, prepared);
    expect(c.count('com.atproto.server.refreshSession')).toBe(1);
    expect(c.count('com.atproto.server.createSession')).toBe(0);
    expect(ctx.saved).toHaveLength(1);
  });

  it('refreshes and retries once when the PDS refuses a token that looks valid (InvalidToken)', async () => {
    const fresh = (await connectBluesky(pds.url, alice.handle, alice.appPassword)).credentials;
    const now = Math.floor(Date.now() / 1000);
    const forged = fakeJwt({ scope: 'com.atproto.appPass', sub: alice.did, aud: 'did:web:localhost', iat: now, exp: now + 3600 });
    const c = countingFetch();
    const adapter = new BlueskyAdapter({ fetch: c.fetch });
    const ctx = makeCtx();
    const r = req(`forged token ${Date.now()}`);
    const prepared = await adapter.prepare(ctx, accountOf({ ...fresh, accessJwt: forged }), r);
    const result = await adapter.commit(ctx, accountOf({ ...fresh, accessJwt: forged }), r, prepared);
    expect(result.platformPostId).toContain(prepared.posts[0].rkey);
    expect(c.count('com.atproto.server.refreshSession')).toBe(1);
    expect(ctx.saved).toHaveLength(1);
  });

  it('logs in again with the app password only when the refresh JWT is refused', async () => {
    const fresh = (await connectBluesky(pds.url, alice.handle, alice.appPassword)).credentials;
    const c = countingFetch();
    const adapter = new BlueskyAdapter({ fetch: c.fetch });
    const ctx = makeCtx();
    const prepared = await adapter.prepare(ctx, accountOf({ ...fresh, accessJwt: 'garbage', refreshJwt: 'garbage' }), req('re-login'));
    expect(prepared.did).toBe(alice.did);
    expect(c.count('com.atproto.server.refreshSession')).toBe(1);
    expect(c.count('com.atproto.server.createSession')).toBe(1);
    expect(ctx.saved).toHaveLength(1);
    expect((ctx.saved[0].credentials as unknown as BlueskyCredentials).accessJwt).toMatch(/^ey/);
  });

  it('a refused app password at publish time is disconnected', async () => {
    const fresh = (await connectBluesky(pds.url, alice.handle, alice.appPassword)).credentials;
    const adapter = new BlueskyAdapter();
    const ctx = makeCtx();
    const broken = { ...fresh, accessJwt: 'garbage', refreshJwt: 'garbage', appPassword: 'wxyz-wxyz-wxyz-wxyz' };
    const err = await adapter.prepare(ctx, accountOf(broken), req('nope')).catch((e) => e);
    expect(err).toBeInstanceOf(AdapterError);
    expect(err.kind).toBe('disconnected');
    expect(err.message).toBe('Bluesky rejected the app password; reconnect the account');
    expect(ctx.saved).toHaveLength(0);
  });
});

describe('helpers', () => {
  it('maps XRPC failures to adapter error kinds', () => {
    const now = 1_800_000_000_000;
    const h = new Headers({ 'ratelimit-reset': String(now / 1000 + 42) });
    const rl = toAdapterError(new XrpcRequestError('x', 429, 'RateLimitExceeded', 'Rate Limit Exceeded', h), now);
    expect(rl.kind).toBe('rate_limited');
    expect(rl.opts.retryAfterMs).toBe(42_000);
    expect(toAdapterError(new XrpcRequestError('x', 400, 'ExpiredToken', 'Token has expired')).kind).toBe('auth_expired');
    expect(toAdapterError(new XrpcRequestError('x', 400, 'InvalidToken', 'bad')).kind).toBe('disconnected');
    expect(toAdapterError(new XrpcRequestError('x', 401, 'AuthenticationRequired', 'bad')).kind).toBe('disconnected');
    const rej = toAdapterError(new XrpcRequestError('x', 400, 'InvalidRequest', 'Invalid app.bsky.feed.post record'));
    expect(rej).toMatchObject({ kind: 'rejected', message: 'Invalid app.bsky.feed.post record' });
    expect(toAdapterError(new XrpcRequestError('x', 502, 'UpstreamFailure', 'down')).kind).toBe('transient');
    expect(toAdapterError(new XrpcRequestError('x', 0, 'NetworkError', 'ECONNREFUSED')).kind).toBe('transient');
  });

  it('generates increasing TIDs and reads image dimensions', () => {
    const a = nextTid();
    const b = nextTid();
    expect(isTid(a) && isTid(b)).toBe(true);
    expect(b > a).toBe(true);
    expect(imageDimensions(makePng(17, 5))).toEqual({ width: 17, height: 5 });
    expect(imageDimensions(Buffer.from('GIF89a\x0a\x00\x14\x00', 'latin1'))).toEqual({ width: 10, height: 20 });
    expect(imageDimensions(Buffer.from('nope'))).toBeUndefined();
  });
});
