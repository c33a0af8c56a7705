/**
 * The SSRF guard for every URL Herald fetches on a user's behalf (mediaItems urls,
 * later CSV media_urls and video_url): http/https only; the resolved address must not
 * be loopback, private, link-local, CGNAT, multicast or otherwise reserved (unless
 * `allowPrivate`, for tests and local simulators); the check happens inside the socket's
 * DNS lookup, so a name cannot resolve to a public address for the check and a
 * private one for the connection. Size and time are capped.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export class FetchBlockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchBlockedError';
  }
}

const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  blocked.addSubnet(addr, prefix, 'ipv6');
}

/** True when the address may not be fetched (private, loopback, link-local, reserved). */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (!family) return true;
  if (family === 'ipv6') {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
  }
  return blocked.check(address, family);
}

export interface GuardedFetchOptions {
  maxBytes: number;
  timeoutMs?: number;
  allowPrivate?: boolean;
  maxRedirects?: number;
}

/** Fetches a URL through the guard. @throws FetchBlockedError (refused URL/address, too large), Error (HTTP/network). */
export async function guardedFetch(url: string, opts: GuardedFetchOptions): Promise<{ bytes: Buffer; contentType: string }> {
  let current = url;
  for (let hop = 0; hop <= (opts.maxRedirects ?? 3); hop++) {
    const r = await fetchOnce(current, opts);
    if ('redirect' in r) {
      current = new URL(r.redirect, current).toString();
      continue;
    }
    return r;
  }
  throw new FetchBlockedError(`too many redirects fetching ${url}`);
}

function fetchOnce(url: string, opts: GuardedFetchOptions): Promise<{ bytes: Buffer; contentType: string } | { redirect: string }> {
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
      const bad = list.find((a) => !opts.allowPrivate && isBlockedAddress(a.address));
      if (bad) return cb(new FetchBlockedError(`refusing to fetch ${hostname}: it resolves to a private or reserved address (${bad.address})`), '', 4);
      if ((options as { all?: boolean }).all) return (cb as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      cb(null, list[0].address, list[0].family);
    });
  };
  const literal = u.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(literal) && !opts.allowPrivate && isBlockedAddress(literal)) {
    return Promise.reject(new FetchBlockedError(`refusing to fetch ${u.hostname}: private or reserved address`));
  }
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.get(u, { lookup, timeout: opts.timeoutMs ?? 30_000, headers: { 'user-agent': 'Herald/1.0 (+media fetch)' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        resolve({ redirect: res.headers.location });
        return;
      }
      if (status !== 200) {
        res.resume();
        reject(new Error(`fetching ${url} answered HTTP ${status}`));
        return;
      }
      const declared = Number(res.headers['content-length'] ?? -1);
      if (declared > opts.maxBytes) {
        res.destroy();
        reject(new FetchBlockedError(`${url} is ${declared} bytes; the limit is ${opts.maxBytes}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > opts.maxBytes) {
          res.destroy();
          reject(new FetchBlockedError(`${url} is larger than the limit of ${opts.maxBytes} bytes`));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => resolve({ bytes: Buffer.concat(chunks), contentType: String(res.headers['content-type'] ?? 'application/octet-stream').split(';')[0] }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`fetching ${url} timed out`)));
    req.on('error', reject);
  });
}
