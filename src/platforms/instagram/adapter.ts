/**
 * Instagram adapter (business accounts, Instagram Login;
 * https://developers.facebook.com/docs/instagram-platform/content-publishing). Post kinds:
 * single image, carousel (2-10 images/videos), video (always published as a Reel) and story
 * (`platformSpecificData.contentType: 'story'`, one image or one video).
 *
 * Two phases on Instagram's container model:
 * - `prepare` creates the container(s) with `POST /{ig-user}/media` (carousel children with
 *   `is_carousel_item=true` first, then the CAROUSEL parent) and polls
 *   `GET /{container}?fields=status_code,status` until FINISHED (ERROR -> rejected with
 *   Instagram's status text; EXPIRED -> transient, so a retry prepares a new container).
 * - `commit` = `POST /{ig-user}/media_publish?creation_id=<container>`, then the permalink and
 *   the first comment (`POST /{media}/comments`; a failure is recorded in `extra.firstComment`,
 *   never fails the post).
 * - `verify` reads the container status: FINISHED -> not published (publish the same
 *   container); ERROR or EXPIRED -> not published, and a new container is prepared for the
 *   commit (that one can never be published); PUBLISHED -> the media is looked up in the
 *   account's media (stories) back to before the attempt, by type and caption; IN_PROGRESS ->
 *   unknown.
 *
 * Options (platformSpecificData): `collaborators` (usernames without @, not on stories),
 * `userTags` ([{username, x, y, mediaIndex?}], x and y within 0.0-1.0, images and carousels
 * only; `mediaIndex` picks the carousel item, default 0), `firstComment` (not on stories),
 * `shareToFeed` (reels, default true). A video's cover is `mediaItems[i].instagramThumbnail`
 * (or `platformSpecificData.instagramThumbnail`): JPEG up to 8 MB, sent as `cover_url`.
 * Media is passed by public URL: Instagram downloads it.
 */
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type AdapterErrorKind, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics,
 lookupFailed,
} from '../types.ts';
import { graphFindComment, graphJson, graphLookBack, type GraphComment, type GraphListPage, insightCounts, type GraphInsights } from '../meta/graph.ts';
import { INSTAGRAM_API_VERSION } from './oauth.ts';
import {
  capabilitiesOf, INSTAGRAM_IMAGE_MAX_BYTES, INSTAGRAM_MAX_CAPTION, INSTAGRAM_MAX_FIRST_COMMENT, INSTAGRAM_MAX_HASHTAGS, INSTAGRAM_THUMBNAIL_MAX_BYTES,
} from '../../shared/capabilities.ts';
import { INSTAGRAM_DEFAULT_LIMITS, instagramRules, instagramThumbnailOf, isInstagramStory } from '../../shared/rules/instagram.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer and the bulk CSV). */
export { INSTAGRAM_IMAGE_MAX_BYTES, INSTAGRAM_MAX_CAPTION, INSTAGRAM_MAX_FIRST_COMMENT, INSTAGRAM_MAX_HASHTAGS, INSTAGRAM_THUMBNAIL_MAX_BYTES };

export interface InstagramOptions {
  /**
   * Most collaborators. The collaborators reference says 3
   * (https://developers.facebook.com/documentation/instagram-platform/instagram-graph-api/reference/ig-media/collaborators);
   * an earlier reading of 5 was wrong. Default 3.
   */
  maxCollaborators?: number;
  /** Carousel size, 2 to this. Official text not retrieved (**UNCONFIRMED**, scheduler value 10). */
  carouselMax?: number;
  /** Largest reel, bytes. **CONFLICT**: 300 MB on the English page of a third-party media guide (https://www.ayrshare.com/docs/media-guidelines/instagram), 1 GB in its translations. Default 300 MB. */
  videoMaxBytes?: number;
  /** Reel duration bounds, seconds (3 s to 15 min, third-party: https://www.ayrshare.com/docs/media-guidelines/instagram). */
  videoMinSeconds?: number;
  videoMaxSeconds?: number;
  /** Interval between container status polls, ms. Default 2,000 (Instagram advises about once a minute for up to 5 minutes). */
  pollIntervalMs?: number;
  /** Give up waiting for a container after this long, ms (transient). Default 5 minutes. */
  pollTimeoutMs?: number;
}

export const INSTAGRAM_CAPABILITIES: PlatformCapabilities = capabilitiesOf('instagram');

type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
interface UserTag { username: string; x: number; y: number; mediaIndex?: number }

export interface InstagramPrepared {
  preparedAt: string;
  containerId: string;
  kind: 'image' | 'reel' | 'carousel' | 'story';
  caption: string;
  firstComment?: string;
  /**
   * Set by verify when the container can never be published (ERROR or EXPIRED) and preparing a
   * new one failed: why, so that commit fails with it before calling Instagram (see verify).
   */
  unusable?: { kind: AdapterErrorKind; message: string; retryAfterMs?: number };
}

const isStory = isInstagramStory;
const thumbnailOf = (req: PublishRequest, m: MediaRef) => { const t = instagramThumbnailOf(req, m); return typeof t === 'string' ? t : undefined; };

export class InstagramAdapter implements PlatformAdapter<Record<string, unknown>, InstagramPrepared> {
  readonly platform = 'instagram' as const;
  readonly capabilities: PlatformCapabilities;
  private readonly opts: Required<InstagramOptions>;

  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, opts: InstagramOptions = {}) {
    this.opts = { ...INSTAGRAM_DEFAULT_LIMITS, pollIntervalMs: 2000, pollTimeoutMs: 5 * 60_000, ...opts };
    this.capabilities = { ...INSTAGRAM_CAPABILITIES, maxImages: this.opts.carouselMax, maxVideos: this.opts.carouselMax };
  }

  /** The shared rule table (src/shared/rules/instagram.ts) with this adapter's limits. */
  validate(req: PublishRequest): RuleViolation[] {
    return instagramRules.check(req, this.opts);
  }

  /**
   * Media insights, one call per post (`GET /{ig_media_id}/insights?metric=views,reach,likes,comments,shares,saved`,
   * https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights). Missing
   * data comes back as an empty list (not 0), and such a post is left out.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    for (const id of platformPostIds) {
      const body = await this.call(ctx, account, async (token, base) => (await graphJson<GraphInsights>(base, this.path(`${id}/insights`), {
        token, query: { metric: 'views,reach,likes,comments,shares,saved' },
      })).body);
      const counts = insightCounts(body);
      if (Object.keys(counts).length) out.set(id, mapMetrics('instagram', counts));
    }
    return out;
  }

  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string, base: string) => Promise<T>): Promise<T> {
    const app = this.app();
    return withAccessToken(ctx, account, this.provider, app, (token) => fn(token, app.apiBaseUrl));
  }

  private path = (p: string) => `/${INSTAGRAM_API_VERSION}/${p}`;

  private async createContainer(ctx: AdapterContext, account: AccountContext, params: Record<string, string>): Promise<string> {
    return this.call(ctx, account, async (token, base) => (await graphJson<{ id: string }>(base, this.path(`${account.platformUserId}/media`), { method: 'POST', token, form: params })).body.id);
  }

  private async status(ctx: AdapterContext, account: AccountContext, id: string): Promise<{ status_code: ContainerStatus; status?: string }> {
    return this.call(ctx, account, async (token, base) => (await graphJson<{ status_code: ContainerStatus; status?: string }>(base, this.path(id), { token, query: { fields: 'status_code,status' } })).body);
  }

  /** Polls until FINISHED. @throws AdapterError rejected (ERROR), transient (EXPIRED, timeout). */
  private async waitFinished(ctx: AdapterContext, account: AccountContext, id: string, what: string): Promise<void> {
    const deadline = Date.now() + this.opts.pollTimeoutMs;
    for (;;) {
      const s = await this.status(ctx, account, id);
      if (s.status_code === 'FINISHED' || s.status_code === 'PUBLISHED') return;
      if (s.status_code === 'ERROR') throw new AdapterError('rejected', `Instagram could not process the ${what}: ${s.status ?? 'ERROR'}`);
      if (s.status_code === 'EXPIRED') throw new AdapterError('transient', `The Instagram container for the ${what} expired before it was published`);
      if (Date.now() > deadline) throw new AdapterError('transient', `Instagram is still processing the ${what}`);
      await new Promise((r) => setTimeout(r, this.opts.pollIntervalMs));
    }
  }

  /** Checks the thumbnail's size (8 MB) by reading it; before any container is created. */
  private async checkThumbnail(ctx: AdapterContext, url: string): Promise<void> {
    try {
      const { bytes } = await ctx.fetchMedia({ type: 'image', url }, INSTAGRAM_THUMBNAIL_MAX_BYTES + 1);
      if (bytes.length > INSTAGRAM_THUMBNAIL_MAX_BYTES) throw new AdapterError('rejected', 'instagram.thumbnail.max_bytes: the Instagram video thumbnail is larger than 8 MB');
    } catch (err) {
      const msg = (err as Error).message;
      if (msg.startsWith('instagram.thumbnail.max_bytes')) throw err;
      if (/large|size|exceed|bytes|limit/i.test(msg)) throw new AdapterError('rejected', `instagram.thumbnail.max_bytes: the Instagram video thumbnail is larger than 8 MB (${msg})`);
      if (err instanceof AdapterError) throw err;
      throw new AdapterError('rejected', `The Instagram video thumbnail could not be read: ${msg}`);
    }
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<InstagramPrepared> {
    const psd = req.platformSpecificData;
    const caption = req.text;
    const story = isStory(req);
    const collaborators: Record<string, string> = !story && Array.isArray(psd.collaborators) && psd.collaborators.length ? { collaborators: JSON.stringify(psd.collaborators) } : {};
    const tags = (Array.isArray(psd.userTags) ? psd.userTags : []) as UserTag[];
    const tagsFor = (i: number): Record<string, string> => {
      const mine = tags.filter((t) => (t.mediaIndex ?? 0) === i).map((t) => ({ username: t.username, x: t.x, y: t.y }));
      return mine.length ? { user_tags: JSON.stringify(mine) } : {};
    };
    for (const m of req.mediaItems) {
      const thumb = m.type === 'video' ? thumbnailOf(req, m) : undefined;
      if (thumb) await this.checkThumbnail(ctx, thumb);
    }
    const media = (m: MediaRef, i: number): Record<string, string> => {
      if (m.type === 'video') {
        const thumb = thumbnailOf(req, m);
        return { video_url: m.url, ...(thumb ? { cover_url: thumb } : {}) };
      }
      return { image_url: m.url, ...(m.altText && !story ? { alt_text: m.altText } : {}), ...(story ? {} : tagsFor(i)) };
    };
    const base = { preparedAt: new Date().toISOString(), caption, ...(!story && typeof psd.firstComment === 'string' && psd.firstComment.trim() ? { firstComment: psd.firstComment } : {}) };
    if (story) {
      const m = req.mediaItems[0];
      const id = await this.createContainer(ctx, account, { media_type: 'STORIES', ...media(m, 0) });
      await this.waitFinished(ctx, account, id, `story ${m.type}`);
      return { ...base, caption: '', containerId: id, kind: 'story' };
    }
    if (req.mediaItems.length > 1) {
      const children: string[] = [];
      for (const [i, m] of req.mediaItems.entries()) {
        children.push(await this.createContainer(ctx, account, { ...(m.type === 'video' ? { media_type: 'VIDEO' } : {}), ...media(m, i), is_carousel_item: 'true' }));
      }
      for (const [i, c] of children.entries()) await this.waitFinished(ctx, account, c, `carousel item ${i + 1}`);
      const id = await this.createContainer(ctx, account, { media_type: 'CAROUSEL', children: children.join(','), caption, ...collaborators });
      await this.waitFinished(ctx, account, id, 'carousel');
      return { ...base, containerId: id, kind: 'carousel' };
    }
    const m = req.mediaItems[0];
    if (m.type === 'video') {
      const id = await this.createContainer(ctx, account, {
        media_type: 'REELS', ...media(m, 0), caption, share_to_feed: psd.shareToFeed === false ? 'false' : 'true', ...collaborators,
      });
      await this.waitFinished(ctx, account, id, 'video');
      return { ...base, containerId: id, kind: 'reel' };
    }
    const id = await this.createContainer(ctx, account, { ...media(m, 0), caption, ...collaborators });
    await this.waitFinished(ctx, account, id, 'image');
    return { ...base, containerId: id, kind: 'image' };
  }

  private async permalink(ctx: AdapterContext, account: AccountContext, mediaId: string): Promise<string> {
    try {
      return (await this.call(ctx, account, async (token, base) => (await graphJson<{ permalink?: string }>(base, this.path(mediaId), { token, query: { fields: 'id,permalink' } })).body)).permalink
        ?? `https://www.instagram.com/${account.username}/`;
    } catch {
      return `https://www.instagram.com/${account.username}/`;
    }
  }

  private async withFirstComment(ctx: AdapterContext, account: AccountContext, prepared: InstagramPrepared, result: PublishResult): Promise<PublishResult> {
    if (!prepared.firstComment) return result;
    try {
      const c = await this.call(ctx, account, async (token, base) => (await graphJson<{ id: string }>(base, this.path(`${result.platformPostId}/comments`), { method: 'POST', token, form: { message: prepared.firstComment! } })).body);
      return { ...result, extra: { ...result.extra, firstComment: { status: 'published', id: c.id } } };
    } catch (err) {
      return { ...result, extra: { ...result.extra, firstComment: { status: 'failed', error: (err as Error).message } } };
    }
  }

  /**
   * The first comment on the verify path: the interrupted commit may have posted it already, so
   * the media's comments are read first (`GET /{ig-media-id}/comments`,
   * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments)
   * and a comment by the account with the same text is recorded instead of posting a second.
   * When they cannot be read, nothing is posted (it may exist) and the failure is recorded.
   */
  private async withFirstCommentOnce(ctx: AdapterContext, account: AccountContext, prepared: InstagramPrepared, result: PublishResult): Promise<PublishResult> {
    if (!prepared.firstComment) return result;
    let existing: string | null;
    try {
      existing = await graphFindComment(
        (after) => this.call(ctx, account, async (token, base) => (await graphJson<GraphListPage<GraphComment>>(base, this.path(`${result.platformPostId}/comments`), {
          token, query: { fields: 'id,text,username,from', limit: 100, ...(after ? { after } : {}) },
        })).body),
        { id: account.platformUserId, username: account.username }, prepared.firstComment, VERIFY_MAX_PAGES);
    } catch (err) {
      return { ...result, extra: { ...result.extra, firstComment: { status: 'failed', error: `not posted: whether it was already posted could not be checked (${(err as Error).message})` } } };
    }
    if (existing) return { ...result, extra: { ...result.extra, firstComment: { status: 'published', id: existing } } };
    return this.withFirstComment(ctx, account, prepared, result);
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: InstagramPrepared): Promise<PublishResult> {
    const u = prepared.unusable;
    if (u) throw new AdapterError(u.kind, u.message, u.retryAfterMs === undefined ? {} : { retryAfterMs: u.retryAfterMs });
    const id = await this.call(ctx, account, async (token, base) => (await graphJson<{ id: string }>(
      base, this.path(`${account.platformUserId}/media_publish`), { method: 'POST', token, query: { creation_id: prepared.containerId } })).body.id);
    const result: PublishResult = { platformPostId: id, platformPostUrl: await this.permalink(ctx, account, id), extra: { kind: prepared.kind } };
    return this.withFirstComment(ctx, account, prepared, result);
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md). The
   * container is the marker: its `status_code` (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container)
   * FINISHED proves it was not published (publish the same container); so do ERROR ("failed to
   * complete the publishing process") and EXPIRED ("not published within 24 hours"), but such a
   * container can never be published: a new one is prepared here and given back as the prepared
   * state for the commit. The publisher records it with the commit attempt before media_publish
   * (decision 0018), so a verify after that commit checks the container it published; a container
   * made inside commit instead would be unknown to that verify. When preparing fails, the old
   * state comes back marked `unusable` with the error, and commit fails with it without calling
   * Instagram (a rejected media fails the post; a transient error is asked about again). PUBLISHED
   * proves it was published, and the media is then looked up in `GET /{ig-user}/media` (or `/stories`) with
   * `since` and the `after` cursor, 100 a call, back to `window.since`
   * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media),
   * matching the media type and the exact caption (a story by its type only). Unknown:
   * IN_PROGRESS, a failed call, no or several candidates, more than VERIFY_MAX_PAGES pages.
   */
  async verify(ctx: AdapterContext, account: AccountContext, req: PublishRequest, prepared: InstagramPrepared, window: VerifyWindow): Promise<VerifyResult<InstagramPrepared>> {
    let status: ContainerStatus;
    try {
      status = (await this.status(ctx, account, prepared.containerId)).status_code;
    } catch (err) {
      return lookupFailed(err);
    }
    if (status === 'FINISHED') return { status: 'not_published' };
    if (status === 'ERROR' || status === 'EXPIRED') {
      try {
        return { status: 'not_published', prepared: await this.prepare(ctx, account, req) };
      } catch (err) {
        const e = err instanceof AdapterError ? err : new AdapterError('transient', (err as Error).message);
        const message = `The Instagram container was ${status} (never published) and a new one could not be prepared: ${e.message}`;
        return { status: 'not_published', prepared: { ...prepared, unusable: { kind: e.kind, message, ...(e.opts.retryAfterMs === undefined ? {} : { retryAfterMs: e.opts.retryAfterMs }) } } };
      }
    }
    if (status !== 'PUBLISHED') return { status: 'unknown', reason: `the container is ${status}` };
    type Media = { id: string; caption?: string; timestamp?: string; permalink?: string; media_type?: string; media_product_type?: string };
    try {
      const edge = prepared.kind === 'story' ? 'stories' : 'media';
      const r = await graphLookBack<Media>((after) => this.call(ctx, account, async (token, base) => (await graphJson<GraphListPage<Media>>(base, this.path(`${account.platformUserId}/${edge}`), {
        token, query: { fields: 'id,caption,timestamp,permalink,media_type,media_product_type', since: Math.floor(window.since.getTime() / 1000), limit: 100, ...(after ? { after } : {}) },
      })).body), (m) => (m.timestamp ? Date.parse(m.timestamp) : undefined), window.since, VERIFY_MAX_PAGES);
      if (!r.complete) return { status: 'unknown', reason: `the account published more than ${VERIFY_MAX_PAGES * 100} media since the attempt` };
      const type = { image: ['IMAGE'], reel: ['VIDEO', 'REELS'], carousel: ['CAROUSEL_ALBUM'], story: ['IMAGE', 'VIDEO'] }[prepared.kind];
      const candidates = r.items.filter((m) => (!m.media_type || type.includes(m.media_type)) && (prepared.kind === 'story' || (m.caption ?? '') === prepared.caption));
      if (candidates.length !== 1) {
        return { status: 'unknown', reason: candidates.length ? `${candidates.length} media published since the attempt match the post` : 'the container was published but its media is not listed yet' };
      }
      const found = candidates[0];
      const result = await this.withFirstCommentOnce(ctx, account, prepared, { platformPostId: found.id, platformPostUrl: found.permalink ?? `https://www.instagram.com/${account.username}/`, extra: { kind: prepared.kind } });
      return { status: 'published', result };
    } catch (err) {
      return lookupFailed(err);
    }
  }
}
