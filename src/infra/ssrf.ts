/**
 * The SSRF guard for every URL Herald fetches on a user's behalf (mediaItems urls,
 * CSV media_urls, video_url): http/https only; the resolved address must not be
 * loopback, private, link-local, CGNAT, multicast or otherwise reserved, including the
 * IPv6 forms that embed such an IPv4 address (unless `allowPrivate`, for tests and local
 * simulators); the check happens inside the socket's DNS lookup, so a name cannot
 * resolve to a public address for the check and a private one for the connection.
 * Every redirect hop is checked the same way. Size and total time are capped.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { checkFetchUrl, isBlockedAddress, isRefusedAddress, resolvesToRefusedMessage, type AddressPolicy } from '../shared/net/address-policy.ts';

/** A URL or address the guard refuses, or a response over the size cap. Permanent: retrying cannot help. */
export class FetchBlockedError extends Error {
  /** `too_large`: the body is over `maxBytes` (by its Content-Length or its bytes); else the URL or address was refused. */
  readonly reason: 'refused' | 'too_large';
  constructor(message: string, reason: 'refused' | 'too_large' = 'refused') {
    super(message);
    this.name = 'FetchBlockedError';
    this.reason = reason;
  }
}

export { isBlockedAddress };

export interface GuardedFetchOptions {
  /** Largest body accepted, bytes: a larger Content-Length is refused before reading, a longer body is cut off (with `prefix`: the bytes read). */
  maxBytes: number;
  /** Total time for the whole fetch, redirects included, ms (default 30,000). */
  timeoutMs?: number;
  /** Lets loopback/private/reserved addresses through (tests and local simulators only). */
  allowPrivate?: boolean;
  /**
   * Exact IP addresses exempt from the private-address rule while `allowPrivate` is off
   * (an operator's internal media host, or a test server standing in for a public one).
   * Every other address, redirect targets included, is still checked.
   */
  allowAddresses?: readonly string[];
  /** Redirects followed (default 3); each hop goes through the same checks. */
  maxRedirects?: number;
  /**
   * Reads only the first `maxBytes` (a header probe): asks for them with a Range request and
   * stops there, instead of refusing a larger body. The result is then a prefix of the file.
   */
  prefix?: boolean;
  /**
   * Streams the body into this stream instead of keeping it (a large download to a file): the
   * result's `bytes` is then empty and `size` says how many bytes were written. The stream is
   * not ended; the caller ends it and waits for it to finish. Not with `prefix`.
   */
  sink?: NodeJS.WritableStream;
  /** Extra request headers (a conditional GET's If-None-Match / If-Modified-Since, an Accept). */
  headers?: Record<string, string>;
  /** Answers a 304 Not Modified as a result (`status: 304`, empty body) instead of an error: a conditional GET. */
  notModified?: boolean;
}

/** What a guarded fetch returns: the whole body (at most `maxBytes`) and the media type without parameters. */
export interface GuardedFetchResult {
  bytes: Buffer;
  contentType: string;
  /** Bytes received (with `sink`, the bytes written to it). */
  size: number;
  /** The final response's status: 200, 206 (with `prefix`) or 304 (with `notModified`). */
  status: number;
  /** The final response's headers (lower-case names), e.g. `etag` and `last-modified` for the next conditional GET. */
  headers: http.IncomingHttpHeaders;
}

/**
 * Fetches a URL through the guard (GET, following up to `maxRedirects` redirects).
 * @throws FetchBlockedError for a refused scheme, address or redirect, a body over `maxBytes`,
 *   or too many redirects (permanent); Error for HTTP errors, network errors and the time cap (transient).
 */
export async function guardedFetch(url: string, opts: GuardedFetchOptions): Promise<GuardedFetchResult> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let current = url;
  for (let hop = 0; hop <= (opts.maxRedirects ?? 3); hop++) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`fetching ${url} timed out after ${timeoutMs} ms`);
    const r = await fetchOnce(current, opts, left, url, timeoutMs);
    if ('redirect' in r) {
      try {
        current = new URL(r.redirect, current).toString();
      } catch {
        throw new FetchBlockedError(`fetching ${url}: invalid redirect location ${JSON.stringify(r.redirect)}`);
      }
      continue;
    }
    return r;
  }
  throw new FetchBlockedError(`too many redirects fetching ${url}`);
}

/**
 * A socket `lookup` that refuses a host resolving to an address the policy forbids (checked on
 * the address the socket will connect to, so DNS rebinding cannot slip past a check made earlier).
 * @throws (through the callback) FetchBlockedError naming the host and the address.
 */
export function guardedLookup(policy: AddressPolicy): net.LookupFunction {
  return (hostname, options, cb) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isRefusedAddress(a.address, policy));
      if (bad) return cb(new FetchBlockedError(resolvesToRefusedMessage(hostname, bad.address)), '', 4);
      if ((options as { all?: boolean }).all) return (cb as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      cb(null, list[0].address, list[0].family);
    });
  };
}

function fetchOnce(url: string, opts: GuardedFetchOptions, timeLeftMs: number, original: string, timeoutMs: number): Promise<GuardedFetchResult | { redirect: string }> {
  const checked = checkFetchUrl(url, opts);
  if (!checked.ok) return Promise.reject(new FetchBlockedError(checked.message));
  const u = checked.url;
  const lookup = guardedLookup(opts);
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => { if (!settled) { settled = true; clearTimeout(timer); fn(); } };
    const headers: Record<string, string> = { 'user-agent': 'Herald/1.0 (+media fetch)', ...opts.headers, ...(opts.prefix ? { range: `bytes=0-${opts.maxBytes - 1}` } : {}) };
    const req = mod.get(u, { lookup, headers }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        settle(() => resolve({ redirect: res.headers.location! }));
        return;
      }
      if (status === 304 && opts.notModified) {
        res.resume();
        settle(() => resolve({ bytes: Buffer.alloc(0), contentType: contentTypeOf(res), size: 0, status, headers: res.headers }));
        return;
      }
      if (status !== 200 && !(opts.prefix && status === 206)) {
        res.resume();
        settle(() => reject(new Error(`fetching ${url} answered HTTP ${status}`)));
        return;
      }
      const declared = Number(res.headers['content-length'] ?? -1);
      if (declared > opts.maxBytes && !opts.prefix) {
        res.destroy();
        settle(() => reject(new FetchBlockedError(`${url} is ${declared} bytes; the limit is ${opts.maxBytes}`, 'too_large')));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const sink = opts.prefix ? undefined : opts.sink;
      if (sink) {
        const failed = (err: Error) => { res.destroy(); settle(() => reject(err)); };
        sink.once('error', failed);
        res.once('close', () => sink.removeListener('error', failed));
      }
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (sink && size <= opts.maxBytes) {
          // Back-pressure: stop reading while the sink's buffer is full.
          if (!sink.write(c)) { res.pause(); sink.once('drain', () => res.resume()); }
          return;
        }
        if (size >= opts.maxBytes && opts.prefix) {
          chunks.push(c);
          res.destroy();
          settle(() => resolve({ bytes: Buffer.concat(chunks).subarray(0, opts.maxBytes), contentType: contentTypeOf(res), size: Math.min(size, opts.maxBytes), status, headers: res.headers }));
          return;
        }
        if (size > opts.maxBytes) {
          res.destroy();
          settle(() => reject(new FetchBlockedError(`${url} is larger than the limit of ${opts.maxBytes} bytes`, 'too_large')));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => settle(() => resolve({ bytes: Buffer.concat(chunks), contentType: contentTypeOf(res), size, status, headers: res.headers })));
      res.on('error', (err) => settle(() => reject(err)));
      res.on('close', () => { if (!res.complete) settle(() => reject(new Error(`fetching ${url}: the connection closed before the body was complete`))); });
    });
    // One deadline for the whole fetch (a slow drip of bytes does not reset it, unlike a socket idle timeout).
    const timer = setTimeout(() => {
      const err = new Error(`fetching ${original} timed out after ${timeoutMs} ms`);
      settle(() => reject(err));
      req.destroy(err);
    }, timeLeftMs);
    req.on('error', (err) => settle(() => reject(err)));
  });
}

/** The response's media type without parameters. */
function contentTypeOf(res: http.IncomingMessage): string {
  return String(res.headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim();
}
