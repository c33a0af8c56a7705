/**
 * Editing published posts with the official client `@getlatedev/node`, over real HTTP
 * (docs/decisions/0060-edit-published-posts.md): `posts.editPost` on a Telegram post (the Telegram
 * simulator enforces editMessageText), `posts.updatePostMetadata` on a YouTube video in post mode and
 * in direct mode (`_`), and the client's error for a platform that cannot edit (Instagram) and for
 * bad input (the field named).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Zernio, type ZernioApiError } from '@getlatedev/node';
import { startTelegramSimulator, type SimBot, type SimChat, type TelegramSimulator } from '../../sim/telegram/server.ts';
import { startYouTubeSimulator, type YouTubeSimulator } from '../../sim/youtube/server.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { platformEnv } from '../support/harness.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { makeVideo } from '../support/media.ts';
import { oauthConnect } from '../support/oauth.ts';

let ctx: TestContext;
let t: Tenant;
let sdk: Zernio;
let tg: TelegramSimulator;
let yt: YouTubeSimulator;
let media: MediaServer;
let bot: SimBot;
let channel: SimChat;
let profileId: string;
let telegramAccount: string;
let youtubeAccount: string;
let clip: string;

beforeAll(async () => {
  tg = await startTelegramSimulator();
  yt = await startYouTubeSimulator({ dailyUnits: 1_000_000 });
  media = await startMediaServer();
  clip = media.put('/clip.mp4', makeVideo({ seconds: 2, width: 160, height: 120, rate: 5, audio: false }), 'video/mp4');
  bot = tg.addBot({ username: 'sdk_edit_bot' });
  channel = tg.addChat({ type: 'channel', title: 'SDK edits', username: 'sdk_edits' });
  tg.setMember(bot, channel, { status: 'administrator', can_post_messages: true, can_delete_messages: true });
  ctx = await createTestApp({ listen: true, env: { HERALD_TELEGRAM_API_URL: tg.url, ...platformEnv('youtube', yt), HERALD_ALLOW_PRIVATE_URLS: 'true' } });
  t = await createTenant(ctx);
  profileId = await createProfile(ctx, t);
  // Telegram: the bot token, then the channel.
  const started = await ctx.app.inject({ method: 'POST', url: '/v1/connect/telegram/bot-token', headers: t.headers, payload: { profileId, botToken: bot.token } });
  expect(started.statusCode, started.body).toBe(200);
  const chosen = await ctx.app.inject({ method: 'POST', url: '/v1/connect/telegram/select-chat', headers: t.headers, payload: { profileId, tempToken: started.json().tempToken, chatId: String(channel.id) } });
  expect(chosen.statusCode, chosen.body).toBe(200);
  telegramAccount = chosen.json().account.accountId ?? chosen.json().account._id;
  const yDance = await oauthConnect(ctx, t, 'youtube', profileId);
  youtubeAccount = new URL(yDance.done.headers.location as string).searchParams.get('accountId')!;
  sdk = new Zernio({ apiKey: t.apiKey, baseURL: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}` });
});
afterAll(async () => { await ctx?.close(); await tg?.close(); await yt?.close(); await media?.close(); });

const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ZernioApiError);

describe('posts.editPost and posts.updatePostMetadata through the official client', () => {
  it('edits a published Telegram post: the channel message changes, the client reads id and url', async () => {
    const created = await sdk.posts.createPost({ body: { content: 'Launch at 9', publishNow: true, platforms: [{ platform: 'telegram', accountId: telegramAccount }] } });
    expect(created.response.status, JSON.stringify(created.data)).toBe(201);
    const post = created.data.post!;
    const target = post.platforms![0] as { platformPostId: string; platformPostUrl: string };
    const edited = await sdk.posts.editPost({ path: { postId: post._id! }, body: { platform: 'telegram', content: 'Launch at 10 (moved)' } });
    expect(edited.response.status).toBe(200);
    expect(edited.data).toMatchObject({ success: true, id: target.platformPostId, url: target.platformPostUrl });
    expect(tg.messages.find((m) => m.message_id === Number(target.platformPostId))).toMatchObject({ text: 'Launch at 10 (moved)', edit_date: expect.any(Number) });
  });

  it('a platform without an edit endpoint, and bad input, are 400s the client surfaces with the field named', async () => {
    const created = await sdk.posts.createPost({ body: { content: 'For the gram', publishNow: true, platforms: [{ platform: 'telegram', accountId: telegramAccount }] } });
    const postId = created.data.post!._id!;
    const ig = await insertAccount(ctx, t, profileId, 'instagram');
    await ctx.db.query(
      `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, status, platform_post_id, platform_post_url, published_at)
       VALUES (substr(md5(random()::text), 1, 24), $1, $2, 1, $3, 'instagram', 'published', '1790001', 'https://www.instagram.com/p/x/', now())`, [postId, t.userId, ig]);
    const e = await refusal(sdk.posts.editPost({ path: { postId }, body: { platform: 'instagram' as 'facebook', content: 'new caption' } }));
    expect(e?.statusCode).toBe(400);
    expect(JSON.stringify(e)).toMatch(/instagram posts cannot be edited/);
    const empty = await refusal(sdk.posts.editPost({ path: { postId }, body: { platform: 'telegram', content: '' } }));
    expect(empty?.statusCode).toBe(400);
    expect(JSON.stringify(empty)).toMatch(/content/);
  });

  it('updates a YouTube video\'s metadata in post mode and in direct mode', async () => {
    const created = await sdk.posts.createPost({ body: {
      content: 'Video description', publishNow: true, mediaItems: [{ type: 'video', url: clip }],
      platforms: [{ platform: 'youtube', accountId: youtubeAccount, platformSpecificData: { title: 'SDK video' } }],
    } });
    expect(created.response.status, JSON.stringify(created.data)).toBe(201);
    const videoId = (created.data.post!.platforms![0] as { platformPostId: string }).platformPostId;
    const r = await sdk.posts.updatePostMetadata({ path: { postId: created.data.post!._id! }, body: { platform: 'youtube', title: 'SDK video, renamed', privacyStatus: 'private' } });
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ success: true, updatedFields: ['title', 'privacyStatus'] });
    expect(yt.videos.find((v) => v.id === videoId)).toMatchObject({ title: 'SDK video, renamed', privacyStatus: 'private', description: 'Video description' });

    const direct = await sdk.posts.updatePostMetadata({ path: { postId: '_' }, body: { platform: 'youtube', videoId, accountId: youtubeAccount, tags: ['sdk', 'edit'] } });
    expect(direct.data).toMatchObject({ success: true, videoId, updatedFields: ['tags'] });
    expect(yt.videos.find((v) => v.id === videoId)!.tags).toEqual(['sdk', 'edit']);
    const missing = await refusal(sdk.posts.updatePostMetadata({ path: { postId: '_' }, body: { platform: 'youtube', title: 'x' } }));
    expect(missing?.statusCode).toBe(400);
    expect(JSON.stringify(missing)).toMatch(/videoId/);
  });
});
