/**
 * The instance of an `instance-oauth` platform (connect shape, decision 0055; Mastodon): the
 * instance the user names checked and made a base URL, and Herald's app on each instance
 * (table `instance_apps`, this module's; the client secret sealed with the SecretBox).
 */
import dns from 'node:dns/promises';
import type { SecretBox } from '../../core/crypto.ts';
import { fieldError } from '../../core/errors.ts';
import { ipFamily, isRefusedAddress, type AddressPolicy } from '../../shared/net/address-policy.ts';
import type { Db } from '../../storage/db.ts';
import type { InstanceApp } from '../../platforms/types.ts';

/** A DNS label (LDH, 1 to 63 characters, no leading or trailing hyphen), in its ASCII (punycode) form. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The base URL of the instance the user named: `mastodon.social`, `https://mastodon.social/`,
 * `social.example.org:8443`. A host name with at least two labels (or an IP address), an
 * optional port, nothing else (no path, query, user or password). `https://` unless `http://`
 * is written and `allowHttp` (development and tests: HERALD_ALLOW_PRIVATE_URLS). Lower case,
 * no trailing slash.
 * @throws AppError 400 naming `instance` and what is wrong.
 */
export function instanceBaseUrl(input: string, opts: { allowHttp: boolean }): string {
  const raw = input.trim();
  if (!raw) throw fieldError('instance', 'is required: the server\'s domain, e.g. mastodon.social');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw fieldError('instance', 'is not a host name (e.g. mastodon.social)');
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && opts.allowHttp)) throw fieldError('instance', 'must be reached over https');
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) {
    throw fieldError('instance', 'is a host name only (e.g. mastodon.social), without a path, query or credentials');
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!ipFamily(host)) {
    const labels = host.replace(/\.$/, '').split('.');
    if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels[labels.length - 1])) {
      throw fieldError('instance', 'is not a valid host name (e.g. mastodon.social)');
    }
  }
  return `${u.protocol}//${u.host}`;
}

/**
 * Refuses an instance whose host is, or resolves to, an address the SSRF guard refuses
 * (loopback, private, link-local, reserved; src/shared/net/address-policy.ts) under `policy`.
 * @throws AppError 400 naming `instance`; for a name that does not resolve too.
 */
export async function checkInstanceAddress(baseUrl: string, policy: AddressPolicy): Promise<void> {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipFamily(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw fieldError('instance', `${host} does not resolve: check the server's domain`);
    }
  }
  const bad = addresses.find((a) => isRefusedAddress(a, policy));
  if (bad) throw fieldError('instance', `${host} is a private or reserved address (${bad}); Herald connects only to public servers`);
}

/** Herald's apps on the instances (table instance_apps). */
export function createInstanceApps(db: Db, secrets: SecretBox) {
  return {
    /** The app registered on the instance for this redirect URI, or null. */
    async get(platform: string, instanceUrl: string, redirectUri: string): Promise<InstanceApp | null> {
      const { rows } = await db.query<{ client_id: string; client_secret: string }>(
        'SELECT client_id, client_secret FROM instance_apps WHERE platform = $1 AND instance_url = $2 AND redirect_uri = $3', [platform, instanceUrl, redirectUri]);
      return rows[0] ? { clientId: rows[0].client_id, clientSecret: secrets.open(rows[0].client_secret) } : null;
    },
    /** Keeps a registered app (replacing an earlier one). */
    async save(platform: string, instanceUrl: string, redirectUri: string, app: InstanceApp): Promise<void> {
      await db.query(
        `INSERT INTO instance_apps (platform, instance_url, redirect_uri, client_id, client_secret) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (platform, instance_url, redirect_uri) DO UPDATE SET client_id = EXCLUDED.client_id, client_secret = EXCLUDED.client_secret, created_at = now()`,
        [platform, instanceUrl, redirectUri, app.clientId, secrets.seal(app.clientSecret)]);
    },
    /** Forgets the app (the instance answered invalid_client): the next connect registers again. */
    async drop(platform: string, instanceUrl: string, clientId: string): Promise<void> {
      await db.query('DELETE FROM instance_apps WHERE platform = $1 AND instance_url = $2 AND client_id = $3', [platform, instanceUrl, clientId]);
    },
  };
}

export type InstanceApps = ReturnType<typeof createInstanceApps>;
