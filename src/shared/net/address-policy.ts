/**
 * Which URLs and addresses may be fetched on a user's behalf: the pure rules of the SSRF
 * guard, shared by Herald's fetches (src/infra/ssrf.ts) and the simulators' media downloads
 * (sim/common/fetch-media.ts). http/https only; an address must not be loopback, private,
 * link-local, CGNAT, multicast, documentation or otherwise reserved, including the IPv6
 * forms that embed such an IPv4 address. Pure (no I/O, no Node built-ins): the callers resolve
 * names and connect to the address they checked.
 * The refusal messages live here so that both callers word them the same.
 */
const V4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;

/** An IPv4 literal (dotted decimal, no leading zeros) as a 32-bit number, or null. */
function parseV4(s: string): number | null {
  if (!V4.test(s)) return null;
  return s.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** An IPv6 literal (with `::`, a trailing dotted IPv4 part and a `%zone` allowed) as a 128-bit number, or null. */
function parseV6(s: string): bigint | null {
  const addr = s.replace(/%[^%]+$/, '');
  let head = addr;
  let tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  if (dotted) {
    const v4 = parseV4(dotted[2]);
    if (v4 === null) return null;
    head = `${dotted[1]}0:0`;
    tail = [v4 >>> 16, v4 & 0xffff];
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  if (![...left, ...right].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...left, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => '0'), ...right].map((g) => parseInt(g, 16));
  if (tail.length) all.splice(6, 2, ...tail);
  return all.reduce((n, g) => (n << 16n) | BigInt(g), 0n);
}

/** 4 or 6 for an IP literal, 0 otherwise. */
export function ipFamily(s: string): 0 | 4 | 6 {
  return parseV4(s) !== null ? 4 : parseV6(s) !== null ? 6 : 0;
}

type Subnet4 = [number, number];
type Subnet6 = [bigint, number];
const V4_BLOCKED: Subnet4[] = ([
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const).map(([a, p]) => [parseV4(a)!, p]);
const V6_BLOCKED: Subnet6[] = ([
  // ::/96 holds the unspecified address, ::1 and the deprecated IPv4-compatible form (::a.b.c.d);
  // ::ffff:0:0/96 (IPv4-mapped) is checked as IPv4 below; ::ffff:0:a.b.c.d is SIIT's translated form.
  ['::', 96], ['::ffff:0:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const).map(([a, p]) => [parseV6(a)!, p]);

const inV4 = (n: number) => V4_BLOCKED.some(([base, p]) => p === 0 || (n >>> (32 - p)) === (base >>> (32 - p)));
const inV6 = (n: bigint) => V6_BLOCKED.some(([base, p]) => (n >> BigInt(128 - p)) === (base >> BigInt(128 - p)));

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
  const v4 = parseV4(address);
  if (v4 !== null) return inV4(v4);
  const v6 = parseV6(address);
  if (v6 === null) return true;
  const embedded = embeddedIpv4(address);
  if (embedded && inV4(parseV4(embedded) ?? 0)) return true;
  // An IPv4-mapped address (::ffff:0:0/96) in any spelling is checked as the IPv4 address it maps.
  if (v6 >> 32n === 0xffffn && inV4(Number(v6 & 0xffffffffn))) return true;
  return inV6(v6);
}

/** The exemptions a caller may grant. */
export interface AddressPolicy {
  /** Lets loopback/private/reserved addresses through (tests and local simulators only). */
  allowPrivate?: boolean;
  /** Exact IP addresses exempt from the private-address rule while `allowPrivate` is off. */
  allowAddresses?: readonly string[];
}

/** True when `address` is refused under `policy`. */
export function isRefusedAddress(address: string, policy: AddressPolicy): boolean {
  return !policy.allowPrivate && !policy.allowAddresses?.includes(address) && isBlockedAddress(address);
}

/**
 * Checks a URL before any connection: it must parse, be http or https, and its host, when an
 * IP literal, must not be refused. Returns the parsed URL, or the refusal message.
 */
export function checkFetchUrl(url: string, policy: AddressPolicy): { ok: true; url: URL } | { ok: false; message: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, message: `not a valid URL: ${url}` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, message: `only http and https URLs can be fetched (got ${u.protocol})` };
  const literal = u.hostname.replace(/^\[|\]$/g, '');
  if (ipFamily(literal) && isRefusedAddress(literal, policy)) return { ok: false, message: `refusing to fetch ${u.hostname}: private or reserved address` };
  return { ok: true, url: u };
}

/** The refusal for a host name that resolves to a refused address. */
export const resolvesToRefusedMessage = (hostname: string, address: string) =>
  `refusing to fetch ${hostname}: it resolves to a private or reserved address (${address})`;
