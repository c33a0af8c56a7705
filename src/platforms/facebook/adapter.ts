/**
 * Facebook Pages adapter (https://developers.facebook.com/docs/pages-api/posts,
 * https://developers.facebook.com/docs/page-stories-api,
 * https://developers.facebook.com/docs/video-api/guides/reels-publishing). Every call uses the selected Page's
 * token (`credentials.accessToken`); `account.platformUserId` is the Page id.
 *
 * Post kinds and their two phases:
 * - text / link: `commit` = `POST /{page}/feed` (`message`, optional `link` from
 *   `platformSpecificData.link`).
 * - photos (one or more): `prepare` uploads each photo unpublished (`POST /{page}/photos`
 *   `url`, `published=false`); `commit` = `POST /{page}/feed` with `attached_media`.
 * - video: `commit` = `POST /{page}/videos` (`file_url`, `description`).
 * - story (`platformSpecificData.contentType: 'story'`): photo -> `prepare` uploads it
 *   unpublished, `commit` = `POST /{page}/photo_stories`; video -> `prepare` runs the
 *   `video_stories` start phase, hands the `file_url` to the upload URL and polls
 *   `GET /{video}?fields=status` until ready, `commit` = the `finish` phase. Stories show no
 *   caption: the text is not sent.
 * - firstComment: `POST /{post}/comments` after the post; a failure is recorded on the
 *   result (`extra.firstComment`) and never fails the published post.
 * - `verify` (answer lost during commit) reads the Page's feed, videos or stories back to
 *   before the attempt, paging as far as needed, for the prepared post (see {@link FacebookAdapter.verify}):
 *   found -> published; proven absent -> not published (the commit is safe to repeat);
 *   unreadable or ambiguous -> unknown.
 *
 * Graph errors map as in meta/graph.ts: code 190 -> the Page token is dead; there is no
 * refresh, so the account must be reconnected.
 */
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type EditRequest, type EditResult, type PlatformAdapter, type PlatformCapabilities, type PublishedPost, deleteUnlessGone,
  type PublishRequest, type PublishResult, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics,
 lookupFailed,
} from '../types.ts';
import { graphFindComment, graphJson, isGraphObjectMissing, graphLookBack, type GraphComment, type GraphListPage, insightCounts, type GraphInsights } from '../meta/graph.ts';
import { FACEBOOK_API_VERSION } from './oauth.ts';
import {
  capabilitiesOf, FACEBOOK_MAX_FIRST_COMMENT, FACEBOOK_MAX_TEXT, FACEBOOK_PHOTO_MAX_BYTES, FACEBOOK_STORY_VIDEO_MAX_BYTES,
} from '../../shared/capabilities.ts';
import { FACEBOOK_DEFAULT_LIMITS, facebookRules, isFacebookStory } from '../../shared/rules/facebook.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer and the bulk CSV). */
export { FACEBOOK_MAX_FIRST_COMMENT, FACEBOOK_MAX_TEXT, FACEBOOK_PHOTO_MAX_BYTES, FACEBOOK_STORY_VIDEO_MAX_BYTES };

export interface FacebookOptions {
  /**
   * Most photos in one feed post (`attached_media`). **UNCONFIRMED**: no official limit was
   * found in Facebook's Pages API docs. Default 10.
   */
  maxPhotos?: number;
  /**
   * Largest story photo, bytes. **CONFLICT**: the Page Stories API page
   * (https://developers.facebook.com/docs/page-stories-api) says 10 MB in English,
   * 4 MB in older translations. Default 10 MB.
   */
  storyPhotoMaxBytes?: number;
  /** Interval between video status polls, ms. Default 2,000. */
  pollIntervalMs?: number;
  /** Give up waiting for a story video after this long, ms (transient). Default 10 minutes. */
  pollTimeoutMs?: number;
  /** Story media must be on a public HTTPS URL (docs/decisions/0016). Default true; tests against a loopback media server turn it off. */
  storyRequireHttps?: boolean;
}

export const FACEBOOK_CAPABILITIES: PlatformCapabilities = capabilitiesOf('facebook');

type Kind = 'feed' | 'photos' | 'video' | 'photo_story' | 'video_story';

export interface FacebookPrepared {
  preparedAt: string;
  kind: Kind;
  message: string;
  link?: string;
  /** Unpublished photo ids (photos, photo_story). */
  photoIds?: string[];
  /** Feed video: its public URL. */
  videoUrl?: string;
  /** Story video id (after the start phase and upload). */
  videoId?: string;
  firstComment?: string;
}

const isStory = isFacebookStory;

export class FacebookAdapter implements PlatformAdapter<Record<string, unknown>, FacebookPrepared> {
  readonly platform = 'facebook' as const;
  readonly capabilities: PlatformCapabilities;
  private readonly opts: Required<FacebookOptions>;

  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, opts: FacebookOptions = {}) {
    this.opts = { ...FACEBOOK_DEFAULT_LIMITS, pollIntervalMs: 2000, pollTimeoutMs: 10 * 60_000, storyRequireHttps: true, ...opts };
    this.capabilities = { ...FACEBOOK_CAPABILITIES, maxImages: this.opts.maxPhotos };
  }

  /** The shared rule table (src/shared/rules/facebook.ts) with this adapter's limits. */
  validate(req: PublishRequest): RuleViolation[] {
    return facebookRules.check(req, { maxPhotos: this.opts.maxPhotos, storyPhotoMaxBytes: this.opts.storyPhotoMaxBytes, storyRequireHttps: this.opts.storyRequireHttps });
  }

  /**
   * A Page post's insights and counters, two calls per post: `GET /{post_id}/insights?metric=post_total_media_view_unique,
   * post_reactions_by_type_total,post_clicks` (https://developers.facebook.com/docs/graph-api/reference/insights;
   * reactions are a breakdown by type, summed as likes) and `GET /{post_id}?fields=shares,comments.limit(0).summary(true)`
   * (https://developers.facebook.com/docs/graph-api/reference/post). A post without insights (a story) is left out.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    for (const id of platformPostIds) {
      const insights = await this.get<GraphInsights>(ctx, account, `${id}/insights`, { metric: 'post_total_media_view_unique,post_reactions_by_type_total,post_clicks' });
      const counts: Record<string, unknown> = insightCounts(insights);
      if (!Object.keys(counts).length) continue;
      const post = await this.get<{ shares?: { count?: number }; comments?: { summary?: { total_count?: number } } }>(ctx, account, id, { fields: 'shares,comments.limit(0).summary(true)' });
      counts['shares.count'] = post.shares?.count ?? 0;
      if (post.comments?.summary?.total_count !== undefined) counts['comments.summary.total_count'] = post.comments.summary.total_count;
      out.set(id, mapMetrics('facebook', counts));
    }
    return out;
  }

  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string, base: string) => Promise<T>): Promise<T> {
    const app = this.app();
    return withAccessToken(ctx, account, this.provider, app, (token) => fn(token, app.apiBaseUrl));
  }

  private path = (p: string) => `/${FACEBOOK_API_VERSION}/${p}`;

  private async post<T>(ctx: AdapterContext, account: AccountContext, p: string, form: Record<string, string>, query?: Record<string, string>): Promise<T> {
    return this.call(ctx, account, async (token, base) => (await graphJson<T>(base, this.path(p), { method: 'POST', token, form, query })).body);
  }

  private async get<T>(ctx: AdapterContext, account: AccountContext, p: string, query: Record<string, string | number>): Promise<T> {
    return this.call(ctx, account, async (token, base) => (await graphJson<T>(base, this.path(p), { token, query })).body);
  }

  /**
   * Deletes the Page post: `DELETE /{post-id}` with the Page token
   * (https://developers.facebook.com/docs/graph-api/reference/post/#deleting). A post Facebook no
   * longer has (Graph error 100, subcode 33: "does not exist") counts as deleted.
   */
  /**
   * Changes a Page post's message: `POST /{post-id}` with `message` and the Page token (`{success:
   * true}`; https://developers.facebook.com/docs/graph-api/reference/post/#updating). Stories have no
   * message to change (Facebook refuses). The post keeps its id.
   */
  async editPublished(ctx: AdapterContext, account: AccountContext, edit: EditRequest): Promise<EditResult> {
    await this.post(ctx, account, edit.post.platformPostId, { message: edit.text });
    return { platformPostId: edit.post.platformPostId, platformPostUrl: edit.post.platformPostUrl };
  }

  async unpublish(ctx: AdapterContext, account: AccountContext, post: PublishedPost): Promise<void> {
    await deleteUnlessGone(() => this.call(ctx, account, async (token, base) => (await graphJson(base, this.path(post.platformPostId), { method: 'DELETE', token })).body),
      isGraphObjectMissing);
  }


  /** A feed post, link or video by URL needs no Graph call to prepare; photos and stories are uploaded first. */
  preparesOffline(req: PublishRequest): boolean {
    return !isStory(req) && (req.mediaItems.length === 0 || req.mediaItems[0].type === 'video');
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<FacebookPrepared> {
    const psd = req.platformSpecificData;
    const page = account.platformUserId;
    const base = {
      preparedAt: new Date().toISOString(), message: req.text,
      ...(typeof psd.firstComment === 'string' && psd.firstComment.trim() ? { firstComment: psd.firstComment } : {}),
    };
    if (isStory(req)) {
      const m = req.mediaItems[0];
      if (m.type === 'image' || m.type === 'gif') {
        const { id } = await this.post<{ id: string }>(ctx, account, `${page}/photos`, { url: m.url, published: 'false' });
        return { ...base, message: '', kind: 'photo_story', photoIds: [id] };
      }
      const start = await this.post<{ video_id: string; upload_url: string }>(ctx, account, `${page}/video_stories`, { upload_phase: 'start' });
      await this.call(ctx, account, async (token) => {
        const u = new URL(start.upload_url);
        return graphJson(u.origin, u.pathname + u.search, { method: 'POST', headers: { authorization: `OAuth ${token}`, file_url: m.url } });
      });
      await this.waitVideoReady(ctx, account, start.video_id);
      return { ...base, message: '', kind: 'video_story', videoId: start.video_id };
    }
    const link = typeof psd.link === 'string' ? psd.link : undefined;
    if (req.mediaItems.length === 0) return { ...base, kind: 'feed', ...(link ? { link } : {}) };
    if (req.mediaItems[0].type === 'video') return { ...base, kind: 'video', videoUrl: req.mediaItems[0].url };
    const photoIds: string[] = [];
    for (const m of req.mediaItems) {
      photoIds.push((await this.post<{ id: string }>(ctx, account, `${page}/photos`, { url: m.url, published: 'false', ...(m.altText ? { alt_text_custom: m.altText } : {}) })).id);
    }
    return { ...base, kind: 'photos', photoIds };
  }

  /** Polls `GET /{video}?fields=status` until ready. @throws AdapterError rejected (error), transient (timeout). */
  private async waitVideoReady(ctx: AdapterContext, account: AccountContext, videoId: string): Promise<void> {
    const deadline = Date.now() + this.opts.pollTimeoutMs;
    for (;;) {
      const s = await this.get<{ status?: { video_status?: string; processing_phase?: { error?: { message?: string } } } }>(ctx, account, videoId, { fields: 'status' });
      const st = s.status?.video_status;
      if (st === 'ready' || st === 'upload_complete') return;
      if (st === 'error') throw new AdapterError('rejected', `Facebook could not process the video: ${s.status?.processing_phase?.error?.message ?? 'error'}`);
      if (Date.now() > deadline) throw new AdapterError('transient', 'Facebook is still processing the video');
      await new Promise((r) => setTimeout(r, this.opts.pollIntervalMs));
    }
  }

  private async permalink(ctx: AdapterContext, account: AccountContext, id: string): Promise<string> {
    try {
      return (await this.get<{ permalink_url?: string }>(ctx, account, id, { fields: 'id,permalink_url' })).permalink_url ?? `https://www.facebook.com/${id}`;
    } catch {
      return `https://www.facebook.com/${id}`;
    }
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: FacebookPrepared): Promise<PublishResult> {
    const page = account.platformUserId;
    let id: string;
    let url: string | undefined;
    switch (prepared.kind) {
      case 'photo_story':
        id = (await this.post<{ post_id: string }>(ctx, account, `${page}/photo_stories`, {}, { photo_id: prepared.photoIds![0] })).post_id;
        url = `https://www.facebook.com/stories/${page}`;
        break;
      case 'video_story':
        id = (await this.post<{ post_id: string }>(ctx, account, `${page}/video_stories`, {}, { upload_phase: 'finish', video_id: prepared.videoId! })).post_id;
        url = `https://www.facebook.com/stories/${page}`;
        break;
      case 'video':
        id = (await this.post<{ id: string }>(ctx, account, `${page}/videos`, { file_url: prepared.videoUrl!, description: prepared.message, published: 'true' })).id;
        url = `https://www.facebook.com/${page}/videos/${id}`;
        break;
      default: {
        const form: Record<string, string> = { message: prepared.message, published: 'true' };
        if (prepared.link) form.link = prepared.link;
        prepared.photoIds?.forEach((p, i) => { form[`attached_media[${i}]`] = JSON.stringify({ media_fbid: p }); });
        id = (await this.post<{ id: string }>(ctx, account, `${page}/feed`, form)).id;
      }
    }
    const result: PublishResult = { platformPostId: id, platformPostUrl: url ?? await this.permalink(ctx, account, id) };
    return this.firstComment(ctx, account, prepared, result);
  }

  /** Posts the first comment; a failure is recorded, never thrown (the post is live). */
  private async firstComment(ctx: AdapterContext, account: AccountContext, prepared: FacebookPrepared, result: PublishResult): Promise<PublishResult> {
    if (!prepared.firstComment) return result;
    try {
      const c = await this.post<{ id: string }>(ctx, account, `${result.platformPostId}/comments`, { message: prepared.firstComment });
      return { ...result, extra: { ...result.extra, firstComment: { status: 'published', id: c.id } } };
    } catch (err) {
      return { ...result, extra: { ...result.extra, firstComment: { status: 'failed', error: (err as Error).message } } };
    }
  }

  /**
   * The first comment on the verify path: the interrupted commit may have posted it already, so
   * the post's comments are read first (`GET /{object-id}/comments`,
   * https://developers.facebook.com/docs/graph-api/reference/object/comments/) and a comment by
   * the Page with the same message is recorded instead of posting a second. When they cannot be
   * read, nothing is posted (it may exist) and the failure is recorded on the result.
   */
  private async firstCommentOnce(ctx: AdapterContext, account: AccountContext, prepared: FacebookPrepared, result: PublishResult): Promise<PublishResult> {
    if (!prepared.firstComment) return result;
    let existing: string | null;
    try {
      existing = await graphFindComment(
        (after) => this.get<GraphListPage<GraphComment>>(ctx, account, `${result.platformPostId}/comments`, { fields: 'id,message,from', filter: 'toplevel', limit: 100, ...(after ? { after } : {}) }),
        { id: account.platformUserId }, prepared.firstComment, VERIFY_MAX_PAGES);
    } catch (err) {
      return { ...result, extra: { ...result.extra, firstComment: { status: 'failed', error: `not posted: whether it was already posted could not be checked (${(err as Error).message})` } } };
    }
    if (existing) return { ...result, extra: { ...result.extra, firstComment: { status: 'published', id: existing } } };
    return this.firstComment(ctx, account, prepared, result);
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md): reads the
   * Page's edge for the prepared kind back to `window.since`, 100 a call, following the
   * `after` cursor while `paging.next` is present (https://developers.facebook.com/docs/graph-api/results):
   * - stories: `GET /{page}/stories?since=` (https://developers.facebook.com/docs/page-stories-api),
   *   matched by `media_id` (the photo or video id uploaded for this attempt);
   * - feed: `GET /{page}/feed?since=` (https://developers.facebook.com/docs/graph-api/reference/page/feed),
   *   photo posts matched by their attached photo ids (`attachments{target{id}}`), text and link
   *   posts by the exact message;
   * - video: `GET /{page}/videos` (https://developers.facebook.com/docs/graph-api/reference/page/videos),
   *   matched by the exact description, read until its `created_time` is older than `since`.
   * No match after a complete look-back -> not_published. Unknown: a failed call, more than
   * VERIFY_MAX_PAGES pages, several equal candidates, or an empty text that other posts share.
   */
  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: FacebookPrepared, window: VerifyWindow): Promise<VerifyResult<FacebookPrepared>> {
    const page = account.platformUserId;
    const since = Math.floor(window.since.getTime() / 1000);
    const read = <T>(edge: string, query: Record<string, string | number>, time: (x: T) => string | undefined) => graphLookBack<T>(
      (after) => this.get<GraphListPage<T>>(ctx, account, `${page}/${edge}`, { ...query, limit: 100, ...(after ? { after } : {}) }),
      (x) => { const t = time(x); return t ? Date.parse(t) : undefined; }, window.since, VERIFY_MAX_PAGES);
    const tooMany = { status: 'unknown' as const, reason: `the Page posted more than ${VERIFY_MAX_PAGES * 100} items since the attempt` };
    try {
      let found: Array<{ id: string; url: string }>;
      let sameText = false;
      if (prepared.kind === 'photo_story' || prepared.kind === 'video_story') {
        const mediaId = prepared.kind === 'photo_story' ? prepared.photoIds![0] : prepared.videoId!;
        const r = await read<{ post_id: string; media_id?: string; url?: string; creation_time?: string }>('stories', { since }, (x) => x.creation_time);
        if (!r.complete) return tooMany;
        found = r.items.filter((x) => x.media_id === mediaId).map((x) => ({ id: x.post_id, url: x.url ?? `https://www.facebook.com/stories/${page}` }));
      } else if (prepared.kind === 'video') {
        const r = await read<{ id: string; description?: string; created_time?: string }>('videos', { fields: 'id,description,created_time,permalink_url' }, (x) => x.created_time);
        if (!r.complete) return tooMany;
        found = r.items.filter((x) => (x.description ?? '') === prepared.message).map((x) => ({ id: x.id, url: `https://www.facebook.com/${page}/videos/${x.id}` }));
        sameText = !prepared.message.trim();
      } else {
        type FeedPost = { id: string; message?: string; created_time?: string; permalink_url?: string; attachments?: { data?: Array<{ target?: { id?: string }; subattachments?: { data?: Array<{ target?: { id?: string } }> } }> } };
        const r = await read<FeedPost>('feed', { since, fields: 'id,message,created_time,permalink_url,attachments{media_type,target{id},subattachments{target{id}}}' }, (x) => x.created_time);
        if (!r.complete) return tooMany;
        // An album's photos are its subattachments (its own target is the album).
        const photoIds = (x: FeedPost) => (x.attachments?.data ?? []).flatMap((a) => (a.subattachments?.data?.length ? a.subattachments.data.map((s) => s.target?.id) : [a.target?.id]))
          .filter((id): id is string => Boolean(id));
        const wanted = [...(prepared.photoIds ?? [])].sort().join(',');
        found = r.items.filter((x) => {
          // The photos uploaded (unpublished) for this attempt are the marker.
          if (prepared.photoIds?.length) return [...new Set(photoIds(x))].sort().join(',') === wanted;
          return (x.message ?? '') === prepared.message;
        }).map((x) => ({ id: x.id, url: x.permalink_url ?? `https://www.facebook.com/${x.id}` }));
        sameText = !prepared.photoIds?.length && !prepared.message.trim();
      }
      if (found.length > 1) return { status: 'unknown', reason: `${found.length} posts on the Page match what was sent` };
      if (found.length === 1 && sameText) return { status: 'unknown', reason: 'a post without text cannot be told apart from other posts without text on the Page' };
      if (found.length === 0) return { status: 'not_published' };
      const result = await this.firstCommentOnce(ctx, account, prepared, { platformPostId: found[0].id, platformPostUrl: found[0].url });
      return { status: 'published', result };
    } catch (err) {
      return lookupFailed(err);
    }
  }
}
