/**
 * Reddit adapter: text (self), link, image and gallery posts to one subreddit through
 * `POST /api/submit` and `POST /api/submit_gallery_post.json`
 * (https://www.reddit.com/dev/api#POST_api_submit).
 *
 * What is posted:
 * - subreddit: `platformSpecificData.subreddit`, else the account's `settings.defaultSubreddit`
 *   (set with PUT /v1/accounts/{id}/reddit-subreddits); an `r/` or `/r/` prefix is dropped.
 * - title: `platformSpecificData.title`, else the first line of the content (then the body
 *   is the rest of the content, so the title is not repeated). At most 300 characters.
 * - kind: one image in mediaItems -> `image` (uploaded through the media-asset lease and
 *   its S3 form in `prepare`); 2 to 20 images -> a gallery (each uploaded the same way, then
 *   referenced by asset id); else `platformSpecificData.url` -> `link` (resubmit=true);
 *   else `self` with the text (markdown). Link, image and gallery posts carry no body: a post
 *   with text after its title is refused before it is scheduled (rule reddit.body.not_carried).
 * - rules: the shared table (src/shared/rules/reddit.ts), including the subreddit's own rules
 *   when the server read them into `accountSettings.subredditRules` (src/modules/reddit/service.ts).
 * - optional: `flairId` (<= 36), `flairText` (<= 64), `nsfw`, `spoiler`, `sendReplies`.
 *
 * Reddit has no idempotency key. Text, link and gallery submits answer the post id at once.
 * Uploaded-image submits answer only a websocket URL: the post appears asynchronously, so
 * `commit` polls the user's submitted listing for it (subreddit + title, created since the
 * attempt), and `verify` (after a lost answer) reads that listing back to before the attempt,
 * paging as far as needed. An image post not found yet is 'unknown' (it may still appear); a
 * text, link or gallery post not found is 'not_published'.
 */
import { withAccessToken } from '../oauth-session.ts';
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type EditRequest, type EditResult, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type PublishedPost, type RulePost, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_CLOCK_SKEW_MS, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics,
 lookupFailed,
} from '../types.ts';
import { redditJson } from './http.ts';
import { normalizeSubreddit, redditKind, redditRules, redditTitleAndBody, SUBREDDIT_NAME } from '../../shared/rules/reddit.ts';
import {
  capabilitiesOf, REDDIT_FLAIR_ID_MAX, REDDIT_FLAIR_TEXT_MAX, REDDIT_GALLERY_MAX, REDDIT_IMAGE_MAX_BYTES, REDDIT_SELFTEXT_MAX, REDDIT_TITLE_MAX,
} from '../../shared/capabilities.ts';
import { guardVisibleCall } from '../call-guard.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer and the bulk CSV). */
export { REDDIT_FLAIR_ID_MAX, REDDIT_FLAIR_TEXT_MAX, REDDIT_GALLERY_MAX, REDDIT_IMAGE_MAX_BYTES, REDDIT_SELFTEXT_MAX, REDDIT_TITLE_MAX };
export { normalizeSubreddit, redditTitleAndBody, SUBREDDIT_NAME };

export const REDDIT_CAPABILITIES: PlatformCapabilities = capabilitiesOf('reddit');

/** What prepare leaves for commit (JSON, stored on the attempt row). */
export interface RedditPrepared {
  preparedAt: string;
  subreddit: string;
  title: string;
  kind: 'self' | 'link' | 'image' | 'gallery';
  text?: string;
  url?: string;
  /** Gallery: uploaded media asset ids, in order. */
  mediaIds?: string[];
  flairId?: string;
  flairText?: string;
  nsfw: boolean;
  spoiler: boolean;
  sendReplies: boolean;
}

export interface RedditAdapterOptions {
  /** How long commit waits for an uploaded-image post to appear in the listing (ms). Default 15 s. */
  imageWaitMs?: number;
  /** Interval between listing polls (ms). Default 1 s. */
  pollIntervalMs?: number;
}

/** A submission (`t3`) as the listings return it (fields Herald reads). */
export interface RedditThing {
  id: string;
  name: string;
  title: string;
  author: string;
  subreddit: string;
  url: string;
  permalink: string;
  selftext: string;
  is_self?: boolean;
  created_utc: number;
  score: number;
  num_comments: number;
  over_18: boolean;
  stickied: boolean;
  link_flair_text: string | null;
}
export interface RedditListing<T = RedditThing> { kind: 'Listing'; data: { after: string | null; before: string | null; children: Array<{ kind: string; data: T }> } }

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

const permalinkUrl = (p: string) => (p.startsWith('http') ? p : `https://www.reddit.com${p}`);
/** Listings end after about this many items, whatever lies beyond. */
const REDDIT_LISTING_CAP = 1000;

export class RedditAdapter implements PlatformAdapter<Record<string, unknown>, RedditPrepared> {
  readonly platform = 'reddit' as const;
  readonly capabilities = REDDIT_CAPABILITIES;
  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, private readonly opts: RedditAdapterOptions = {}) {}

  validate(req: PublishRequest): RuleViolation[] {
    return redditRules.check(req);
  }

  /**
   * Scores and comment counts, 100 posts a call (`GET /api/info?id=t3_a,t3_b`, https://www.reddit.com/dev/api#GET_api_info):
   * `score` (likes) and `num_comments` (comments); Reddit shows no view counts to the API.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    for (let i = 0; i < platformPostIds.length; i += 100) {
      const ids = platformPostIds.slice(i, i + 100);
      const { body } = await this.call(ctx, account, (token) => redditJson<RedditListing>(this.app(), '/api/info', { token, query: { id: ids.map((id) => `t3_${id}`).join(',') } }));
      for (const c of body.data?.children ?? []) out.set(c.data.id, mapMetrics('reddit', c.data as unknown as Record<string, unknown>));
    }
    return out;
  }

  /**
   * Deletes the post: `POST /api/del` with `id` = its fullname `t3_…` (scope `edit`,
   * https://www.reddit.com/dev/api#POST_api_del). Reddit answers `{}` whether or not it deleted
   * anything, so the post is then read back (`GET /api/info`): gone, or shown with author
   * `[deleted]`, is deleted; still there under its author means Reddit did not delete it.
   * @throws AdapterError `rejected` when the token lacks `edit` (403: accounts connected before
   * Herald asked for it must be reconnected) or the post is still there.
   */
  /**
   * Reddit edits only the body of a self (text) post; its title never changes, and link, image and
   * gallery posts have no body (https://www.reddit.com/dev/api#POST_api_editusertext).
   */
  checkEdit(before: RulePost, after: RulePost): RuleViolation[] {
    const out: RuleViolation[] = [];
    if (redditKind(after) !== 'self') out.push({ field: 'content', rule: 'reddit.edit.self_only', message: 'Reddit edits only the text of a self (text) post; link, image and gallery posts cannot be edited' });
    else if (redditTitleAndBody(before).title !== redditTitleAndBody(after).title) {
      out.push({ field: 'content', rule: 'reddit.edit.title', message: `Reddit titles cannot be edited: keep the title "${redditTitleAndBody(before).title}" and change the text below it` });
    }
    return out;
  }

  /**
   * Changes a self post's body: `POST /api/editusertext` with `thing_id` = t3_{id} and `text`
   * (markdown; scope `edit`; https://www.reddit.com/dev/api#POST_api_editusertext). The post keeps its id.
   */
  async editPublished(ctx: AdapterContext, account: AccountContext, edit: EditRequest): Promise<EditResult> {
    const { body } = redditTitleAndBody({ text: edit.text, platformSpecificData: edit.platformSpecificData });
    await this.call(ctx, account, (token) => redditJson(this.app(), '/api/editusertext', { token, form: { api_type: 'json', thing_id: `t3_${edit.post.platformPostId}`, text: body } }));
    return { platformPostId: edit.post.platformPostId, platformPostUrl: edit.post.platformPostUrl };
  }

  async unpublish(ctx: AdapterContext, account: AccountContext, post: PublishedPost): Promise<void> {
    const fullname = `t3_${post.platformPostId}`;
    try {
      await this.call(ctx, account, (token) => redditJson(this.app(), '/api/del', { token, form: { id: fullname } }));
    } catch (err) {
      if (err instanceof AdapterError && err.opts.status === 403) {
        throw new AdapterError('rejected', `${err.message}; reconnect the Reddit account to grant Herald the edit permission, which deleting needs`, err.opts);
      }
      throw err;
    }
    const { body } = await this.call(ctx, account, (token) => redditJson<RedditListing>(this.app(), '/api/info', { token, query: { id: fullname } }));
    const left = body.data?.children?.find((c) => c.data.id === post.platformPostId)?.data;
    if (left && left.author !== '[deleted]') throw new AdapterError('rejected', `Reddit did not delete the post (it is still there by u/${left.author})`);
  }

  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string) => Promise<T>): Promise<T> {
    return withAccessToken(ctx, account, this.provider, this.app(), fn);
  }

  /**
   * Uploads an image: `POST /api/media/asset` (lease) -> multipart POST of the lease's
   * fields plus `file` to its S3 `action` -> the `<Location>` URL for `kind=image`.
   * The lease action is protocol-relative (`//host/...`); it takes the API base's scheme.
   */
  private async uploadImage(ctx: AdapterContext, account: AccountContext, m: MediaRef): Promise<{ location: string; assetId: string }> {
    const { bytes, mimeType } = await ctx.fetchMedia(m, REDDIT_IMAGE_MAX_BYTES);
    const app = this.app();
    const filename = m.filename ?? (new URL(m.url).pathname.split('/').pop() || 'image');
    const lease = await this.call(ctx, account, (token) => redditJson<{ args: { action: string; fields: Array<{ name: string; value: string }> }; asset: { asset_id: string } }>(
      app, '/api/media/asset.json', { method: 'POST', token, form: { filepath: filename, mimetype: mimeType } })).then((r) => r.body);
    const scheme = new URL(app.apiBaseUrl).protocol;
    const action = lease.args.action.startsWith('//') ? `${scheme}${lease.args.action}` : lease.args.action;
    const form = new FormData();
    for (const f of lease.args.fields) form.set(f.name, f.value);
    form.set('file', new Blob([bytes], { type: mimeType }), filename);
    let res: Response;
    const fence = await guardVisibleCall('POST', 120_000);
    try {
      res = await fetch(action, { ...fence, method: 'POST', body: form, signal: AbortSignal.timeout(120_000) });
    } catch (err) {
      throw new AdapterError('transient', `Reddit media upload failed: ${(err as Error).message}`);
    }
    const xml = await res.text();
    if (!res.ok) throw new AdapterError(res.status >= 500 ? 'transient' : 'rejected', `Reddit media upload answered HTTP ${res.status}: ${xml.slice(0, 200)}`);
    const loc = /<Location>([^<]+)<\/Location>/.exec(xml)?.[1];
    if (!loc) throw new AdapterError('transient', 'Reddit media upload answered without a Location');
    return { location: decodeURIComponent(loc.replace(/&amp;/g, '&')), assetId: lease.asset.asset_id };
  }

  /** Only images are uploaded (media asset leases) before the submission. */
  preparesOffline(req: PublishRequest): boolean {
    return req.mediaItems.length === 0;
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<RedditPrepared> {
    const psd = req.platformSpecificData;
    const subreddit = normalizeSubreddit(psd.subreddit) ?? normalizeSubreddit(account.settings.defaultSubreddit);
    if (!subreddit) {
      throw new AdapterError('rejected', 'No subreddit: give platformSpecificData.subreddit or set a default with PUT /v1/accounts/{accountId}/reddit-subreddits [rule reddit.subreddit.required]');
    }
    const { title, body } = redditTitleAndBody(req);
    const base = {
      preparedAt: new Date().toISOString(), subreddit, title,
      flairId: str(psd.flairId), flairText: str(psd.flairText),
      nsfw: psd.nsfw === true, spoiler: psd.spoiler === true, sendReplies: psd.sendReplies !== false,
    };
    if (req.mediaItems.length === 1) return { ...base, kind: 'image', url: (await this.uploadImage(ctx, account, req.mediaItems[0])).location };
    if (req.mediaItems.length > 1) {
      const mediaIds: string[] = [];
      for (const m of req.mediaItems) mediaIds.push((await this.uploadImage(ctx, account, m)).assetId);
      return { ...base, kind: 'gallery', mediaIds };
    }
    if (typeof psd.url === 'string') return { ...base, kind: 'link', url: psd.url };
    return { ...base, kind: 'self', text: body };
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, p: RedditPrepared): Promise<PublishResult> {
    const app = this.app();
    if (p.kind === 'gallery') {
      const json = {
        api_type: 'json', show_error_list: true, sr: p.subreddit, title: p.title,
        items: (p.mediaIds ?? []).map((id) => ({ media_id: id, caption: '', outbound_url: '' })),
        nsfw: p.nsfw, spoiler: p.spoiler, sendreplies: p.sendReplies,
        ...(p.flairId ? { flair_id: p.flairId } : {}), ...(p.flairText ? { flair_text: p.flairText } : {}),
      };
      const { body } = await this.call(ctx, account, (token) => redditJson<{ json: { data?: { id?: string; url?: string } } }>(
        app, '/api/submit_gallery_post.json', { method: 'POST', token, json }));
      const id = body.json?.data?.id?.replace(/^t3_/, '');
      if (!id) throw new AdapterError('transient', 'Reddit accepted the gallery without answering its id');
      return { platformPostId: id, platformPostUrl: body.json.data?.url ?? `https://www.reddit.com/gallery/${id}`, extra: { fullname: `t3_${id}`, subreddit: p.subreddit } };
    }
    const form: Record<string, string | undefined> = {
      api_type: 'json', sr: p.subreddit, kind: p.kind, title: p.title,
      ...(p.kind === 'self' ? { text: p.text ?? '' } : { url: p.url }),
      ...(p.kind === 'link' ? { resubmit: 'true' } : {}),
      sendreplies: String(p.sendReplies), nsfw: String(p.nsfw), spoiler: String(p.spoiler),
      flair_id: p.flairId, flair_text: p.flairText,
    };
    const { body } = await this.call(ctx, account, (token) => redditJson<{ json: { data?: { id?: string; name?: string; url?: string; websocket_url?: string } } }>(
      app, '/api/submit', { method: 'POST', token, form }));
    const data = body.json?.data ?? {};
    if (data.id) {
      const id = data.id.replace(/^t3_/, '');
      return { platformPostId: id, platformPostUrl: data.url ?? `https://www.reddit.com/r/${p.subreddit}/comments/${id}/`, extra: { fullname: data.name ?? `t3_${id}`, subreddit: p.subreddit } };
    }
    // Uploaded media: created asynchronously; find it in the submitted listing.
    const deadline = Date.now() + (this.opts.imageWaitMs ?? 15_000);
    for (;;) {
      const { hits } = await this.findSubmitted(ctx, account, p, new Date(p.preparedAt).getTime() - VERIFY_CLOCK_SKEW_MS);
      if (hits.length > 1) throw new AdapterError('transient', `Reddit accepted the image post and ${hits.length} posts of the account match it`);
      if (hits[0]) return this.resultOf(hits[0]);
      if (Date.now() > deadline) throw new AdapterError('transient', 'Reddit accepted the image post but it has not appeared in the account\'s posts yet');
      await new Promise((r) => setTimeout(r, this.opts.pollIntervalMs ?? 1000));
    }
  }

  /**
   * Looks for the post in the user's submissions (`GET /user/{name}/submitted?sort=new`,
   * https://www.reddit.com/dev/api#GET_user_{username}_submitted), newest first, 100 a call
   * (the listing maximum), following `after` (https://www.reddit.com/dev/api#listings) until a
   * post is older than `since` (ms) or the listing ends; listings stop after about 1,000
   * items, so an end reached there without an older post is incomplete. Candidates share the
   * subreddit and the exact title and are of the same kind (self or not); several are
   * narrowed by the body (self text or link).
   * @returns the matches and whether the look-back reached `since`. @throws AdapterError.
   */
  private async findSubmitted(ctx: AdapterContext, account: AccountContext, p: RedditPrepared, since: number): Promise<{ complete: boolean; hits: RedditThing[] }> {
    const app = this.app();
    const seen: RedditThing[] = [];
    let after: string | undefined;
    let complete = false;
    for (let page = 0; page < VERIFY_MAX_PAGES; page++) {
      const { body } = await this.call(ctx, account, (token) => redditJson<RedditListing>(
        app, `/user/${encodeURIComponent(account.username)}/submitted`, { token, query: { sort: 'new', limit: 100, raw_json: 1, ...(after ? { after } : {}) } }));
      const things = body.data.children.map((c) => c.data);
      let older = false;
      for (const t of things) {
        if (t.created_utc * 1000 < since) older = true;
        else seen.push(t);
      }
      after = body.data.after ?? undefined;
      if (older) { complete = true; break; }
      if (!after || things.length === 0) { complete = seen.length < REDDIT_LISTING_CAP; break; }
    }
    let hits = seen.filter((t) => t.subreddit.toLowerCase() === p.subreddit.toLowerCase() && t.title === p.title && (t.is_self ?? p.kind === 'self') === (p.kind === 'self'));
    if (hits.length > 1) hits = hits.filter((t) => (p.kind === 'self' ? t.selftext === (p.text ?? '') : p.kind === 'link' ? t.url === p.url : true));
    return { complete, hits };
  }

  private resultOf(hit: RedditThing): PublishResult {
    return { platformPostId: hit.id, platformPostUrl: permalinkUrl(hit.permalink), extra: { fullname: hit.name, subreddit: hit.subreddit } };
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md): reads the
   * user's submissions back to `window.since` (see findSubmitted). One match -> published;
   * several -> unknown; none after a complete look-back -> not_published, except for an
   * uploaded-image post, which Reddit creates asynchronously (it may still appear: unknown).
   * A failed call or a look-back that could not reach `since` -> unknown.
   */
  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, p: RedditPrepared, window: VerifyWindow): Promise<VerifyResult<RedditPrepared>> {
    let r: { complete: boolean; hits: RedditThing[] };
    try {
      r = await this.findSubmitted(ctx, account, p, window.since.getTime());
    } catch (err) {
      return lookupFailed(err);
    }
    if (r.hits.length > 1) return { status: 'unknown', reason: `${r.hits.length} posts of the account in r/${p.subreddit} match what was sent` };
    if (r.hits.length === 1) return { status: 'published', result: this.resultOf(r.hits[0]) };
    if (!r.complete) return { status: 'unknown', reason: 'the account posted more since the attempt than Reddit lists' };
    if (p.kind === 'image') return { status: 'unknown', reason: 'Reddit creates image posts asynchronously; it may still appear' };
    return { status: 'not_published' };
  }
}
