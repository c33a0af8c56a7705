/**
 * Google Business Profile adapter: local posts on the account's location with the Business
 * Profile API v4 (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts;
 * docs/decisions/0058-google-business-profile.md).
 *
 * - `validate`: the rule table (src/shared/rules/googlebusiness.ts).
 * - `prepare`: builds the LocalPost (summary, topicType, languageCode, callToAction from Late's
 *   `type` or Google's `actionType`, event with its schedule in Google's Date/TimeOfDay form,
 *   offer, one media item by `sourceUrl`: Google fetches the file itself, so nothing is uploaded
 *   and nothing exists on Google after prepare).
 * - `commit`: `POST /v4/{parent}/localPosts`, the one call that creates the post. Google
 *   moderates posts: the answer's `state` is LIVE (published), REJECTED (failed with Google's
 *   answer: the API gives no reason field) or PROCESSING. A PROCESSING post is not published yet:
 *   the result carries `goesLiveAt` (a minute on), the target stays pending, and `confirmLive`
 *   reads the post (`GET /v4/{name}`) until it is LIVE (published) or REJECTED/deleted (failed).
 * - `verify`: no idempotency key exists, so the location's posts are listed (100 a page, every
 *   page: the list's order is not documented) and matched exactly on createTime after the
 *   attempt, summary, topicType and media sourceUrl.
 * - `unpublish`: `DELETE /v4/{name}`; a post Google no longer has (404) counts as deleted.
 * - No `fetchMetrics`: the Performance API's metrics are per location and day, not per post.
 * Failures: Google's error model (./google.ts); a refused refresh or a 401 with a fresh token, and
 * 403 PERMISSION_DENIED, ask for reconnection.
 */
import type { OAuthProvider, PlatformApp } from '../oauth.ts';
import { withAccessToken } from '../oauth-session.ts';
import {
  AdapterError, deleteUnlessGone, VERIFY_MAX_PAGES,
  type AccountContext, type AdapterContext, type EditRequest, type EditResult, type LiveCheck, type PlatformAdapter, type PublishedPost, type PublishRequest, type PublishResult,
  type RuleViolation, type VerifyResult, type VerifyWindow,
 lookupFailed,
} from '../types.ts';
import { capabilitiesOf } from '../../shared/capabilities.ts';
import { checkRules } from '../../shared/rules/index.ts';
import { googleCallToAction, googleLocationName, googleSchedule, googleTopicType } from '../../shared/rules/googlebusiness.ts';
import { gbpHost, gbpJson } from './google.ts';

/** The LocalPost Herald sends, and where. */
export interface GoogleBusinessPrepared {
  /** `accounts/{a}/locations/{l}`. */
  parent: string;
  /** The LocalPost body (Google's field names). */
  body: Record<string, unknown>;
  preparedAt: string;
}

/** A LocalPost as Google answers it (the fields Herald reads). */
export interface LocalPost {
  name: string;
  summary?: string;
  topicType?: string;
  state?: 'LOCAL_POST_STATE_UNSPECIFIED' | 'PROCESSING' | 'LIVE' | 'REJECTED';
  createTime?: string;
  searchUrl?: string;
  media?: Array<{ mediaFormat?: string; sourceUrl?: string; googleUrl?: string }>;
}

export interface GoogleBusinessOptions {
  /** How long to wait before asking again whether a PROCESSING post is LIVE, ms (default 60 s). */
  liveCheckMs?: number;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Why a post is not public: Google's REJECTED state carries no reason in the v4 API. */
const REJECTED = 'Google rejected the post in moderation (state REJECTED; the API gives no reason). Google\'s posts content policy (https://support.google.com/business/answer/7213077) refuses, among others, phone numbers in the text, off-topic or misleading content and links to harmful sites';

export class GoogleBusinessAdapter implements PlatformAdapter<Record<string, unknown>, GoogleBusinessPrepared> {
  readonly platform = 'googlebusiness' as const;
  readonly capabilities = capabilitiesOf('googlebusiness');
  private readonly liveCheckMs: number;

  constructor(private readonly provider: OAuthProvider, private readonly app: () => PlatformApp, opts: GoogleBusinessOptions = {}) {
    this.liveCheckMs = opts.liveCheckMs ?? 60_000;
  }

  validate(req: PublishRequest): RuleViolation[] {
    return checkRules('googlebusiness', req);
  }

  /**
   * Runs `fn` with a valid access token (refreshed before expiry and once on a 401). A 401 that
   * survives the refresh means Google no longer accepts the authorization: `disconnected`.
   */
  private async call<T>(ctx: AdapterContext, account: AccountContext, fn: (token: string, app: PlatformApp) => Promise<T>): Promise<T> {
    const app = this.app();
    try {
      return await withAccessToken(ctx, account, this.provider, app, (token) => fn(token, app));
    } catch (err) {
      if (err instanceof AdapterError && err.kind === 'auth_expired') {
        throw new AdapterError('disconnected', `${err.message}; Google refused a freshly refreshed token: reconnect the account`, err.opts);
      }
      throw err;
    }
  }

  /** The v4 parent of the account's location. @throws AdapterError rejected when the account has none stored or the post names another location. */
  private parentOf(account: AccountContext, req?: PublishRequest): string {
    const acc = str(account.settings.googleAccountId);
    const loc = googleLocationName(account.settings.locationId ?? account.platformUserId);
    if (!acc || !loc) throw new AdapterError('rejected', 'This Google Business Profile account has no location stored; reconnect it and choose the location');
    const asked = req?.platformSpecificData.locationId;
    if (asked !== undefined && googleLocationName(asked) !== loc) {
      throw new AdapterError('rejected', `This account publishes to ${loc}, not ${String(asked)}: connect that location as its own account [rule googlebusiness.location.id]`);
    }
    return `${acc}/${loc}`;
  }

  /** The local post's body is shaped here; Google fetches its media by URL when it is created. */
  preparesOffline(_req: PublishRequest): boolean {
    return true;
  }

  async prepare(_ctx: AdapterContext, account: AccountContext, req: PublishRequest): Promise<GoogleBusinessPrepared> {
    const psd = req.platformSpecificData;
    const parent = this.parentOf(account, req);
    const topicType = googleTopicType(psd) as string;
    const body: Record<string, unknown> = { topicType };
    if (req.text) body.summary = req.text;
    if (str(psd.languageCode)) body.languageCode = str(psd.languageCode);
    if (topicType !== 'OFFER') {
      const cta = googleCallToAction(psd.callToAction);
      if (cta) body.callToAction = cta;
    }
    const event = psd.event as Record<string, unknown> | undefined;
    if (event && typeof event === 'object') {
      const s = googleSchedule(event.schedule);
      // Past validate the raw schedule is sent as it is, for Google to judge.
      body.event = { title: event.title, schedule: 'schedule' in s ? s.schedule : event.schedule };
    }
    if (psd.offer !== undefined) body.offer = psd.offer;
    const m = req.mediaItems;
    if (m.length) body.media = m.map((x) => ({ mediaFormat: x.type === 'video' ? 'VIDEO' : 'PHOTO', sourceUrl: x.url }));
    return { parent, body, preparedAt: new Date().toISOString() };
  }

  /** The publish result of a post; PROCESSING -> pending until confirmLive sees it LIVE. @throws AdapterError rejected for REJECTED. */
  private result(account: AccountContext, post: LocalPost, allowRejected = false): PublishResult {
    if (post.state === 'REJECTED' && !allowRejected) {
      throw new AdapterError('rejected', `${REJECTED}. The post (${post.name}) stays on the location as rejected; delete or edit it in Business Profile`, { platformCode: 'REJECTED' });
    }
    const url = post.searchUrl ?? (typeof account.settings.mapsUri === 'string' ? account.settings.mapsUri : '');
    const live = post.state === 'LIVE' || post.state === undefined || post.state === 'LOCAL_POST_STATE_UNSPECIFIED';
    return {
      platformPostId: post.name, platformPostUrl: url,
      extra: { state: post.state ?? null, topicType: post.topicType ?? null, ...(post.createTime ? { createTime: post.createTime } : {}) },
      ...(live ? {} : { goesLiveAt: new Date(Date.now() + (post.state === 'REJECTED' ? 1_000 : this.liveCheckMs)).toISOString() }),
    };
  }

  async commit(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: GoogleBusinessPrepared): Promise<PublishResult> {
    const { body } = await this.call(ctx, account, (token, app) => gbpJson<LocalPost>(gbpHost(app, 'posts'), `/v4/${prepared.parent}/localPosts`, { method: 'POST', token, json: prepared.body }));
    if (!body?.name) throw new AdapterError('transient', 'Google did not return the created local post');
    return this.result(account, body);
  }

  /**
   * A post Google was still moderating (state PROCESSING): `GET /v4/{name}`. LIVE -> live (with its
   * searchUrl); PROCESSING -> waiting a minute more (the publisher fails it an hour after the first
   * check: a post still in review then is left to the user); REJECTED -> gone, saying so; 404 -> gone.
   * @throws AdapterError rate_limited, transient, disconnected.
   */
  async confirmLive(ctx: AdapterContext, account: AccountContext, result: PublishResult): Promise<LiveCheck> {
    let post: LocalPost;
    try {
      post = (await this.call(ctx, account, (token, app) => gbpJson<LocalPost>(gbpHost(app, 'posts'), `/v4/${result.platformPostId}`, { token }))).body;
    } catch (err) {
      if (err instanceof AdapterError && err.opts.status === 404) return { status: 'gone', reason: `the post ${result.platformPostId} is no longer on the location (deleted in Business Profile before Google published it)` };
      throw err;
    }
    if (post.state === 'REJECTED') return { status: 'gone', reason: `${REJECTED}. The post (${post.name}) stays on the location as rejected` };
    if (post.state === 'PROCESSING') return { status: 'waiting', until: new Date(Date.now() + this.liveCheckMs), reason: 'Google is still reviewing the post (state PROCESSING)' };
    const { goesLiveAt: _, ...live } = this.result(account, post);
    return { status: 'live', result: live };
  }

  /**
   * Exact check after an interrupted commit (docs/decisions/0018-exact-verify.md): lists the
   * location's posts (`GET /v4/{parent}/localPosts?pageSize=100`, following `nextPageToken` to the
   * end, since the order is not documented; https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/list)
   * and keeps those created at or after `window.since` with the same summary, topicType and media
   * sourceUrl. One -> published (a PROCESSING or REJECTED one goes through confirmLive); none after a
   * complete listing -> not_published; several, a failed call or more than VERIFY_MAX_PAGES pages -> unknown.
   */
  async verify(ctx: AdapterContext, account: AccountContext, _req: PublishRequest, prepared: GoogleBusinessPrepared, window: VerifyWindow): Promise<VerifyResult<GoogleBusinessPrepared>> {
    const want = prepared.body;
    const wantMedia = ((want.media as Array<{ sourceUrl?: string }> | undefined) ?? []).map((m) => m.sourceUrl ?? '').join('\n');
    const found: LocalPost[] = [];
    try {
      let pageToken: string | undefined;
      for (let page = 0; ; page++) {
        if (page >= VERIFY_MAX_PAGES) return { status: 'unknown', reason: `the location has more than ${VERIFY_MAX_PAGES * 100} posts to read back` };
        const { body } = await this.call(ctx, account, (token, app) => gbpJson<{ localPosts?: LocalPost[]; nextPageToken?: string }>(
          gbpHost(app, 'posts'), `/v4/${prepared.parent}/localPosts`, { token, query: { pageSize: 100, ...(pageToken ? { pageToken } : {}) } }));
        for (const p of body.localPosts ?? []) {
          if (!p.createTime || Date.parse(p.createTime) < window.since.getTime()) continue;
          if ((p.summary ?? '') !== ((want.summary as string | undefined) ?? '') || p.topicType !== want.topicType) continue;
          if ((p.media ?? []).map((m) => m.sourceUrl ?? '').join('\n') !== wantMedia) continue;
          found.push(p);
        }
        pageToken = body.nextPageToken;
        if (!pageToken) break;
      }
    } catch (err) {
      return lookupFailed(err);
    }
    if (found.length > 1) return { status: 'unknown', reason: `${found.length} posts created on the location since the attempt match it` };
    if (found.length === 0) return { status: 'not_published' };
    return { status: 'published', result: this.result(account, found[0], true) };
  }

  /**
   * Changes the post's summary: `PATCH /v4/{name}?updateMask=summary` (the other fields stay;
   * https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/patch).
   * Google reviews the post again; it keeps its name.
   */
  async editPublished(ctx: AdapterContext, account: AccountContext, edit: EditRequest): Promise<EditResult> {
    await this.call(ctx, account, (token, app) => gbpJson(gbpHost(app, 'posts'), `/v4/${edit.post.platformPostId}`, {
      method: 'PATCH', token, query: { updateMask: 'summary' }, json: { summary: edit.text },
    }));
    return { platformPostId: edit.post.platformPostId, platformPostUrl: edit.post.platformPostUrl };
  }

  /**
   * Deletes the post: `DELETE /v4/{name}` (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/delete).
   * A post Google no longer has (404 NOT_FOUND) counts as deleted.
   */
  async unpublish(ctx: AdapterContext, account: AccountContext, post: PublishedPost): Promise<void> {
    await deleteUnlessGone(() => this.call(ctx, account, (token, app) => gbpJson(gbpHost(app, 'posts'), `/v4/${post.platformPostId}`, { method: 'DELETE', token })));
  }
}
