/**
 * An independent AWS Signature Version 4 implementation (node:crypto only, written from
 * the AWS documentation), to check the signatures the AWS SDK produces for Herald:
 * s3rver does not verify signatures, so the tests verify them here.
 */
import { createHash, createHmac } from 'node:crypto';

const sha256Hex = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s, 'utf8').digest();

/** RFC 3986 percent-encoding as SigV4 wants it (unreserved: A-Z a-z 0-9 - _ . ~). */
export function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface CanonicalInput {
  method: string;
  /** The request path exactly as sent (already percent-encoded once; S3 does not encode it twice). */
  path: string;
  /** Decoded query parameters (X-Amz-Signature excluded). */
  query: Array<[string, string]>;
  /** Lower-case header names to values. */
  headers: Record<string, string>;
  signedHeaders: string[];
  /** Hex SHA-256 of the payload, or UNSIGNED-PAYLOAD. */
  payloadHash: string;
  /** YYYYMMDDTHHMMSSZ */
  amzDate: string;
  region: string;
  service: string;
  secretAccessKey: string;
}

/** The hex signature for a request, following the SigV4 steps (canonical request, string to sign, derived key). */
export function sigv4Signature(r: CanonicalInput): string {
  const canonicalQuery = r.query
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`).join('&');
  const canonicalHeaders = r.signedHeaders.map((h) => `${h}:${(r.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [r.method, r.path, canonicalQuery, canonicalHeaders, r.signedHeaders.join(';'), r.payloadHash].join('\n');
  const date = r.amzDate.slice(0, 8);
  const scope = `${date}/${r.region}/${r.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', r.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const kSigning = hmac(hmac(hmac(hmac(`AWS4${r.secretAccessKey}`, date), r.region), r.service), 'aws4_request');
  return createHmac('sha256', kSigning).update(stringToSign, 'utf8').digest('hex');
}

/**
 * The parts of a presigned (query-string) SigV4 URL, and whether its signature holds for `secretAccessKey`
 * for a request with `method` (default GET) and `headers` (lower-case names; `host` from the URL).
 */
export function verifyPresignedUrl(url: string, secretAccessKey: string, req: { method?: string; headers?: Record<string, string> } = {}): { valid: boolean; accessKeyId: string; date: string; region: string; service: string; expires: number; signedHeaders: string[] } {
  const u = new URL(url);
  const q = u.searchParams;
  const [accessKeyId, date, region, service] = (q.get('X-Amz-Credential') ?? '').split('/');
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const query: Array<[string, string]> = [...q.entries()].filter(([k]) => k !== 'X-Amz-Signature');
  const expected = sigv4Signature({
    method: req.method ?? 'GET', path: u.pathname, query, headers: { host: u.host, ...req.headers }, signedHeaders,
    payloadHash: 'UNSIGNED-PAYLOAD', amzDate: q.get('X-Amz-Date') ?? '', region, service, secretAccessKey,
  });
  return { valid: expected === q.get('X-Amz-Signature'), accessKeyId, date, region, service, expires: Number(q.get('X-Amz-Expires')), signedHeaders };
}

/** Checks the `Authorization: AWS4-HMAC-SHA256 ...` header of a received request. */
export function verifyAuthorizationHeader(req: { method: string; url: string; headers: Record<string, string | string[] | undefined> }, secretAccessKey: string): { valid: boolean; accessKeyId: string; region: string; service: string; signedHeaders: string[] } {
  const auth = String(req.headers.authorization ?? '');
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return { valid: false, accessKeyId: '', region: '', service: '', signedHeaders: [] };
  const [, accessKeyId, , region, service, signed, signature] = m;
  const u = new URL(req.url, 'http://placeholder');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(',') : v;
  const expected = sigv4Signature({
    method: req.method, path: u.pathname, query: [...u.searchParams.entries()], headers, signedHeaders: signed.split(';'),
    payloadHash: headers['x-amz-content-sha256'] ?? sha256Hex(''), amzDate: headers['x-amz-date'] ?? '', region, service, secretAccessKey,
  });
  return { valid: expected === signature, accessKeyId, region, service, signedHeaders: signed.split(';') };
}
