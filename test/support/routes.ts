/**
 * Every route of a built app, read from Fastify itself (`printRoutes`), so that the suites that
 * cover every route (tenancy, bad input, the security passes) also cover a route added later.
 */
import type { FastifyInstance } from 'fastify';

/** A route: its method, its path as registered (`/v1/posts/:postId`) and its path parameters. */
export interface AppRoute { method: string; path: string; params: string[] }

/** Parses `printRoutes({ commonPrefix: false })`: one line per tree node, 4 characters per depth. */
export function listAppRoutes(app: Pick<FastifyInstance, 'printRoutes'>): AppRoute[] {
  const out: AppRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    stack.length = m[1].length / 4;
    stack.push(m[2]);
    if (!m[3]) continue;
    const path = stack.join('');
    for (const method of m[3].split(',').map((s) => s.trim())) {
      out.push({ method, path, params: [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((x) => x[1]) });
    }
  }
  return out;
}
