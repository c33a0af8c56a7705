/**
 * LinkedIn adapter (Posts API; multi-image rules from
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api):
 * text, one image, 2-20 images, one
 * video, or one document (PDF), authored by the member (`urn:li:person:{sub}`) or, when the
 * account is switched to an organization, by that page (`urn:li:organization:{id}`, from
 * `accounts.settings.accountType` / `selectedOrganization`). Mentions written
 * `@[Name](urn:li:person:ID)` or `@[Company](urn:li:organization:ID)` pass through in
 * LinkedIn's little-text format; every other reserved character is escaped and `#word`
 * becomes a hashtag template (see {@link toLittleText}). A first comment (up to 1,250
 * characters) is posted after the post; when it fails the post stays published and the
 * failure is recorded on the target result (`extra.firstComment`).
 * Sources: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api,
 * .../shares/images-api, .../shares/videos-api, .../shares/documents-api,
 * .../shares/multiimage-post-api, .../shares/little-text-format, .../shares/comments-api.
 *
 * Phases:
 * - `prepare` uploads media (images/documents: initializeUpload, one PUT; videos:
 *   initializeUpload, one PUT per upload instruction, finalizeUpload with the ETags, then
 *   `GET /rest/videos/{urn}` until AVAILABLE). Uploaded assets are invisible.
 * - `commit` is `POST /rest/posts` (201, empty body, id in `x-restli-id`), then the comment.
 * - `verify` lists the author's posts (`GET /rest/posts?q=author`) back to before the attempt
 *   and matches the uploaded media or the commentary (see {@link LinkedInAdapter.verify}).
 *   Member tokens may not read posts (r_member_social is restricted): verify then answers
 *   `unknown`, and after its attempts the target fails as "may have been published".
 *   `commit` treats LinkedIn's 422 DUPLICATE_POST (an identical commentary from the same
 *   author, naming the existing post) as the earlier attempt's success (`extra.duplicateOf`);
 *   the same holds when a user deliberately posts the same commentary twice within LinkedIn's
 *   duplicate window: the target then records the earlier post. When verify finds the post, its
 *   first comment (if any) is not posted: it is recorded as not attempted only by its absence.
 */
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, type AccountContext, type AdapterContext, type EditRequest, type EditResult, type MediaRef, type PlatformAdapter, type PlatformCapabilities,
  type PublishRequest, type PublishResult, type RuleViolation, type VerifyResult, type VerifyWindow, VERIFY_MAX_PAGES,
  mapMetrics, type PostMetrics, type PublishedPost, deleteUnlessGone,
 lookupFailed,
} from '../types.ts';
import { duplicateOf, LINKEDIN_API_VERSION, linkedinJson } from './rest.ts';
import { linkedinRules, toLittleText } from '../../shared/rules/linkedin.ts';
import {
  capabilitiesOf, LINKEDIN_DOCUMENT_MAX_BYTES, LINKEDIN_MAX_FIRST_COMMENT, LINKEDIN_MAX_IMAGES, LINKEDIN_MAX_TEXT, LINKEDIN_VIDEO_MAX_BYTES,
} from '../../shared/capabilities.ts';

/** The limits live in src/shared/capabilities.ts (shared with the composer and the bulk CSV). */
export { LINKEDIN_DOCUMENT_MAX_BYTES, LINKEDIN_MAX_FIRST_COMMENT, LINKEDIN_MAX_IMAGES, LINKEDIN_MAX_TEXT, LINKEDIN_VIDEO_MAX_BYTES };

/** Tunables for facts LinkedIn's own docs do not state (UNCONFIRMED). */
export interface LinkedInOptions {
  /** `LinkedIn-Version` header (YYYYMM). Default {@link LINKEDIN_API_VERSION}. */
  apiVersion?: string;
  /**
   * Most pages in a document. **UNCONFIRMED** ("about 300 pages", third-party mirror AYR-LI).
   * Counted from the PDF in `prepare`. Default 300.
   */
  maxDocumentPages?: number;
  /** Interval between video status polls, ms. Default 2,000. */
  pollIntervalMs?: number;
  /** Give up waiting for video processing after this long, ms (transient). Default 10 minutes. */
  pollTimeoutMs?: number;
  /**
   * Wait after uploading images or documents as a member, ms: member tokens cannot read their
   * status (seen in a production scheduler's code, not in LinkedIn's docs), and posting
   * before AVAILABLE fails. Default 1,500.
   */
  memberMediaGraceMs?: number;
}

export const LINKEDIN_CAPABILITIES: PlatformCapabilities = capabilitiesOf('linkedin');

export { toLittleText };

/** Pages in a PDF, counted from its page objects (`/Type /Page`); null when none are found. */
export function countPdfPages(bytes: Buffer): number | null {
  const n = bytes.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return n > 0 ? n : null;
}

/** The author URN of an account: its selected organization, or the member. */
export function authorUrn(account: Pick<AccountContext, 'platformUserId' | 'settings'>): string {
  const s = account.settings ?? {};
  const org = s.selectedOrganization as { urn?: string } | undefined;
  if (s.accountType === 'organization' && typeof org?.urn === 'string') return org.urn;
  return `urn:li:person:${account.platformUserId}`;
}

export interface LinkedInPrepared {
  preparedAt: string;
  author: string;
  commentary: string;
  /** `content` of the post, with uploaded media URNs; absent for text posts. */
  content?: Record<string, unknown>;
  visibility: 'PUBLIC' | 'CONNECTIONS';
  firstComment?: string;
}

const postUrl = (urn: string) => `https://www.linkedin.com/feed/update/${urn}`;

/** The image, video or document URNs of a post's `content`, sorted. */
function mediaUrns(content: Record<string, unknown> | undefined): string[] {
  const media = content?.media as { id?: string } | undefined;
  const multi = content?.multiImage as { images?: Array<{ id?: string }> } | undefined;
  return [media?.id, ...(multi?.images ?? []).map((i) => i.id)].filter((id): id is string => typeof id === 'string').sort();
}

export class LinkedInAdapter implements PlatformAdapter<Record<string, unknown>, LinkedInPrepared> {
  readonly platform = 'linkedin' as const;
  readonly capabilities = LINKEDIN_CAPABILITIES;
  private readonly opts: Required<LinkedInOptions>;

  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, opts: LinkedInOptions = {}) {
    this.opts = { apiVersion: LINKEDIN_API_VERSION, maxDocumentPages: 300, pollIntervalMs: 2000, pollTimeoutMs: 10 * 60_000, memberMediaGraceMs: 1500, ...opts };
  }

  validate(req: PublishRequest): RuleViolation[] {
    return linkedinRules.check(req);
  }

  /**
   * Statistics of an organization's posts (`GET /rest/organizationalEntityShareStatistics?q=organizationalEntity`,
   * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/share-statistics),
   * 20 posts a call. A member's own posts have no statistics in this API (member post analytics is a
   * separate restricted product), so an account posting as the member answers none.
   */
  async fetchMetrics(ctx: AdapterContext, account: AccountContext, platformPostIds: string[]): Promise<Map<string, PostMetrics>> {
    const out = new Map<string, PostMetrics>();
    const org = authorUrn(account);
    if (!org.startsWith('urn:li:organization:')) return out;
    for (let i = 0; i < platformPostIds.length; i += 20) {
      const urns = platformPostIds.slice(i, i + 20);
      const shares = urns.filter((u) => u.startsWith('urn:li:share:'));
      const ugc = urns.filter((u) => u.startsWith('urn:li:ugcPost:'));
      const list = (xs: string[]) => `List(${xs.map(encodeURIComponent).join(',')})`;
      const qs = `q=organizationalEntity&organizationalEntity=${encodeURIComponent(org)}${shares.length ? `&shares=${list(shares)}` : ''}${ugc.length ? `&ugcPosts=${list(ugc)}` : ''}`;
      if (!shares.length && !ugc.length) continue;
      const { body } = await this.call(ctx, account, (token, base) => linkedinJson<{ elements?: Array<{ share?: string; ugcPost?: string; totalShareStatistics?: Record<string, number> }> }>(
        base, `/rest/organizationalEntityShareStatistics?${qs}`, { token }));
      for (const e of body.elements ?? []) {
        const urn = e.share ?? e.ugcPost;
        if (urn && e.totalShareStatistics) out.set(urn, mapMetrics('linkedin', e.totalShareStatistics));
      }
    }
    return out;
  }

  /**
   * Deletes the post: `DELETE /rest/posts/{encoded URN}`
   * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#delete-posts);
   * LinkedIn answers 204 also for a post already gone, and a 404 counts as gone too.
   */
  /**
   * Changes the post's commentary: `POST /rest/posts/{encoded URN}` with `X-RestLi-Method:
   * PARTIAL_UPDATE` and `{patch: {$set: {commentary}}}` (204), in little text format as at publish
   * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#update-posts).
   * Media, author and polls cannot change; the post keeps its URN.
   */
  async editPublished(ctx: AdapterContext, account: AccountContext, edit: EditRequest): Promise<EditResult> {
    const v = this.opts.apiVersion;
    await this.call(ctx, account, (token, base) => linkedinJson(base, `/rest/posts/${encodeURIComponent(edit.post.platformPostId)}`, {
      method: 'POST', token, version: v, headers: { 'X-RestLi-Method': 'PARTIAL_UPDATE' }, json: { patch: { $set: { commentary: toLittleText(edit.text) } } },
    }));
    return { platformPostId: edit.post.platformPostId, platformPostUrl: edit.post.platformPostUrl };
  }

  async unpublish(ctx: AdapterContext, account: AccountContext, post: PublishedPost): Promise<void> {
    const v = this.opts.apiVersion;
    await deleteUnlessGone(() => this.call(ctx, account, (token, base) => linkedinJson(base, `/rest/posts/${encodeURIComponent(post.platformPostId)}`, { method: 'DELETE', token, version: v })));
  }


  private call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string, base: string) => Promise<T>): Promise<T> {
    const app = this.app();
    return withAccessToken(ctx, account, this.provider, app, (token) => fn(token, app.apiBaseUrl));
  }

  private async uploadSimple(ctx: AdapterContext, account: AccountContext, author: string, m: MediaRef, kind: 'images' | 'documents'): Promise<string> {
    const cap = kind === 'documents' ? LINKEDIN_DOCUMENT_MAX_BYTES : 36 * 1024 * 1024;
    const { bytes, mimeType } = await ctx.fetchMedia(m, cap);
    if (kind === 'documents') {
      const pages = countPdfPages(bytes);
      if (pages !== null && pages > this.opts.maxDocumentPages) {
        throw new AdapterError('rejected', `LinkedIn documents are limited to about ${this.opts.maxDocumentPages} pages; this PDF has ${pages}`);
      }
    }
    const v = this.opts.apiVersion;
    return this.call(ctx, account, async (token, base) => {
      const init = (await linkedinJson<{ value: { uploadUrl: string; image?: string; document?: string } }>(base, `/rest/${kind}`, {
        method: 'POST', token, version: v, query: { action: 'initializeUpload' }, json: { initializeUploadRequest: { owner: author } },
      })).body.value;
      await linkedinJson(init.uploadUrl, '', { method: 'PUT', token, rest: false, body: bytes, headers: { 'content-type': kind === 'documents' ? 'application/pdf' : mimeType }, timeoutMs: 120_000 });
      return (kind === 'images' ? init.image : init.document)!;
    });
  }

  private async uploadVideo(ctx: AdapterContext, account: AccountContext, author: string, m: MediaRef): Promise<string> {
    const { bytes } = await ctx.fetchMedia(m, LINKEDIN_VIDEO_MAX_BYTES);
    const v = this.opts.apiVersion;
    const urn = await this.call(ctx, account, async (token, base) => {
      const init = (await linkedinJson<{ value: { video: string; uploadToken: string; uploadInstructions: Array<{ uploadUrl: string; firstByte: number; lastByte: number }> } }>(base, '/rest/videos', {
        method: 'POST', token, version: v, query: { action: 'initializeUpload' },
        json: { initializeUploadRequest: { owner: author, fileSizeBytes: bytes.length, uploadCaptions: false, uploadThumbnail: false } },
      })).body.value;
      const etags: string[] = [];
      for (const ins of init.uploadInstructions) {
        const res = await linkedinJson(ins.uploadUrl, '', { method: 'PUT', token, rest: false, body: bytes.subarray(ins.firstByte, ins.lastByte + 1), headers: { 'content-type': 'application/octet-stream' }, timeoutMs: 300_000 });
        const etag = res.headers.get('etag');
        if (!etag) throw new AdapterError('transient', 'LinkedIn did not return an ETag for an uploaded video part');
        etags.push(etag);
      }
      await linkedinJson(base, '/rest/videos', {
        method: 'POST', token, version: v, query: { action: 'finalizeUpload' },
        json: { finalizeUploadRequest: { video: init.video, uploadToken: init.uploadToken, uploadedPartIds: etags } },
      });
      return init.video;
    });
    const deadline = Date.now() + this.opts.pollTimeoutMs;
    for (;;) {
      const s = await this.call(ctx, account, async (token, base) => (await linkedinJson<{ status: string; processingFailureReason?: string }>(
        base, `/rest/videos/${encodeURIComponent(urn)}`, { token, version: v })).body);
      if (s.status === 'AVAILABLE') return urn;
      if (s.status === 'PROCESSING_FAILED') throw new AdapterError('rejected', `LinkedIn could not process the video: ${s.processingFailureReason ?? 'PROCESSING_FAILED'}`);
      if (Date.now() > deadline) throw new AdapterError('transient', 'LinkedIn is still processing the video');
      await new Promise((r) => setTimeout(r, this.opts.pollIntervalMs));
    }
  }

  /** A post without media needs no upload (the Images, Videos and Documents APIs) before it is created. */
  preparesOffline(req: PublishRequest): boolean {
    return req.mediaItems.length === 0;
  }

  async prepare(ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<LinkedInPrepared> {
    const author = authorUrn(account);
    const psd = req.platformSpecificData;
    const media = req.mediaItems;
    let content: Record<string, unknown> | undefined;
    const isOrg = author.startsWith('urn:li:organization:');
    if (media.length === 1 && media[0].type === 'video') {
      content = { media: { id: await this.uploadVideo(ctx, account, author, media[0]), ...(media[0].altText ? { altText: media[0].altText } : {}) } };
    } else if (media.length === 1 && media[0].type === 'document') {
      const id = await this.uploadSimple(ctx, account, author, media[0], 'documents');
      const title = typeof psd.documentTitle === 'string' && psd.documentTitle ? psd.documentTitle : media[0].filename ?? decodeURIComponent(new URL(media[0].url).pathname.split('/').pop() || 'Document');
      content = { media: { id, title } };
    } else if (media.length > 0) {
      const images: Array<{ id: string; altText?: string }> = [];
      for (const m of media) images.push({ id: await this.uploadSimple(ctx, account, author, m, 'images'), ...(m.altText ? { altText: m.altText } : {}) });
      content = images.length === 1 ? { media: images[0] } : { multiImage: { images } };
    }
    if (content && !isOrg && media[0]?.type !== 'video' && this.opts.memberMediaGraceMs > 0) {
      await new Promise((r) => setTimeout(r, this.opts.memberMediaGraceMs));
    }
    return {
      preparedAt: new Date().toISOString(), author, commentary: toLittleText(req.text),
      ...(content ? { content } : {}),
      visibility: psd.visibility === 'CONNECTIONS' && !isOrg ? 'CONNECTIONS' : 'PUBLIC',
      ...(typeof psd.firstComment === 'string' && psd.firstComment.trim() ? { firstComment: psd.firstComment } : {}),
    };
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: LinkedInPrepared): Promise<PublishResult> {
    const v = this.opts.apiVersion;
    const body = {
      author: prepared.author, commentary: prepared.commentary, visibility: prepared.visibility,
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      ...(prepared.content ? { content: prepared.content } : {}),
      lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false,
    };
    let urn: string;
    const extra: Record<string, unknown> = {};
    try {
      const res = await this.call(ctx, account, (token, base) => linkedinJson(base, '/rest/posts', { method: 'POST', token, version: v, json: body }));
      const id = res.headers.get('x-restli-id') ?? res.headers.get('x-linkedin-id');
      if (!id) throw new AdapterError('rejected', 'LinkedIn created the post but returned no x-restli-id; check the account before retrying');
      urn = id;
    } catch (err) {
      const dup = err instanceof AdapterError && err.opts.platformCode === 'DUPLICATE_POST' ? duplicateOf(err.message) : null;
      if (!dup) throw err;
      // LinkedIn refuses an identical commentary from the same author: the earlier attempt is live.
      urn = dup;
      extra.duplicateOf = dup;
    }
    if (prepared.firstComment) {
      try {
        const res = await this.call(ctx, account, (token, base) => linkedinJson<{ id?: string }>(base, `/rest/socialActions/${encodeURIComponent(urn)}/comments`, {
          method: 'POST', token, version: v, json: { actor: prepared.author, object: urn, message: { text: prepared.firstComment } },
        }));
        extra.firstComment = { status: 'published', id: res.headers.get('x-restli-id') ?? res.body.id ?? null };
      } catch (err) {
        extra.firstComment = { status: 'failed', error: (err as Error).message };
        ctx.log('linkedin: first comment failed', { urn, error: (err as Error).message });
      }
    }
    return { platformPostId: urn, platformPostUrl: postUrl(urn), ...(Object.keys(extra).length ? { extra } : {}) };
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md): finds the
   * author's posts (`GET /rest/posts?q=author&sortBy=CREATED`, newest first), 100 a call,
   * paging with `start`/`count` while a `next` link is given, until a post is older than
   * `window.since` (the finder has no time filter;
   * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api,
   * https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/pagination).
   * A post with media matches by the media URNs uploaded for this attempt; a text post by
   * its exact commentary. No match after a complete look-back -> not_published. Unknown: a
   * failed call, including the 403 member tokens get (listing a member's posts needs the
   * restricted r_member_social), several candidates, more than VERIFY_MAX_PAGES pages.
   */
  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: LinkedInPrepared, window: VerifyWindow): Promise<VerifyResult<LinkedInPrepared>> {
    type Listed = { id: string; commentary?: string; createdAt?: number; content?: Record<string, unknown> };
    const posts: Listed[] = [];
    const count = 100;
    try {
      for (let page = 0; ; page++) {
        if (page >= VERIFY_MAX_PAGES) return { status: 'unknown', reason: `the author posted more than ${VERIFY_MAX_PAGES * count} posts since the attempt` };
        const { body } = await this.call(ctx, account, (token, base) => linkedinJson<{ elements?: Listed[]; paging?: { links?: Array<{ rel?: string }> } }>(base, '/rest/posts', {
          token, version: this.opts.apiVersion, query: { q: 'author', author: prepared.author, sortBy: 'CREATED', count, start: page * count },
        }));
        const elements = body.elements ?? [];
        let older = false;
        for (const p of elements) {
          if (p.createdAt !== undefined && p.createdAt < window.since.getTime()) older = true;
          else posts.push(p);
        }
        if (older || elements.length === 0 || !(body.paging?.links ?? []).some((l) => l.rel === 'next')) break;
      }
    } catch (err) {
      if (err instanceof AdapterError && err.opts.status === 403) {
        return { status: 'unknown', reason: `LinkedIn does not let this account list its posts (${err.message}); check the LinkedIn feed` };
      }
      return lookupFailed(err);
    }
    const wanted = mediaUrns(prepared.content);
    const found = posts.filter((p) => (wanted.length ? mediaUrns(p.content).join(',') === wanted.join(',') : (p.commentary ?? '') === prepared.commentary));
    if (found.length > 1) return { status: 'unknown', reason: `${found.length} posts of the author match what was sent` };
    if (found.length === 1) return { status: 'published', result: { platformPostId: found[0].id, platformPostUrl: postUrl(found[0].id) } };
    return { status: 'not_published' };
  }
}
