/**
 * Google Business Profile's local post rules (Business Profile API v4 `localPosts`,
 * https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts):
 * one post per location, a summary of at most 1,500 characters, one photo (JPG/PNG, 10 KB to
 * 5 MB, 250 x 250 pixels or more) or one video (30 s, 75 MB, 720p or more), a topic type
 * (STANDARD, EVENT, OFFER), an event (title and schedule, the end after the start) for EVENT and
 * OFFER, an offer only on OFFER, and a call-to-action button (BOOK, ORDER, SHOP, LEARN_MORE,
 * SIGN_UP, CALL) with a URL except for CALL. No threads.
 *
 * Where a figure comes from the Business Profile Help Center rather than the API reference it is
 * UNCONFIRMED for the API (see src/shared/capabilities.ts); the strict reading is enforced.
 *
 * `platformSpecificData` takes Late's GoogleBusinessPlatformData names (`callToAction.type`) and
 * Google's own (`callToAction.actionType`); {@link googleCallToAction} maps them.
 */
import {
  GOOGLEBUSINESS_DOCS_URL, GOOGLEBUSINESS_MAX_MEDIA, GOOGLEBUSINESS_PHOTO_MAX_BYTES, GOOGLEBUSINESS_PHOTO_MIN_BYTES, GOOGLEBUSINESS_PHOTO_MIN_PIXELS,
  GOOGLEBUSINESS_SUMMARY_MAX, GOOGLEBUSINESS_VIDEO_MAX_BYTES, GOOGLEBUSINESS_VIDEO_MAX_SECONDS, GOOGLEBUSINESS_VIDEO_MIN_PIXELS,
} from '../capabilities.ts';
import type { MediaRef, PlatformRuleSet, RulePost, RuleViolation } from './types.ts';
import { n } from './format.ts';

const LOCAL_POSTS = GOOGLEBUSINESS_DOCS_URL;
const POSTS_DATA = 'https://developers.google.com/my-business/content/posts-data';
const HELP_POSTS = 'https://support.google.com/business/answer/7342169';
const HELP_MEDIA = 'https://support.google.com/business/answer/6103862';
const LOCATIONS = 'https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list';

/** The topic types Herald sends (`ALERT` is COVID-19 only and not offered; product posts cannot be made through the API). */
export const GOOGLEBUSINESS_TOPIC_TYPES = ['STANDARD', 'EVENT', 'OFFER'] as const;
export type GoogleTopicType = (typeof GOOGLEBUSINESS_TOPIC_TYPES)[number];
/** Call-to-action types (`GET_OFFER` is deprecated on the reference page and not taken). */
export const GOOGLEBUSINESS_ACTION_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'] as const;
export type GoogleActionType = (typeof GOOGLEBUSINESS_ACTION_TYPES)[number];

export const GOOGLEBUSINESS_RULES = [
  { id: 'googlebusiness.threads.unsupported', summary: 'A local post is one post: threads are not accepted.', source: LOCAL_POSTS },
  { id: 'googlebusiness.summary.max_length', summary: `Summary (the content): at most ${n(GOOGLEBUSINESS_SUMMARY_MAX)} characters.`, source: HELP_POSTS },
  { id: 'googlebusiness.media.max_items', summary: `At most ${GOOGLEBUSINESS_MAX_MEDIA} media item: one photo or one video.`, source: HELP_POSTS },
  { id: 'googlebusiness.media.type', summary: 'Media: photos and videos only (no GIFs, no documents).', source: HELP_MEDIA },
  { id: 'googlebusiness.photo.format', summary: 'Photos: JPG or PNG.', source: HELP_MEDIA },
  { id: 'googlebusiness.photo.min_bytes', summary: `Photos: at least ${n(GOOGLEBUSINESS_PHOTO_MIN_BYTES)} bytes (10 KB).`, source: HELP_MEDIA },
  { id: 'googlebusiness.photo.max_bytes', summary: `Photos: at most ${n(GOOGLEBUSINESS_PHOTO_MAX_BYTES)} bytes (5 MB).`, source: HELP_MEDIA },
  { id: 'googlebusiness.photo.min_pixels', summary: `Photos: at least ${GOOGLEBUSINESS_PHOTO_MIN_PIXELS} x ${GOOGLEBUSINESS_PHOTO_MIN_PIXELS} pixels.`, source: HELP_MEDIA },
  { id: 'googlebusiness.video.max_bytes', summary: `Videos: at most ${n(GOOGLEBUSINESS_VIDEO_MAX_BYTES)} bytes (75 MB).`, source: HELP_MEDIA },
  { id: 'googlebusiness.video.max_duration', summary: `Videos: at most ${GOOGLEBUSINESS_VIDEO_MAX_SECONDS} seconds.`, source: HELP_MEDIA },
  { id: 'googlebusiness.video.min_resolution', summary: `Videos: 720p or more (the shorter side at least ${GOOGLEBUSINESS_VIDEO_MIN_PIXELS} pixels).`, source: HELP_MEDIA },
  { id: 'googlebusiness.topic_type', summary: 'topicType: STANDARD (default), EVENT or OFFER.', source: LOCAL_POSTS },
  { id: 'googlebusiness.event.required', summary: 'EVENT and OFFER posts need an event: a title and a schedule (startDate, endDate; times optional).', source: LOCAL_POSTS },
  { id: 'googlebusiness.event.title', summary: 'event.title: the event (or offer) title, not empty.', source: POSTS_DATA },
  { id: 'googlebusiness.event.schedule', summary: 'event.schedule: startDate and endDate as {year, month, day} (or YYYY-MM-DD), startTime/endTime as {hours, minutes} (or in an ISO string), the location\'s local time.', source: POSTS_DATA },
  { id: 'googlebusiness.event.end_after_start', summary: 'event.schedule: the end comes after the start.', source: POSTS_DATA },
  { id: 'googlebusiness.offer.topic', summary: 'offer (couponCode, redeemOnlineUrl, termsConditions) is set only on OFFER posts.', source: LOCAL_POSTS },
  { id: 'googlebusiness.offer.url', summary: 'offer.redeemOnlineUrl: an absolute http(s) URL.', source: POSTS_DATA },
  { id: 'googlebusiness.cta.action_type', summary: 'callToAction.type (or actionType): BOOK, ORDER, SHOP, LEARN_MORE, SIGN_UP or CALL.', source: LOCAL_POSTS },
  { id: 'googlebusiness.cta.url', summary: 'callToAction.url: an absolute http(s) URL, required for every type but CALL (a CALL button dials the location\'s phone; its url is not sent).', source: LOCAL_POSTS },
  { id: 'googlebusiness.cta.offer', summary: 'OFFER posts take no callToAction (Google ignores it there).', source: LOCAL_POSTS },
  { id: 'googlebusiness.language_code', summary: 'languageCode: a BCP-47 language tag (en, de, pt-BR).', source: LOCAL_POSTS },
  { id: 'googlebusiness.location.id', summary: 'locationId: "locations/<digits>" (or the digits), the location the account publishes to; another location is its own account.', source: LOCATIONS },
] as const;

type RuleId = (typeof GOOGLEBUSINESS_RULES)[number]['id'];

/** Google's `Date` (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts#Date). */
export interface GoogleDate { year: number; month: number; day: number }
/** Google's `TimeOfDay` (hours 0-23, minutes 0-59, seconds 0-59, nanos). */
export interface GoogleTimeOfDay { hours: number; minutes: number; seconds?: number; nanos?: number }
/** Google's `TimeInterval`: an event's schedule. */
export interface GoogleSchedule { startDate: GoogleDate; startTime?: GoogleTimeOfDay; endDate: GoogleDate; endTime?: GoogleTimeOfDay }

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const isHttpUrl = (v: unknown): boolean => {
  try { return typeof v === 'string' && /^https?:$/.test(new URL(v).protocol); } catch { return false; }
};

function dateOf(v: unknown): GoogleDate | null {
  if (!isObj(v)) return null;
  const [year, month, day] = [int(v.year), int(v.month), int(v.day)];
  if (year === undefined || month === undefined || day === undefined || year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return { year, month, day };
}
function timeOf(v: unknown): GoogleTimeOfDay | null {
  if (!isObj(v)) return null;
  const hours = v.hours === undefined ? 0 : int(v.hours);
  const minutes = v.minutes === undefined ? 0 : int(v.minutes);
  const seconds = v.seconds === undefined ? 0 : int(v.seconds);
  if (hours === undefined || minutes === undefined || seconds === undefined || hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) return null;
  return { hours, minutes, ...(seconds ? { seconds } : {}) };
}
/** `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS]` with an optional offset; the digits as written (the location's local time). */
function isoParts(v: string): { date: GoogleDate; time?: GoogleTimeOfDay } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(v.trim());
  if (!m) return null;
  const date = dateOf({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) });
  if (!date) return null;
  if (m[4] === undefined) return { date };
  const time = timeOf({ hours: Number(m[4]), minutes: Number(m[5]), seconds: m[6] ? Number(m[6]) : 0 });
  return time ? { date, time } : null;
}

/**
 * An event schedule in Google's `TimeInterval` form, from Google's own objects
 * (`startDate: {year, month, day}`, `startTime: {hours, minutes}`, ...) or ISO strings
 * (`startDate: "2026-04-15"` or `"2026-04-15T09:00"`; a time in the string is the start/end
 * time, written in the location's local time: a trailing Z or offset is not converted).
 * Answers the schedule or the problem with it.
 */
export function googleSchedule(v: unknown): { schedule: GoogleSchedule } | { problem: string } {
  if (!isObj(v)) return { problem: 'event.schedule is required: an object with startDate and endDate' };
  const side = (which: 'start' | 'end'): { date: GoogleDate; time?: GoogleTimeOfDay } | string => {
    const d = v[`${which}Date`];
    const t = v[`${which}Time`];
    let date: GoogleDate | null;
    let time: GoogleTimeOfDay | undefined;
    if (typeof d === 'string') {
      const p = isoParts(d);
      if (!p) return `event.schedule.${which}Date must be a date (YYYY-MM-DD, optionally with THH:MM) or {year, month, day}`;
      date = p.date;
      time = p.time;
    } else {
      date = dateOf(d);
      if (!date) return `event.schedule.${which}Date must be {year, month, day} (a real calendar date) or YYYY-MM-DD`;
    }
    if (t !== undefined) {
      const tt = timeOf(t);
      if (!tt) return `event.schedule.${which}Time must be {hours 0-23, minutes 0-59}`;
      time = tt;
    }
    return { date, ...(time ? { time } : {}) };
  };
  const start = side('start');
  if (typeof start === 'string') return { problem: start };
  const end = side('end');
  if (typeof end === 'string') return { problem: end };
  return { schedule: { startDate: start.date, ...(start.time ? { startTime: start.time } : {}), endDate: end.date, ...(end.time ? { endTime: end.time } : {}) } };
}

/** A schedule's start and end as comparable numbers (a missing start time is 00:00, a missing end time 23:59:59). */
export function scheduleBounds(s: GoogleSchedule): { start: number; end: number } {
  const at = (d: GoogleDate, t: GoogleTimeOfDay | undefined, dflt: GoogleTimeOfDay) => {
    const tt = t ?? dflt;
    return Date.UTC(d.year, d.month - 1, d.day, tt.hours, tt.minutes, tt.seconds ?? 0);
  };
  return { start: at(s.startDate, s.startTime, { hours: 0, minutes: 0 }), end: at(s.endDate, s.endTime, { hours: 23, minutes: 59, seconds: 59 }) };
}

/** The post's topic type (`platformSpecificData.topicType`, STANDARD when absent). */
export const googleTopicType = (psd: Record<string, unknown>): unknown => psd.topicType ?? 'STANDARD';

/**
 * The call-to-action as Google names it (`{actionType, url}`) from Late's `{type, url}` or Google's
 * `{actionType, url}`; a CALL button's url is dropped (Google's reference: "url must be left unset
 * for CALL"). Null when absent.
 */
export function googleCallToAction(v: unknown): { actionType: unknown; url?: unknown } | null {
  if (!isObj(v)) return null;
  const actionType = v.actionType ?? v.type;
  return actionType === 'CALL' ? { actionType } : { actionType, ...(v.url !== undefined ? { url: v.url } : {}) };
}

/** A location id as Google's resource name `locations/<digits>`, from that or the bare digits; null when neither. */
export function googleLocationName(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = /^(?:locations\/)?(\d{1,30})$/.exec(v.trim());
  return m ? `locations/${m[1]}` : null;
}

const PHOTO_MIME = /^image\/(jpeg|jpg|pjpeg|png)$/i;
const ext = (m: MediaRef) => { try { return new URL(m.filename ? `https://x/${m.filename}` : m.url).pathname.toLowerCase().replace(/^.*\./, ''); } catch { return ''; } };
const photoFormatOk = (m: MediaRef) => (m.mimeType ? PHOTO_MIME.test(m.mimeType) : !['webp', 'gif', 'heic', 'heif', 'bmp', 'tif', 'tiff', 'avif', 'svg'].includes(ext(m)));

/** Every Google Business Profile rule `post` breaks, without any network call. Empty array = publishable. */
function check(req: RulePost): RuleViolation[] {
  const out: RuleViolation[] = [];
  const psd = req.platformSpecificData ?? {};
  const add = (field: string, rule: RuleId, message: string) => out.push({ field, rule, message });
  if ((req.threadItems?.length ?? 0) > 0) add('platformSpecificData.threadItems', 'googlebusiness.threads.unsupported', 'Google Business Profile posts cannot be threads');
  const summary = req.text ?? '';
  if (summary.length > GOOGLEBUSINESS_SUMMARY_MAX) add('content', 'googlebusiness.summary.max_length', `Google Business Profile post summaries are limited to ${n(GOOGLEBUSINESS_SUMMARY_MAX)} characters; this one has ${n(summary.length)}`);

  const media = req.mediaItems ?? [];
  if (media.length > GOOGLEBUSINESS_MAX_MEDIA) add('mediaItems', 'googlebusiness.media.max_items', `A Google Business Profile post takes one photo or one video; got ${media.length} media items`);
  media.forEach((m, i) => {
    const f = `mediaItems.${i}`;
    if (m.type === 'document' || m.type === 'gif') { add(f, 'googlebusiness.media.type', `Google Business Profile posts take photos (JPG, PNG) and videos, not ${m.type === 'gif' ? 'GIFs' : 'documents'}`); return; }
    if (m.type === 'image') {
      if (!photoFormatOk(m)) add(f, 'googlebusiness.photo.format', `Google Business Profile photos must be JPG or PNG (this one is ${m.mimeType ?? ext(m)})`);
      if (m.size !== undefined && m.size < GOOGLEBUSINESS_PHOTO_MIN_BYTES) add(f, 'googlebusiness.photo.min_bytes', `Google Business Profile photos must be at least ${n(GOOGLEBUSINESS_PHOTO_MIN_BYTES)} bytes (10 KB); this one has ${n(m.size)}`);
      if (m.size !== undefined && m.size > GOOGLEBUSINESS_PHOTO_MAX_BYTES) add(f, 'googlebusiness.photo.max_bytes', `Google Business Profile photos are limited to ${n(GOOGLEBUSINESS_PHOTO_MAX_BYTES)} bytes (5 MB); this one has ${n(m.size)}`);
      if ((m.width !== undefined && m.width < GOOGLEBUSINESS_PHOTO_MIN_PIXELS) || (m.height !== undefined && m.height < GOOGLEBUSINESS_PHOTO_MIN_PIXELS)) {
        add(f, 'googlebusiness.photo.min_pixels', `Google Business Profile photos must be at least ${GOOGLEBUSINESS_PHOTO_MIN_PIXELS} x ${GOOGLEBUSINESS_PHOTO_MIN_PIXELS} pixels; this one is ${m.width ?? '?'} x ${m.height ?? '?'}`);
      }
    }
    if (m.type === 'video') {
      if (m.size !== undefined && m.size > GOOGLEBUSINESS_VIDEO_MAX_BYTES) add(f, 'googlebusiness.video.max_bytes', `Google Business Profile videos are limited to ${n(GOOGLEBUSINESS_VIDEO_MAX_BYTES)} bytes (75 MB); this one has ${n(m.size)}`);
      if (m.durationSeconds !== undefined && m.durationSeconds > GOOGLEBUSINESS_VIDEO_MAX_SECONDS) add(f, 'googlebusiness.video.max_duration', `Google Business Profile videos last at most ${GOOGLEBUSINESS_VIDEO_MAX_SECONDS} seconds; this one lasts ${m.durationSeconds} s`);
      if (m.width !== undefined && m.height !== undefined && Math.min(m.width, m.height) < GOOGLEBUSINESS_VIDEO_MIN_PIXELS) {
        add(f, 'googlebusiness.video.min_resolution', `Google Business Profile videos must be 720p or more (the shorter side at least ${GOOGLEBUSINESS_VIDEO_MIN_PIXELS} pixels); this one is ${m.width} x ${m.height}`);
      }
    }
  });

  const topic = googleTopicType(psd);
  const known = (GOOGLEBUSINESS_TOPIC_TYPES as readonly unknown[]).includes(topic);
  if (!known) add('platformSpecificData.topicType', 'googlebusiness.topic_type', 'topicType must be STANDARD, EVENT or OFFER');
  const needsEvent = topic === 'EVENT' || topic === 'OFFER';
  const event = psd.event;
  if (needsEvent && event === undefined) add('platformSpecificData.event', 'googlebusiness.event.required', `${topic} posts need an event: {title, schedule: {startDate, endDate}}`);
  if (event !== undefined) {
    if (!isObj(event)) add('platformSpecificData.event', 'googlebusiness.event.required', 'event must be an object: {title, schedule: {startDate, endDate}}');
    else {
      if (!str(event.title)) add('platformSpecificData.event.title', 'googlebusiness.event.title', 'event.title is required (the event or offer title)');
      const s = googleSchedule(event.schedule);
      if ('problem' in s) add('platformSpecificData.event.schedule', 'googlebusiness.event.schedule', s.problem);
      else {
        const b = scheduleBounds(s.schedule);
        if (b.end <= b.start) add('platformSpecificData.event.schedule', 'googlebusiness.event.end_after_start', 'event.schedule: the end must come after the start');
      }
    }
  }
  const offer = psd.offer;
  if (offer !== undefined) {
    if (topic !== 'OFFER') add('platformSpecificData.offer', 'googlebusiness.offer.topic', 'offer is set only on OFFER posts (topicType OFFER)');
    if (isObj(offer) && offer.redeemOnlineUrl !== undefined && !isHttpUrl(offer.redeemOnlineUrl)) add('platformSpecificData.offer.redeemOnlineUrl', 'googlebusiness.offer.url', 'offer.redeemOnlineUrl must be an absolute http(s) URL');
  }
  if (psd.callToAction !== undefined) {
    const cta = googleCallToAction(psd.callToAction);
    if (topic === 'OFFER') add('platformSpecificData.callToAction', 'googlebusiness.cta.offer', 'OFFER posts take no callToAction (Google ignores it on offers)');
    if (!cta || !(GOOGLEBUSINESS_ACTION_TYPES as readonly unknown[]).includes(cta.actionType)) {
      add('platformSpecificData.callToAction.type', 'googlebusiness.cta.action_type', 'callToAction.type must be BOOK, ORDER, SHOP, LEARN_MORE, SIGN_UP or CALL');
    } else if (cta.actionType !== 'CALL' && !isHttpUrl(cta.url)) {
      add('platformSpecificData.callToAction.url', 'googlebusiness.cta.url', `callToAction.url is required for ${String(cta.actionType)}: an absolute http(s) URL`);
    }
  }
  if (psd.languageCode !== undefined && (typeof psd.languageCode !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(psd.languageCode))) {
    add('platformSpecificData.languageCode', 'googlebusiness.language_code', 'languageCode must be a BCP-47 language tag (e.g. en, de, pt-BR)');
  }
  if (psd.locationId !== undefined) {
    const name = googleLocationName(psd.locationId);
    const own = googleLocationName(req.accountSettings?.locationId);
    if (!name) add('platformSpecificData.locationId', 'googlebusiness.location.id', 'locationId must be "locations/<digits>" (or the digits), as GET /v1/accounts/{accountId}/gmb-locations lists them');
    else if (own && name !== own) add('platformSpecificData.locationId', 'googlebusiness.location.id', `This account publishes to ${own}; connect ${name} as its own account (or switch the account with PUT /v1/accounts/{accountId}/gmb-locations)`);
  }
  return out;
}

export const googlebusinessRules: PlatformRuleSet = { platform: 'googlebusiness', rules: GOOGLEBUSINESS_RULES, check };
