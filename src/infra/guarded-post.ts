/**
 * An HTTP POST through the SSRF guard's rules (src/shared/net/address-policy.ts), for webhook
 * deliveries: http/https only, and the address the socket connects to (checked inside its DNS
 * lookup) must not be loopback, private, link-local or reserved unless the policy allows it.
 * Redirects are not followed (a receiver answers; a 3xx counts as a failed delivery).
 */
import http from 'node:http';
import https from 'node:https';
import { checkFetchUrl, type AddressPolicy } from '../shared/net/address-policy.ts';
import { FetchBlockedError, guardedLookup } from './ssrf.ts';

/** What the receiver answered: status, the first `maxBodyBytes` of its body (UTF-8) and the time to the end of the body. */
export interface GuardedPostResult {
  status: number;
  body: string;
  durationMs: number;
}

export interface GuardedPostOptions extends AddressPolicy {
  headers: Record<string, string>;
  /** Whole request, connection to end of body, ms. */
  timeoutMs: number;
  /** Bytes of the answer kept (the rest is read and dropped). */
  maxBodyBytes: number;
}

/**
 * POSTs `body` to `url`.
 * @throws FetchBlockedError when the URL or its resolved address is refused (permanent);
 *   Error for network errors and the time cap.
 */
export function guardedPost(url: string, body: string, opts: GuardedPostOptions): Promise<GuardedPostResult> {
  const checked = checkFetchUrl(url, opts);
  if (!checked.ok) return Promise.reject(new FetchBlockedError(checked.message));
  const u = checked.url;
  const lookup = guardedLookup(opts);
  const mod = u.protocol === 'https:' ? https : http;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => { if (!settled) { settled = true; clearTimeout(timer); fn(); } };
    const req = mod.request(u, {
      method: 'POST', lookup, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Herald-Webhooks/1.0', ...opts.headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (c: Buffer) => {
        if (kept < opts.maxBodyBytes) { chunks.push(c.subarray(0, opts.maxBodyBytes - kept)); kept += Math.min(c.length, opts.maxBodyBytes - kept); }
      });
      res.on('end', () => settle(() => resolve({
        status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), durationMs: Math.round(performance.now() - started),
      })));
      res.on('error', (err) => settle(() => reject(err)));
    });
    const timer = setTimeout(() => {
      const err = new Error(`POST ${url} timed out after ${opts.timeoutMs} ms`);
      settle(() => reject(err));
      req.destroy(err);
    }, opts.timeoutMs);
    req.on('error', (err) => settle(() => reject(err)));
    req.end(body);
  });
}
