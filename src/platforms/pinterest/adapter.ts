/**
 * Pinterest API v5 adapter: image pins (one image), carousel pins (2-5 images) and video
 * pins (exactly one video), on a board
 * (https://developers.pinterest.com/docs/api/v5/pins-create/ and
 * https://developers.pinterest.com/docs/api/v5/media-create/).
 *
 * What is posted:
 * - board: `platformSpecificData.boardId`, else the account's `settings.defaultBoardId`
 *   (set with PUT /v1/accounts/{id}/pinterest-boards); one of them is required.
 * - title: `platformSpecificData.title` (<= 100), else the first line of the content,
 *   cut to 100 characters. description: the content (<= 800). link:
 *   `platformSpecificData.link` (optional, <= 2048). alt text: the first image's altText.
 * - images are sent as URLs (`image_url`, or `multiple_image_urls` for 2-5): Pinterest
 *   fetches them, so they must be publicly reachable.
 * - video: registered (`POST /v5/media`), uploaded to the returned S3 form
 *   (`upload_parameters` as fields, then the file), and polled (`GET /v5/media/{id}`:
 *   registered -> processing -> succeeded | failed) in `prepare`; the pin is the commit.
 *   Cover: `platformSpecificData.coverImageUrl`, else an image among mediaItems, else a
 *   key frame at `platformSpecificData.coverImageKeyFrameTime` seconds (default 0).
 *
 * Pinterest has no idempotency key: `verify` reads the whole board for the pin (same title,
 * description, created since the attempt; see {@link PinterestAdapter.verify}).
 */
import { withAccessToken } from '../oauth-session.ts';
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type EditRequest, type EditResult, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type PublishedPost, deleteUnlessGone, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics,
 lookupFailed,
} from '../types.ts';
import { pinterestJson } from './http.ts';
import { pinterestRules } from '../../shared/rules/pinterest.ts';
import {
  capabilitiesOf, PINTEREST_ALT_TEXT_MAX, PINTEREST_CAROUSEL_MAX, PINTEREST_CAROUSEL_MIN, PINTEREST_DESCRIPTION_MAX, PINTEREST_IMAGE_MAX_BYTES,
  PINTEREST_LINK_MAX, PINTEREST_TITLE_MAX, PINTEREST_VIDEO_MAX_BYTES, PINTEREST_VIDEO_MAX_SECONDS, PINTEREST_VIDEO_MIN_SECONDS,
} from '../../shared/capabilities.ts';
import { guardVisibleCall } from '../call-guard.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer). */
export {
  PINTEREST_ALT_TEXT_MAX, PINTEREST_CAROUSEL_MAX, PINTEREST_CAROUSEL_MIN, PINTEREST_DESCRIPTION_MAX, PINTEREST_IMAGE_MAX_BYTES,
  PINTEREST_LINK_MAX, PINTEREST_TITLE_MAX, PINTEREST_VIDEO_MAX_BYTES, PINTEREST_VIDEO_MAX_SECONDS, PINTEREST_VIDEO_MIN_SECONDS,
};

export const PINTEREST_CAPABILITIES: PlatformCapabilities = capabilitiesOf('pinterest');

type MediaSource =
  | { source_type: 'image_url'; url: string }
  | { source_type: 'multiple_image_urls'; items: Array<{ url: string }> }
  | { source_type: 'video_id'; media_id: string; cover_image_url?: string; cover_image_key_frame_time?: number };

/** What prepare leaves for commit (JSON, stored on the attempt row). */
export interface PinterestPrepared {
  preparedAt: string;
  boardId: string;
  title: string;
  description: string;
  link?: string;
  altText?: string;
  mediaSource: MediaSource;
}

export interface PinterestAdapterOptions {
  /** First interval between media status polls (ms), doubling up to 10 s. Default 500. */
  pollIntervalMs?: number;
  /** Give up waiting for video processing after this long (ms; transient, retried). Default 10 minutes. */
  processingTimeoutMs?: number;
}

interface Pin { id: string; title?: string | null; description?: string | null; link?: string | null; created_at?: string; board_id?: string }

/** A pin's `created_at` in ms; Pinterest writes UTC without a zone (e.g. 2020-01-01T20:10:40). */
const pinTime = (t: string) => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Title as posted: the explicit title, else the content's first line cut to 100 characters. */
export function pinTitle(req: PublishRequest): string {
  const explicit = str(req.platformSpecificData.title);
  if (explicit) return explicit;
  return [...(req.text.trim().split(/\r?\n/)[0] ?? '').trim()].slice(0, PINTEREST_TITLE_MAX).join('');
}

/** The video cover per the rules above. */
export function videoCover(req: PublishRequest): { cover_image_url: string } | { cover_image_key_frame_time: number } {
  const psd = req.platformSpecificData;
  if (str(psd.coverImageUrl)) return { cover_image_url: str(psd.coverImageUrl)! };
  const image = req.mediaItems.find((m) => m.type === 'image');
  if (image) return { cover_image_url: image.url };
  const t = psd.coverImageKeyFrameTime;
  return { cover_image_key_frame_time: typeof t === 'number' && t >= 0 ? t : 0 };
}

export const pinUrl = (id: string) => `https://www.pinterest.com/pin/${id}/`;

export class PinterestAdapter implements PlatformAdapter<Record<string, unknown>, PinterestPrepared> {
  readonly platform = 'pinterest' as const;
  readonly capabilities = PINTEREST_CAPABILITIES;
  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, private readonly opts: PinterestAdapterOptions = {}) {}

  validate(req: PublishRequest): RuleViolation[] {
    return pinterestRules.check(req);
  }

  /**
   * Pin analytics, one call per Pin (`GET /v5/pins/{pin_id}/analytics`, https://developers.pinterest.com/docs/api/v5/pins-analytics),
   * over the 90 days the endpoint allows back (a Pin's totals since it was created, for recent Pins):
   * impressions, saves, Pin and outbound clicks (clicks), reactions (likes), comments.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    const base = this.app().apiBaseUrl;
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const end = new Date();
    const start = new Date(end.getTime() - 89 * 86_400_000);
    for (const id of platformPostIds) {
      const { body } = await this.call(ctx, account, (token) => pinterestJson<{ all?: { lifetime_metrics?: Record<string, number>; summary_metrics?: Record<string, number> } }>(
        base, `/v5/pins/${encodeURIComponent(id)}/analytics`, {
          token, query: { start_date: day(start), end_date: day(end), metric_types: 'IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK,TOTAL_REACTIONS,TOTAL_COMMENTS' },
        }));
      const counts = body.all?.lifetime_metrics ?? body.all?.summary_metrics;
      if (counts) out.set(id, mapMetrics('pinterest', counts));
    }
    return out;
  }

  /**
   * The post's text is the Pin's description: `PATCH /v5/pins/{pin_id}` with `description` (at most
   * 800 characters; title, link, alt text and board can change too, the media cannot;
   * https://developers.pinterest.com/docs/api/v5/pins-update/). The Pin keeps its id.
   */
  async editPublished(ctx: AdapterContext, account: AccountContext, edit: EditRequest): Promise<EditResult> {
    const base = this.app().apiBaseUrl;
    await this.call(ctx, account, (token) => pinterestJson(base, `/v5/pins/${encodeURIComponent(edit.post.platformPostId)}`, { method: 'PATCH', token, json: { description: edit.text.trim() } }));
    return { platformPostId: edit.post.platformPostId, platformPostUrl: edit.post.platformPostUrl };
  }

  /**
   * Deletes the Pin: `DELETE /v5/pins/{pin_id}` (204; scope pins:write, which Herald asks for;
   * https://developers.pinterest.com/docs/api/v5/pins-delete/). A Pin Pinterest no longer has
   * (404) counts as deleted.
   */
  async unpublish(ctx: AdapterContext, account: AccountContext, post: PublishedPost): Promise<void> {
    const base = this.app().apiBaseUrl;
    await deleteUnlessGone(() => this.call(ctx, account, (token) => pinterestJson(base, `/v5/pins/${encodeURIComponent(post.platformPostId)}`, { method: 'DELETE', token })));
  }


  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string) => Promise<T>): Promise<T> {
    return withAccessToken(ctx, account, this.provider, this.app(), fn);
  }

  /** Registers, uploads and waits for a video; returns its media id. */
  private async uploadVideo(ctx: AdapterContext, account: AccountContext, m: MediaRef): Promise<string> {
    const { bytes, mimeType } = await ctx.fetchMedia(m, PINTEREST_VIDEO_MAX_BYTES);
    const base = this.app().apiBaseUrl;
    const reg = (await this.call(ctx, account, (token) => pinterestJson<{ media_id: string; upload_url: string; upload_parameters: Record<string, string> }>(
      base, '/v5/media', { method: 'POST', token, json: { media_type: 'video' } }))).body;
    const form = new FormData();
    for (const [k, v] of Object.entries(reg.upload_parameters ?? {})) form.set(k, v);
    form.set('file', new Blob([bytes], { type: mimeType }), m.filename ?? 'video.mp4'); // the file goes last (S3 presigned POST)
    let res: Response;
    const fence = await guardVisibleCall('POST', 30 * 60_000);
    try {
      res = await fetch(reg.upload_url, { ...fence, method: 'POST', body: form, signal: AbortSignal.timeout(30 * 60_000) });
    } catch (err) {
      throw new AdapterError('transient', `Pinterest video upload failed: ${(err as Error).message}`);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      throw new AdapterError(res.status >= 500 ? 'transient' : 'rejected', `Pinterest video upload answered HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
    const deadline = Date.now() + (this.opts.processingTimeoutMs ?? 10 * 60_000);
    let wait = this.opts.pollIntervalMs ?? 500;
    for (;;) {
      const st = (await this.call(ctx, account, (token) => pinterestJson<{ media_id: string; status: 'registered' | 'processing' | 'succeeded' | 'failed' }>(
        base, `/v5/media/${encodeURIComponent(reg.media_id)}`, { token }))).body;
      if (st.status === 'succeeded') return reg.media_id;
      if (st.status === 'failed') throw new AdapterError('rejected', 'Pinterest could not process the video (media status failed)');
      if (Date.now() > deadline) throw new AdapterError('transient', `Pinterest is still processing the video (status ${st.status})`);
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(10_000, wait * 2);
    }
  }

  /** Only a video is uploaded before the Pin is created; images go by URL. */
  preparesOffline(req: PublishRequest): boolean {
    return !req.mediaItems.some((m) => m.type === 'video');
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<PinterestPrepared> {
    const psd = req.platformSpecificData;
    const boardId = str(psd.boardId) ?? str(account.settings.defaultBoardId);
    if (!boardId) {
      throw new AdapterError('rejected', 'No board: give platformSpecificData.boardId or set a default board with PUT /v1/accounts/{accountId}/pinterest-boards [rule pinterest.board.required]');
    }
    const images = req.mediaItems.filter((m) => m.type === 'image' || m.type === 'gif');
    const video = req.mediaItems.find((m) => m.type === 'video');
    let mediaSource: MediaSource;
    if (video) mediaSource = { source_type: 'video_id', media_id: await this.uploadVideo(ctx, account, video), ...videoCover(req) };
    else if (images.length === 1) mediaSource = { source_type: 'image_url', url: images[0].url };
    else mediaSource = { source_type: 'multiple_image_urls', items: images.map((m) => ({ url: m.url })) };
    return {
      preparedAt: new Date().toISOString(), boardId, title: pinTitle(req), description: req.text.trim(),
      link: str(psd.link), altText: video ? undefined : images[0]?.altText, mediaSource,
    };
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, p: PinterestPrepared): Promise<PublishResult> {
    const base = this.app().apiBaseUrl;
    const body = {
      board_id: p.boardId, title: p.title, description: p.description,
      ...(p.link ? { link: p.link } : {}), ...(p.altText ? { alt_text: p.altText } : {}), media_source: p.mediaSource,
    };
    const pin = (await this.call(ctx, account, (token) => pinterestJson<Pin>(base, '/v5/pins', { method: 'POST', token, json: body }))).body;
    return { platformPostId: pin.id, platformPostUrl: pinUrl(pin.id), extra: { boardId: p.boardId } };
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md): lists the
   * board's pins (`GET /v5/boards/{id}/pins`, `page_size` 250, following `bookmark` until it
   * is null; https://developers.pinterest.com/docs/api/v5/boards-list_pins). The board's order
   * is not documented as chronological, so the whole board is read (at most VERIFY_MAX_PAGES
   * pages), keeping pins created since `window.since`; there is no time filter. A pin matches
   * by its exact title and description (the link breaks ties). None -> not_published; several, a failed call or
   * a board larger than the pages read -> unknown.
   */
  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, p: PinterestPrepared, window: VerifyWindow): Promise<VerifyResult<PinterestPrepared>> {
    const base = this.app().apiBaseUrl;
    const items: Pin[] = [];
    try {
      let bookmark: string | undefined;
      for (let page = 0; ; page++) {
        if (page >= VERIFY_MAX_PAGES) return { status: 'unknown', reason: `the board holds more than ${VERIFY_MAX_PAGES * 250} pins` };
        const { body } = await this.call(ctx, account, (token) => pinterestJson<{ items?: Pin[]; bookmark?: string | null }>(
          base, `/v5/boards/${encodeURIComponent(p.boardId)}/pins`, { token, query: { page_size: 250, ...(bookmark ? { bookmark } : {}) } }));
        items.push(...(body.items ?? []));
        bookmark = body.bookmark ?? undefined;
        if (!bookmark) break;
      }
    } catch (err) {
      return lookupFailed(err);
    }
    const since = window.since.getTime();
    let hits = items.filter((x) => (x.title ?? '') === p.title && (x.description ?? '') === p.description && (!x.created_at || pinTime(x.created_at) >= since));
    // The link breaks ties only: Pinterest may normalise it.
    if (hits.length > 1) hits = hits.filter((x) => (x.link ?? undefined) === p.link);
    if (hits.length > 1) return { status: 'unknown', reason: `${hits.length} pins on the board match what was sent` };
    if (hits.length === 1) return { status: 'published', result: { platformPostId: hits[0].id, platformPostUrl: pinUrl(hits[0].id), extra: { boardId: p.boardId } } };
    return { status: 'not_published' };
  }
}
