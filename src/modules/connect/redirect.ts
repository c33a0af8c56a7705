/** Client redirect URLs of the connect flows. */

/** Appends query parameters to a client's redirect URL (http/https only). */
export function redirectWith(url: string, params: Record<string, string>): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.toString();
  } catch {
    return null;
  }
}
