/**
 * A JWT with the given claims and a bogus signature, for code that reads only the claims (a
 * session's `exp`, as the Bluesky adapter does); a server that checks signatures refuses it.
 */
export function fakeJwt(claims: Record<string, unknown>): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ typ: 'at+jwt', alg: 'HS256' })}.${enc(claims)}.${Buffer.from('not-a-signature').toString('base64url')}`;
}
