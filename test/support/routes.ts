/**
 * Every route of a built app, read from Fastify itself (`printRoutes`), so that the suites that
 * cover every route (tenancy, bad input, the security passes, route permissions) also cover a
 * route added later; and, for apps built while recording, the `config` each route was
 * registered with (`permission`, `public`: src/http/app.ts).
 */
import diagnostics from 'node:diagnostics_channel';
import type { FastifyContextConfig, FastifyInstance, RouteOptions } from 'fastify';

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

/** The route configs recorded by {@link recordRouteConfigs}. */
export interface RouteConfigs {
  /** The config `route` was registered with on `app` (`{}` if none), or undefined if no route was recorded under that method and path. */
  configOf(app: object, route: Pick<AppRoute, 'method' | 'path'>): FastifyContextConfig | undefined;
  /** Stops recording (apps already recorded keep their configs). */
  stop(): void;
}

/**
 * Records the `config` of every route of every Fastify app created from now until `stop()`.
 * Fastify does not show a registered route's config (neither `printRoutes` nor `findRoute`), so
 * each new instance gets an `onRoute` hook before any route is added, through Fastify's
 * `fastify.initialization` diagnostics channel (https://fastify.dev/docs/latest/Reference/Hooks/#diagnostics-channel-hooks).
 */
export function recordRouteConfigs(): RouteConfigs {
  const byApp = new WeakMap<object, Map<string, FastifyContextConfig>>();
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    const routes = new Map<string, FastifyContextConfig>();
    byApp.set(fastify, routes);
    fastify.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) routes.set(`${method.toUpperCase()} ${route.url}`, (route.config ?? {}) as FastifyContextConfig);
    });
  };
  diagnostics.subscribe('fastify.initialization', onInit);
  return {
    configOf: (app, route) => byApp.get(app)?.get(`${route.method} ${route.path}`),
    stop: () => { diagnostics.unsubscribe('fastify.initialization', onInit); },
  };
}
