/**
 * Fetching a feed through Herald's SSRF guard (src/infra/ssrf.ts: http/https only, no private or
 * reserved address unless HERALD_ALLOW_PRIVATE_URLS, every redirect checked, size and time capped)
 * as a conditional GET: the validators of the last answer go back as If-None-Match /
 * If-Modified-Since, and a 304 means nothing changed (RFC 9110 section 13.1,
 * https://www.rfc-editor.org/rfc/rfc9110#section-13.1).
 */
import { guardedFetch } from '../../infra/ssrf.ts';
import { parseFeed, type ParsedFeed } from './parse.ts';

/** Largest feed body read, bytes. */
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
/** Time for one fetch, redirects included, ms. */
export const FEED_TIMEOUT_MS = 20_000;

/** The validators of a feed's last 200 answer. */
export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

/** What a check found: nothing new (304), or the parsed feed with the validators to send next time. */
export type FetchedFeed = { kind: 'not_modified' } | { kind: 'ok'; feed: ParsedFeed; validators: FeedValidators };

/**
 * Fetches and parses the feed at `url`.
 * @throws FetchBlockedError (src/infra/ssrf.ts) for a refused URL, address or redirect or a body over
 *   {@link FEED_MAX_BYTES}; Error for an HTTP error status, a network error or the time cap; FeedParseError
 *   (./parse.ts) for a body that is no feed.
 */
export async function fetchFeed(url: string, previous: FeedValidators, opts: { allowPrivate: boolean }): Promise<FetchedFeed> {
  const headers: Record<string, string> = {
    accept: 'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5',
  };
  if (previous.etag) headers['if-none-match'] = previous.etag;
  if (previous.lastModified) headers['if-modified-since'] = previous.lastModified;
  const r = await guardedFetch(url, { maxBytes: FEED_MAX_BYTES, timeoutMs: FEED_TIMEOUT_MS, allowPrivate: opts.allowPrivate, headers, notModified: true });
  if (r.status === 304) return { kind: 'not_modified' };
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;
  return {
    kind: 'ok',
    feed: parseFeed(r.bytes.toString('utf8'), r.contentType, url),
    validators: { etag: one(r.headers.etag), lastModified: one(r.headers['last-modified']) },
  };
}
