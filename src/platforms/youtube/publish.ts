/**
 * What follows YouTube's upload in `commit` and `verify`: the custom thumbnail
 * (`thumbnails.set`), the first comment (`commentThreads.insert`, checked against the channel's
 * existing comments when verify found the video) and the publish result.
 */
import type { AccountContext, AdapterContext, PublishResult } from '../types.ts';
import { googleJson } from './google.ts';
import type { VideoResource, YouTubeApi, YouTubePrepared } from './model.ts';
import { fetchThumbnail } from './upload.ts';

/** Thumbnail and first comment after the video exists; failures are recorded, never thrown. */
async function afterUpload(ctx: AdapterContext, account: AccountContext, api: YouTubeApi, thumbnailMaxBytes: number, prepared: YouTubePrepared, videoId: string, checkExistingComment: boolean): Promise<Record<string, unknown>> {
  const extra: Record<string, unknown> = {};
  const base = api.apiBaseUrl();
  if (prepared.thumbnailUrl) {
    try {
      const t = await fetchThumbnail(ctx, prepared.thumbnailUrl, thumbnailMaxBytes);
      const r = await api.call((token) => googleJson<{ items?: Array<{ default?: { url?: string } }> }>(base, '/upload/youtube/v3/thumbnails/set', {
        method: 'POST', token, query: { videoId, uploadType: 'media' }, headers: { 'content-type': t.mimeType }, body: t.bytes,
      }));
      extra.thumbnail = { status: 'published', url: r.body.items?.[0]?.default?.url ?? null };
    } catch (err) {
      extra.thumbnail = { status: 'failed', error: (err as Error).message };
      ctx.log('youtube: thumbnail failed', { videoId, error: (err as Error).message });
    }
  }
  if (prepared.firstComment) {
    try {
      if (checkExistingComment) {
        const list = await api.call((token) => googleJson<{ items?: Array<{ id: string; snippet?: { topLevelComment?: { snippet?: { textOriginal?: string; authorChannelId?: { value?: string } } } } }> }>(
          base, '/youtube/v3/commentThreads', { token, query: { part: 'snippet', videoId, maxResults: 100 } }));
        const mine = list.body.items?.find((c) => c.snippet?.topLevelComment?.snippet?.textOriginal === prepared.firstComment
          && c.snippet?.topLevelComment?.snippet?.authorChannelId?.value === account.platformUserId);
        if (mine) {
          extra.firstComment = { status: 'published', id: mine.id };
          return extra;
        }
      }
      const r = await api.call((token) => googleJson<{ id?: string }>(base, '/youtube/v3/commentThreads', {
        method: 'POST', token, query: { part: 'snippet' },
        json: { snippet: { channelId: account.platformUserId, videoId, topLevelComment: { snippet: { textOriginal: prepared.firstComment } } } },
      }));
      extra.firstComment = { status: 'published', id: r.body.id ?? null };
    } catch (err) {
      extra.firstComment = { status: 'failed', error: (err as Error).message };
      ctx.log('youtube: first comment failed', { videoId, error: (err as Error).message });
    }
  }
  return extra;
}

/** The publish result for the uploaded `video`, after its thumbnail and first comment (checked for an existing comment when `fromVerify`). */
export async function buildResult(ctx: AdapterContext, account: AccountContext, api: YouTubeApi, thumbnailMaxBytes: number, prepared: YouTubePrepared, video: VideoResource, fromVerify: boolean): Promise<PublishResult> {
  const extra = {
    isShort: prepared.isShort,
    ...(prepared.durationSeconds !== undefined ? { durationSeconds: prepared.durationSeconds } : {}),
    privacyStatus: video.status?.privacyStatus ?? prepared.privacyStatus,
    ...(prepared.publishAt ? { publishAt: video.status?.publishAt ?? prepared.publishAt } : {}),
    ...(await afterUpload(ctx, account, api, thumbnailMaxBytes, prepared, video.id, fromVerify)),
  };
  const url = prepared.isShort ? `https://www.youtube.com/shorts/${video.id}` : `https://www.youtube.com/watch?v=${video.id}`;
  // Uploaded private with publishAt: YouTube makes it public then; until then the post stays scheduled.
  const publishAt = extra.privacyStatus === 'private' && typeof extra.publishAt === 'string' ? extra.publishAt : null;
  return { platformPostId: video.id, platformPostUrl: url, extra, ...(publishAt && Date.parse(publishAt) > Date.now() ? { goesLiveAt: publishAt } : {}) };
}
