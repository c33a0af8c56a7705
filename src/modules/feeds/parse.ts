/**
 * Reading a feed body Herald fetched itself (through the SSRF guard, ./fetch.ts) into items, and
 * rendering an item into a post's text. Parsing is @extractus/feed-extractor's `extractFromXml`
 * (RSS 2.0, Atom, RDF) and `extractFromJson` (JSON Feed 1.0/1.1); never its `extract(url)`, which
 * would fetch the URL past the guard (docs/decisions/0065-rss-to-queue.md).
 *
 * Formats: RSS 2.0 https://www.rssboard.org/rss-specification (guid, enclosure), Atom
 * https://datatracker.ietf.org/doc/html/rfc4287 (id, link rel="enclosure"), JSON Feed
 * https://www.jsonfeed.org/version/1.1/ (id, image, attachments), Media RSS
 * https://www.rssboard.org/media-rss (media:content, media:thumbnail).
 */
import { extractFromJson, extractFromXml, type FeedEntry } from '@extractus/feed-extractor';

/** One item of a feed, as Herald uses it. */
export interface FeedItem {
  /** The dedupe key within its feed: the item's guid / id, else its link, else its title and date. */
  key: string;
  title: string;
  /** Absolute http(s) URL of the item, or '' when it has none. */
  link: string;
  /** Plain text (tags stripped), at most {@link DESCRIPTION_MAX} characters. */
  description: string;
  /** Publication (or update) time, or null when the feed gives none that parses. */
  publishedAt: Date | null;
  /** An image of the item (enclosure, media:content / media:thumbnail, JSON Feed image or attachment), absolute http(s), or null. */
  imageUrl: string | null;
}

/** A parsed feed: its title and its items in the feed's order. */
export interface ParsedFeed {
  title: string;
  items: FeedItem[];
}

/** Longest `{description}`, characters (cut at a word by the parser). */
export const DESCRIPTION_MAX = 500;
/** Longest item key kept (a longer guid is cut; keys are compared as stored). */
const KEY_MAX = 1000;

/** A body that is not a feed Herald can read (not well-formed, not RSS/Atom/RDF/JSON Feed). */
export class FeedParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedParseError';
  }
}

type Raw = Record<string, unknown>;
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const textOf = (v: unknown): string => {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number') return String(v);
  if (isObj(v)) return textOf(v['#text'] ?? v._text ?? v._cdata ?? '');
  return '';
};

/** The absolute http(s) form of `url` against `base`, or null. */
function absoluteHttp(url: unknown, base: string): string | null {
  if (typeof url !== 'string' || !url.trim()) return null;
  try {
    const u = new URL(url.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

const isImageType = (t: unknown) => typeof t === 'string' && t.toLowerCase().startsWith('image/');

/** The first image of a raw entry of any of the formats, absolute against `base`. */
function imageOf(raw: Raw, base: string): string | null {
  const candidates: unknown[] = [];
  // RSS 2.0 <enclosure url type> and Atom <link rel="enclosure" href type>.
  for (const e of asArray(raw.enclosure)) if (isObj(e) && isImageType(e['@_type'])) candidates.push(e['@_url']);
  for (const l of asArray(raw.link)) if (isObj(l) && l['@_rel'] === 'enclosure' && isImageType(l['@_type'])) candidates.push(l['@_href']);
  // Media RSS: media:content (directly or in a media:group), then media:thumbnail.
  const contents = [...asArray(raw['media:content']), ...asArray(raw['media:group']).flatMap((g) => (isObj(g) ? asArray(g['media:content']) : []))];
  for (const c of contents) if (isObj(c) && (c['@_medium'] === 'image' || isImageType(c['@_type']))) candidates.push(c['@_url']);
  for (const t of asArray(raw['media:thumbnail'])) if (isObj(t)) candidates.push(t['@_url']);
  // JSON Feed: image, banner_image, image attachments.
  candidates.push(raw.image, raw.banner_image);
  for (const a of asArray(raw.attachments)) if (isObj(a) && isImageType(a.mime_type)) candidates.push(a.url);
  for (const c of candidates) {
    const url = absoluteHttp(c, base);
    if (url) return url;
  }
  return null;
}

/** The raw guid / id of an entry ('' when the feed gives none). */
function rawIdOf(raw: Raw): string {
  return textOf(raw.guid ?? raw.id ?? raw['@_rdf:about'] ?? '');
}

/**
 * Parses a feed body. JSON when the media type says so or the body starts with `{`; XML otherwise.
 * `url` (the feed's own URL) resolves relative links and images.
 * @throws FeedParseError for a body that is not a well-formed RSS, Atom, RDF or JSON feed.
 */
export function parseFeed(body: string, contentType: string, url: string): ParsedFeed {
  const text = body.replace(/^\uFEFF/, '').trim();
  const json = /json/i.test(contentType) || text.startsWith('{');
  const options = {
    descriptionMaxLen: DESCRIPTION_MAX,
    baseUrl: url,
    getExtraEntryFields: (raw: Raw) => ({ heraldRawId: rawIdOf(raw), heraldImage: imageOf(raw, url) }),
  };
  let data: ReturnType<typeof extractFromXml>;
  try {
    if (json) {
      const obj = JSON.parse(text) as unknown;
      if (!isObj(obj) || !Array.isArray(obj.items)) throw new FeedParseError('the JSON document is not a JSON Feed (no "items" array)');
      data = extractFromJson(obj, options);
    } else {
      if (!text.startsWith('<')) throw new FeedParseError('the body is neither XML nor JSON');
      data = extractFromXml(text, options);
    }
  } catch (err) {
    if (err instanceof FeedParseError) throw err;
    throw new FeedParseError(`not a readable feed: ${(err as Error).message}`);
  }
  const items = (data.entries ?? []).map((e) => itemOf(e, url)).filter((i): i is FeedItem => i !== null);
  return { title: textOf(data.title).slice(0, 300), items };
}

function itemOf(e: FeedEntry, base: string): FeedItem | null {
  const title = textOf(e.title).slice(0, 500);
  const link = absoluteHttp(e.link, base) ?? '';
  const description = textOf(e.description).replace(/\s+/g, ' ').trim();
  const published = e.published ? new Date(e.published) : null;
  const publishedAt = published && !Number.isNaN(published.getTime()) ? published : null;
  const rawId = typeof e.heraldRawId === 'string' ? e.heraldRawId : '';
  const key = (rawId || link || (title ? `${title}|${publishedAt?.toISOString() ?? ''}` : '')).slice(0, KEY_MAX);
  if (!key) return null; // nothing identifies it: it could not be deduplicated
  return { key, title, link, description, publishedAt, imageUrl: typeof e.heraldImage === 'string' ? e.heraldImage : null };
}

/** The placeholders a template may use. */
export const TEMPLATE_FIELDS = ['title', 'link', 'description'] as const;
/** The template when none is given. */
export const DEFAULT_TEMPLATE = '{title}\n\n{link}';

/** Placeholders in `template` that are not {@link TEMPLATE_FIELDS} (e.g. `{titel}`), for a 400 naming them. */
export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1]).filter((n) => !(TEMPLATE_FIELDS as readonly string[]).includes(n));
}

/** The post text of an item: the template with `{title}`, `{link}`, `{description}` replaced, blank runs of lines collapsed, trimmed. */
export function renderTemplate(template: string, item: Pick<FeedItem, 'title' | 'link' | 'description'>): string {
  return template
    .replace(/\{(title|link|description)\}/g, (_, k: 'title' | 'link' | 'description') => item[k])
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
