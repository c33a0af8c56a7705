/**
 * Media downloads of the simulators whose platform pulls media by URL (Instagram, Threads,
 * Facebook, TikTok PULL_FROM_URL). The URL comes from the API caller, so a simulator must
 * not be a way into the host's network: every download goes through Herald's SSRF guard
 * (http/https only, no loopback/private/reserved addresses, each redirect re-checked, size
 * and time capped), exactly like Herald's own media fetches.
 *
 * Two exemptions, both explicit:
 * - `allowPrefixes`: URLs under these prefixes (compared on the normalised origin + path)
 *   are fetched even from a private address, with no redirect followed. Sandbox mode
 *   passes Herald's own media base URL here (Herald serves media from its loopback origin,
 *   src/sandbox/index.ts), and nothing else on that origin or host is reachable.
 * - `allowPrivate`: lets every private address through (contract tests with a loopback
 *   media server; the sandbox sets it only when Herald itself runs with
 *   HERALD_ALLOW_PRIVATE_URLS=true).
 *
 * The one place simulators import server code for this (src/net/ssrf.ts is pure: node
 * built-ins only).
 */
import { FetchBlockedError, guardedFetch } from '../../src/net/ssrf.ts';

/** What a simulator may download. Read at every download, so it can be changed while the simulator runs. */
export interface SimMediaFetchPolicy {
  /** Let loopback, private and reserved addresses through (tests with a loopback media server). Default false. */
  allowPrivate?: boolean;
  /** URL prefixes (e.g. `http://127.0.0.1:3000/media/`) fetched even from a private address, redirects not followed. */
  allowPrefixes?: Iterable<string>;
}

export type SimMediaFetchResult =
  | { ok: true; bytes: Buffer; contentType: string }
  /** `refused`: the guard refused it (scheme, address, redirect or size); else the download failed. */
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

/** Downloads `url` through the SSRF guard under `policy`. Never throws. */
export async function fetchMedia(url: string, policy: SimMediaFetchPolicy = {}, limits: { maxBytes?: number; timeoutMs?: number } = {}): Promise<SimMediaFetchResult> {
  const trusted = underAllowedPrefix(url, policy.allowPrefixes);
  try {
    const r = await guardedFetch(url, {
      maxBytes: limits.maxBytes ?? SIM_MEDIA_MAX_BYTES,
      timeoutMs: limits.timeoutMs ?? 5000,
      allowPrivate: policy.allowPrivate === true || trusted,
      // From an allowed prefix, a redirect could lead anywhere on the private network: none is followed.
      ...(trusted && !policy.allowPrivate ? { maxRedirects: 0 } : {}),
    });
    return { ok: true, bytes: r.bytes, contentType: r.contentType };
  } catch (err) {
    return { ok: false, refused: err instanceof FetchBlockedError, error: (err as Error).message };
  }
}

/**
 * Whether `url` gives a non-empty file, and the guard's reason when it refused the URL
 * (simulators add it to the platform's "could not be fetched" message).
 */
export async function mediaFetchable(url: string, policy: SimMediaFetchPolicy = {}): Promise<{ ok: boolean; refused?: string }> {
  const r = await fetchMedia(url, policy);
  if (r.ok) return { ok: r.bytes.length > 0 };
  return r.refused ? { ok: false, refused: r.error } : { ok: false };
}
