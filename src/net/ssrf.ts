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
import net from 'node:net';

/** A URL or address the guard refuses, or a response over the size cap. Permanent: retrying cannot help. */
export class FetchBlockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchBlockedError';
  }
}

const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [
  // ::/96 holds the unspecified address, ::1 and the deprecated IPv4-compatible form (::a.b.c.d);
  // ::ffff:0:0/96 (IPv4-mapped) is checked as IPv4 below; ::ffff:0:a.b.c.d is SIIT's translated form.
  ['::', 96], ['::ffff:0:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or 6to4 (2002:aabb:ccdd::/48) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/i.exec(address);
  const m = hexMapped ?? sixToFour;
  if (!m) return null;
  const hi = parseInt(m[1], 16);
  const lo = parseInt(m[2], 16);
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/**
 * True when `address` (an IP literal, v4 or v6) may not be fetched: private, loopback,
 * link-local, CGNAT, multicast, documentation or otherwise reserved, or an IPv6 form
 * embedding such an IPv4 address. Anything that is not an IP literal is blocked too.
 */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (!family) return true;
  if (family === 'ipv6') {
    const v4 = embeddedIpv4(address);
    if (v4 && blocked.check(v4, 'ipv4')) return true;
  }
  return blocked.check(address, family);
}

export interface GuardedFetchOptions {
  /** Largest body accepted, bytes: a larger Content-Length is refused before reading, a longer body is cut off. */
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
}

/** What a guarded fetch returns: the whole body (at most `maxBytes`) and the media type without parameters. */
export interface GuardedFetchResult {
  bytes: Buffer;
  contentType: string;
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

function isRefused(address: string, opts: GuardedFetchOptions): boolean {
  return !opts.allowPrivate && !opts.allowAddresses?.includes(address) && isBlockedAddress(address);
}

function fetchOnce(url: string, opts: GuardedFetchOptions, timeLeftMs: number, original: string, timeoutMs: number): Promise<GuardedFetchResult | { redirect: string }> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return Promise.reject(new FetchBlockedError(`not a valid URL: ${url}`));
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return Promise.reject(new FetchBlockedError(`only http and https URLs can be fetched (got ${u.protocol})`));
  const lookup: net.LookupFunction = (hostname, options, cb) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isRefused(a.address, opts));
      if (bad) return cb(new FetchBlockedError(`refusing to fetch ${hostname}: it resolves to a private or reserved address (${bad.address})`), '', 4);
      if ((options as { all?: boolean }).all) return (cb as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      cb(null, list[0].address, list[0].family);
    });
  };
  const literal = u.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(literal) && isRefused(literal, opts)) {
    return Promise.reject(new FetchBlockedError(`refusing to fetch ${u.hostname}: private or reserved address`));
  }
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => { if (!settled) { settled = true; clearTimeout(timer); fn(); } };
    const req = mod.get(u, { lookup, headers: { 'user-agent': 'Herald/1.0 (+media fetch)' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        settle(() => resolve({ redirect: res.headers.location! }));
        return;
      }
      if (status !== 200) {
        res.resume();
        settle(() => reject(new Error(`fetching ${url} answered HTTP ${status}`)));
        return;
      }
      const declared = Number(res.headers['content-length'] ?? -1);
      if (declared > opts.maxBytes) {
        res.destroy();
        settle(() => reject(new FetchBlockedError(`${url} is ${declared} bytes; the limit is ${opts.maxBytes}`)));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > opts.maxBytes) {
          res.destroy();
          settle(() => reject(new FetchBlockedError(`${url} is larger than the limit of ${opts.maxBytes} bytes`)));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => settle(() => resolve({ bytes: Buffer.concat(chunks), contentType: String(res.headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim() })));
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
