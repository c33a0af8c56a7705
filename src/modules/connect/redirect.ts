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

/**
 * Where a connect flow may send the browser back to (docs/decisions/0046-connect-redirect-origins.md):
 * an http(s) URL on Herald's own origin (`publicUrl`: the dashboard, the platform invite pages)
 * or on one of the registered origins (HERALD_CONNECT_REDIRECT_ORIGINS).
 */
export function createRedirectPolicy(publicUrl: string, registeredOrigins: readonly string[]) {
  const own = new URL(publicUrl).origin;
  const allowed = new Set([own, ...registeredOrigins]);
  return {
    /** True when `url` is an http(s) URL whose origin is allowed. */
    allows(url: string): boolean {
      try {
        const u = new URL(url);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password && allowed.has(u.origin);
      } catch {
        return false;
      }
    },
    /** What the 400 for another URL says is allowed. */
    describe(): string {
      const others = registeredOrigins.length ? `, ${registeredOrigins.join(', ')}` : '';
      return `must be an http(s) URL on ${own}${others} (register your app's origin in the server's HERALD_CONNECT_REDIRECT_ORIGINS)`;
    },
  };
}

export type RedirectPolicy = ReturnType<typeof createRedirectPolicy>;
