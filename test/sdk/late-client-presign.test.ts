/**
 * Presigned uploads and temporary files through the official client `@getlatedev/node` over real
 * HTTP, in sandbox mode (docs/decisions/0066-presigned-uploads.md): `media.getMediaPresignedUrl`,
 * a plain `fetch(uploadUrl, { method: 'PUT' })` with the file, and the publicUrl in a post that
 * publishes to the X simulator; `messages.uploadMediaDirect` (multipart `file`), its URL in a
 * post too; a refused presign is the client's ZernioApiError with Herald's code and fields.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Zernio, ZernioApiError } from '@getlatedev/node';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';
import { makePng } from '../support/png.ts';
import { freePort } from '../support/net.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let t: Tenant;
let sdk: Zernio;
let accountId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  const port = await freePort();
  ctx = await createTestApp({ listen: true, env: { HERALD_SANDBOX: 'on', HERALD_ALLOW_PRIVATE_URLS: 'false', PORT: String(port), HERALD_PUBLIC_URL: `http://127.0.0.1:${port}` }, deps: { sandbox } });
  t = await createTenant(ctx);
  const profileId = await createProfile(ctx, t, 'SDK presign');
  sdk = new Zernio({ apiKey: t.apiKey, baseURL: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}` });
  // Connect X through its simulator (instant approval).
  const start = await ctx.app.inject({ method: 'GET', url: `/v1/connect/twitter?profileId=${profileId}`, headers: t.headers });
  const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
  const callback = new URL(consent.headers.get('location')!);
  await ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
  accountId = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: t.headers })).json().accounts[0]._id;
});
afterAll(async () => {
  await ctx?.close();
  await sandbox?.close();
});

async function publishWith(url: string, content: string) {
  const created = await sdk.posts.createPost({ body: { content, publishNow: true, mediaItems: [{ type: 'image', url }], platforms: [{ platform: 'twitter', accountId }] } });
  expect(created.response.status, JSON.stringify(created.error ?? null)).toBe(201);
  const post = (created.data as { post: { platforms: Array<{ status: string; platformPostId?: string; errorMessage?: string }> } }).post;
  expect(post.platforms[0], JSON.stringify(post.platforms[0])).toMatchObject({ status: 'published' });
  const tweets = (await ctx.app.inject({ method: 'GET', url: '/v1/sandbox/twitter/state', headers: t.headers })).json().state.tweets as Array<{ text: string; media_ids: string[] }>;
  expect(tweets.find((x) => x.text === content)?.media_ids).toHaveLength(1);
}

describe('the official client against presigned uploads (sandbox)', () => {
  it('getMediaPresignedUrl, a PUT to uploadUrl, then publicUrl in a post published to the X simulator', async () => {
    const png = makePng(20, 20, 'noise');
    const res = await sdk.media.getMediaPresignedUrl({ body: { filename: 'launch.png', contentType: 'image/png', size: png.length } });
    expect(res.response.status).toBe(200);
    expect(res.response.headers.get('x-herald-sandbox')).toBe('true');
    const { uploadUrl, publicUrl, key, expiresIn } = res.data!;
    expect(expiresIn).toBe(3600);
    expect(publicUrl!.endsWith(`/media/${key}`)).toBe(true);

    const put = await fetch(uploadUrl!, { method: 'PUT', body: png, headers: { 'Content-Type': 'image/png' } });
    expect(put.status).toBe(200);
    expect((await fetch(publicUrl!)).status).toBe(200);
    await publishWith(publicUrl!, 'Presigned picture');
    // The URL took its file: a second PUT is refused.
    expect((await fetch(uploadUrl!, { method: 'PUT', body: png, headers: { 'Content-Type': 'image/png' } })).status).toBe(409);
  });

  it('a type outside the allow-list is the client\'s ZernioApiError (415, naming contentType)', async () => {
    let err: unknown;
    try {
      await sdk.media.getMediaPresignedUrl({ body: { filename: 'song.mp3', contentType: 'audio/mpeg' } });
    } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ZernioApiError);
    expect(err).toMatchObject({ statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('audio/mpeg') });
    expect(JSON.stringify((err as ZernioApiError).details)).toContain('contentType');
  });

  it('uploadMediaDirect (multipart "file"): a temporary URL that a post publishes', async () => {
    const png = makePng(10, 14, 'noise');
    const res = await sdk.messages.uploadMediaDirect({ body: { file: new Blob([png], { type: 'image/png' }), contentType: 'image/png' } });
    expect(res.response.status, JSON.stringify(res.error ?? null)).toBe(200);
    expect(res.data).toMatchObject({ contentType: 'image/png', size: png.length, filename: expect.stringMatching(/\.png$/), url: expect.stringContaining('/media/tmp/') });
    await publishWith(res.data!.url!, 'Direct picture');
    // Not in the library.
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/media', headers: t.headers })).json().files.map((f: { url: string }) => f.url)).not.toContain(res.data!.url);
  });
});
