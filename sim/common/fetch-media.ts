/**
 * Media downloads of the simulators whose platform pulls media by URL (Instagram, Threads,
 * Facebook, TikTok PULL_FROM_URL). The URL comes from the API caller, so a simulator must
 * not be a way into the host's network: every download follows the same rules as Herald's
 * own media fetches (the shared address policy, src/shared/net/address-policy.ts): http/https
 * only, no loopback/private/reserved addresses, each redirect re-checked, size and time
 * capped. The name is resolved here and the connection goes to the address that was checked,
 * so a name cannot resolve to a public address for the check and a private one for the
 * connection.
 *
 * Two exemptions, both explicit:
 * - `allowPrefixes`: URLs under these prefixes (compared on the normalised origin + path)
 *   are fetched even from a private address, with no redirect followed. Sandbox mode
 *   passes Herald's own media base URL here (Herald serves media from its loopback origin,
 *   src/sandbox/index.ts), and nothing else on that origin or host is reachable.
 * - `allowPrivate`: lets every private address through (contract tests with a loopback
 *   media server; the sandbox sets it only when Herald itself runs with
 *   HERALD_ALLOW_PRIVATE_URLS=true).
 */
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { checkFetchUrl, isRefusedAddress, resolvesToRefusedMessage } from '../../src/shared/net/address-policy.ts';

/** What a simulator may download. Read at every download, so it can be changed while the simulator runs. */
export interface SimMediaFetchPolicy {
  /** Let loopback, private and reserved addresses through (tests with a loopback media server). Default false. */
  allowPrivate?: boolean;
  /** URL prefixes (e.g. `http://127.0.0.1:3000/media/`) fetched even from a private address, redirects not followed. */
  allowPrefixes?: Iterable<string>;
}

export type SimMediaFetchResult =
  | { ok: true; bytes: Buffer; contentType: string }
  /** `refused`: the rules refused it (scheme, address, redirect or size); else the download failed. */
  | { ok: false; refused: boolean; error: string };

/** Largest download, bytes (the TikTok simulator's own body limit). */
export const SIM_MEDIA_MAX_BYTES = 256 * 1024 * 1024;

function underAllowedPrefix(url: string, prefixes: Iterable<string> | undefined): boolean {
  if (!prefixes) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  // The parsed form is what is requested: `..` segments and their %2e spellings are already resolved.
  const normalised = `${u.origin}${u.pathname}`;
  for (const p of prefixes) if (normalised.startsWith(p)) return true;
  return false;
}

/** A refusal by the address policy, a redirect rule or the size cap (permanent, unlike network errors). */
class Refused extends Error {}

type Hop = { redirect: string } | { bytes: Buffer; contentType: string };

/** Resolves the URL's host and checks every address; the connection then goes to the first one. */
async function checkedAddress(u: URL, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const literal = u.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(literal)) return { address: literal, family: net.isIP(literal) }; // checked with the URL
  const all = await dns.lookup(literal, { all: true });
  const bad = all.find((a) => isRefusedAddress(a.address, { allowPrivate }));
  if (bad) throw new Refused(resolvesToRefusedMessage(u.hostname, bad.address));
  return all[0];
}

/** One GET to the checked address (Host and TLS name stay the URL's), the body capped at `maxBytes`. */
function getOnce(href: string, u: URL, to: { address: string; family: number }, maxBytes: number, signal: AbortSignal): Promise<Hop> {
  const lookup = ((_host: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) => (o.all ? cb(null, [to]) : cb(null, to.address, to.family))) as unknown as net.LookupFunction;
  return new Promise((resolve, reject) => {
    const req = (u.protocol === 'https:' ? https : http).get(u, { lookup, signal, headers: { 'user-agent': 'Herald/1.0 (+media fetch)' } }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      const declared = Number(res.headers['content-length'] ?? -1);
      const refuse = (e: Error) => { res.destroy(); reject(e); };
      if (status >= 300 && status < 400 && location) { res.resume(); resolve({ redirect: location }); return; }
      if (status !== 200) { res.resume(); reject(new Error(`fetching ${href} answered HTTP ${status}`)); return; }
      if (declared > maxBytes) { refuse(new Refused(`${href} is ${declared} bytes; the limit is ${maxBytes}`)); return; }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => { size += c.length; if (size > maxBytes) refuse(new Refused(`${href} is larger than the limit of ${maxBytes} bytes`)); else chunks.push(c); });
      res.on('error', reject);
      res.on('close', () => (res.complete
        ? resolve({ bytes: Buffer.concat(chunks), contentType: String(res.headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim() })
        : reject(new Error(`fetching ${href}: the connection closed before the body was complete`))));
    });
    req.on('error', reject);
  });
}

/** Downloads `url` under `policy` (address rules, redirects re-checked, size and time capped). Never throws. */
export async function fetchMedia(url: string, policy: SimMediaFetchPolicy = {}, limits: { maxBytes?: number; timeoutMs?: number } = {}): Promise<SimMediaFetchResult> {
  const trusted = underAllowedPrefix(url, policy.allowPrefixes);
  const allowPrivate = policy.allowPrivate === true || trusted;
  // From an allowed prefix, a redirect could lead anywhere on the private network: none is followed.
  const maxRedirects = trusted && !policy.allowPrivate ? 0 : 3;
  const timeoutMs = limits.timeoutMs ?? 5000;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  try {
    for (let hop = 0; hop <= maxRedirects; hop++) {
      const checked = checkFetchUrl(current, { allowPrivate });
      if (!checked.ok) throw new Refused(checked.message);
      const r = await getOnce(current, checked.url, await checkedAddress(checked.url, allowPrivate), limits.maxBytes ?? SIM_MEDIA_MAX_BYTES, signal);
      if ('bytes' in r) return { ok: true, bytes: r.bytes, contentType: r.contentType };
      try {
        current = new URL(r.redirect, current).toString();
      } catch {
        throw new Refused(`fetching ${url}: invalid redirect location ${JSON.stringify(r.redirect)}`);
      }
    }
    throw new Refused(`too many redirects fetching ${url}`);
  } catch (err) {
    const error = signal.aborted ? `fetching ${url} timed out after ${timeoutMs} ms` : (err as Error).message;
    return { ok: false, refused: err instanceof Refused, error };
  }
}

/**
 * Whether `url` gives a non-empty file, and the reason when the URL was refused
 * (simulators add it to the platform's "could not be fetched" message).
 */
export async function mediaFetchable(url: string, policy: SimMediaFetchPolicy = {}): Promise<{ ok: boolean; refused?: string }> {
  const r = await fetchMedia(url, policy);
  if (r.ok) return { ok: r.bytes.length > 0 };
  return r.refused ? { ok: false, refused: r.error } : { ok: false };
}
