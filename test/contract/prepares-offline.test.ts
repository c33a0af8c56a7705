/**
 * An adapter that says its prepare makes no request (`preparesOffline`, docs/decisions/0076-attempt-rows-ahead.md)
 * must make none: a worker runs such a prepare, and writes the attempt row, before the target holds one of its
 * slots, i.e. outside the concurrency that keeps Herald within the platforms' limits. Each adapter's prepare
 * runs here with every request counted: the global `fetch` the adapters call (answering a network failure)
 * and the context's media reads. For each platform that says so, a post it says so of makes none; a post with
 * media it uploads first is not said so of, and its prepare does make one (the count sees it).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { fakeJwt } from '../support/jwt.ts';
import type { AccountContext, AdapterContext, MediaRef, PlatformId, PublishRequest } from '../../src/platforms/types.ts';

const NOWHERE = 'http://127.0.0.1:9';
const app = { clientId: 'client', clientSecret: 'secret', apiBaseUrl: NOWHERE, authBaseUrl: NOWHERE, botToken: '123:token' };
const registry = createAdapterRegistry({
  blueskyServiceUrl: NOWHERE,
  platformApps: Object.fromEntries((['twitter', 'reddit', 'pinterest', 'linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'youtube', 'googlebusiness', 'telegram', 'discord'] as const).map((p) => [p, app])),
});

let requests: string[] = [];
const realFetch = globalThis.fetch;
beforeEach(() => {
  requests = [];
  globalThis.fetch = (async (input: string | URL | Request) => {
    requests.push(String(input instanceof Request ? input.url : input));
    throw new TypeError('fetch failed (this test has no network)');
  }) as typeof fetch;
});
afterEach(() => { globalThis.fetch = realFetch; });

const ctx: AdapterContext = {
  async saveCredentials() {},
  async fetchMedia(item: MediaRef) { requests.push(`media ${item.url}`); throw new TypeError('fetch failed (this test has no network)'); },
  log() {},
};

const request = (text: string, o: Partial<PublishRequest> = {}): PublishRequest => ({
  text, mediaItems: [], threadItems: [], platformSpecificData: {}, tags: [], visibility: 'public', ...o,
});
const image: MediaRef = { type: 'image', url: 'https://media.example/a.jpg', mimeType: 'image/jpeg', size: 1000, width: 800, height: 800 };
const video: MediaRef = { type: 'video', url: 'https://media.example/a.mp4', mimeType: 'video/mp4', size: 100_000, durationSeconds: 10, width: 1080, height: 1920 };

/** An access JWT of `did:plc:someone` expiring `inSeconds` from now. */
const jwt = (inSeconds: number) => fakeJwt({ sub: 'did:plc:someone', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + inSeconds });
/** A Bluesky login whose session is fresh for an hour, and the same login whose access token has expired. */
const BLUESKY_CREDENTIALS = { identifier: 'someone.test', appPassword: 'aaaa-bbbb-cccc-dddd', did: 'did:plc:someone', handle: 'someone.test', pdsUrl: NOWHERE, accessJwt: jwt(3600), refreshJwt: jwt(86_400) };
const BLUESKY_EXPIRED = { ...BLUESKY_CREDENTIALS, did: 'did:plc:expired', accessJwt: jwt(-60) };

/** Per platform: the account it publishes as, the posts it says it prepares offline, and one it does not. */
const cases: Array<{ platform: PlatformId; settings: Record<string, unknown>; offline: PublishRequest[]; online: PublishRequest | null }> = [
  { platform: 'twitter', settings: {}, offline: [request('a post'), request('a thread', { threadItems: [{ content: 'one' }, { content: 'two' }] })], online: request('with a photo', { mediaItems: [image] }) },
  { platform: 'reddit', settings: { defaultSubreddit: 'test' }, offline: [request('Title\nbody'), request('a link', { platformSpecificData: { url: 'https://example.com' } })], online: request('with a photo', { mediaItems: [image] }) },
  { platform: 'linkedin', settings: {}, offline: [request('a post'), request('first comment too', { platformSpecificData: { firstComment: 'hi' } })], online: request('with a photo', { mediaItems: [image] }) },
  { platform: 'facebook', settings: {}, offline: [request('a post'), request('a link', { platformSpecificData: { link: 'https://example.com' } }), request('a video', { mediaItems: [video] })], online: request('with a photo', { mediaItems: [image] }) },
  { platform: 'pinterest', settings: { defaultBoardId: '1' }, offline: [request('a pin', { mediaItems: [image] })], online: request('a video pin', { mediaItems: [video] }) },
  { platform: 'telegram', settings: { chatId: '-100123' }, offline: [request('a message')], online: request('with a photo', { mediaItems: [image] }) },
  { platform: 'discord', settings: { channelId: '10', guildId: '20', channelType: 0 }, offline: [request('a message'), request('with a file', { mediaItems: [image] })], online: null },
  { platform: 'bluesky', settings: {}, offline: [request('a post #tag'), request('a link https://example.com/page'), request('a thread', { threadItems: [{ content: 'one' }, { content: 'two' }] })], online: request('hi @alice.example.com') },
  { platform: 'googlebusiness', settings: { googleAccountId: 'accounts/1', locationId: 'locations/2' }, offline: [request('an update'), request('with a photo', { mediaItems: [image] })], online: null },
];

describe('an adapter that prepares a post offline makes no request while preparing it (decision 0076)', () => {
  for (const c of cases) {
    it(`${c.platform}`, async () => {
      const adapter = registry.get(c.platform)!;
      expect(adapter, c.platform).toBeTruthy();
      const account: AccountContext = { id: 'acc', platformUserId: '12345', username: 'someone', credentials: c.platform === 'bluesky' ? BLUESKY_CREDENTIALS : { accessToken: 'token' }, settings: c.settings };
      for (const req of c.offline) {
        expect(adapter.preparesOffline?.(req, account), `${c.platform}: ${req.text}`).toBe(true);
        await adapter.prepare(ctx, account, req);
        expect(requests, `${c.platform}: ${req.text}`).toEqual([]);
      }
      if (c.online) {
        expect(adapter.preparesOffline?.(c.online, account), `${c.platform}: ${c.online.text}`).toBe(false);
        await adapter.prepare(ctx, account, c.online).catch(() => {});
        expect(requests.length, `${c.platform}: ${c.online.text} makes a request in prepare`).toBeGreaterThan(0);
      }
    });
  }

  it('the platforms whose prepare asks the platform first never say so', () => {
    for (const platform of ['mastodon', 'threads', 'instagram', 'tiktok', 'youtube'] as const) {
      const adapter = registry.get(platform);
      expect(adapter, platform).toBeTruthy();
      expect(adapter!.preparesOffline?.(request('a post'), { id: 'acc', platformUserId: '1', username: 'u', credentials: {}, settings: {} }) ?? false, platform).toBe(false);
    }
  });

  it('Bluesky does not say so while the session needs renewing (prepare renews it first)', async () => {
    const adapter = registry.get('bluesky')!;
    const account: AccountContext = { id: 'acc', platformUserId: 'did:plc:expired', username: 'someone.test', credentials: BLUESKY_EXPIRED, settings: {} };
    const post = request('a post');
    expect(adapter.preparesOffline?.(post, account)).toBe(false);
    await adapter.prepare(ctx, account, post).catch(() => {});
    expect(requests.length).toBeGreaterThan(0);
  });
});
