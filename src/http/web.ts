/**
 * Serves the built web app (web/dist, built by `npm run build:web`) at the same origin as
 * the API: `/` (landing), `/docs`, `/pricing`, and `/dashboard` with every path under it
 * (the dashboard is a single-page app; its router handles the rest). Hashed assets under
 * `/assets/` are cached for a year.
 *
 * Each page carries the runtime configuration in `<meta name="herald-config">` (support
 * mailbox, whether Docs AI answers are configured), filled in here so that one build serves
 * any configuration and no inline script is needed (strict CSP).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../services.ts';

export const WEB_DIST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Routes and the built HTML file each serves. */
export const WEB_PAGES: ReadonlyArray<[route: string, file: string]> = [
  ['/', 'index.html'],
  ['/docs', 'docs.html'],
  ['/pricing', 'pricing.html'],
  ['/dashboard', 'dashboard.html'],
  ['/dashboard/*', 'dashboard.html'],
  // Sign-up (open sign-up and team invites: /signup?inviteToken=...) is a screen of the dashboard app.
  ['/signup', 'dashboard.html'],
  // A client review link's page (no login; decision 0059) is a screen of the dashboard app.
  ['/review/*', 'dashboard.html'],
];

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' blob: https: http:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Escapes text for an HTML attribute value. */
function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The configuration the pages read from `<meta name="herald-config">`. Nothing secret goes here. */
export function webConfig(services: Services) {
  return {
    supportEmail: services.config.supportEmail,
    docsAi: services.config.docsAi !== null,
    /** HERALD_SIGNUP=open: "Get started" leads to /signup. */
    signup: services.config.signupOpen,
    /** Stripe is configured: the pricing and billing pages show checkout buttons. */
    billing: services.config.stripe !== null,
    /** SMTP is configured: the sign-in page offers "Forgot your password?" (a reset link by email). */
    passwordReset: services.passwordReset.enabled,
  };
}

function securityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  reply.header('x-frame-options', 'DENY');
}

export async function webRoutes(app: FastifyInstance, opts: { services: Services; distDir?: string }): Promise<void> {
  const distDir = opts.distDir ?? WEB_DIST_DIR;
  const configAttr = escapeAttr(JSON.stringify(webConfig(opts.services)));
  // Pages are read on demand and cached by modification time, so a rebuild is picked up without a restart.
  const cache = new Map<string, { mtimeMs: number; html: string }>();

  async function page(file: string): Promise<string | null> {
    const full = path.join(distDir, file);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(full);
    } catch {
      return null;
    }
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs) return hit.html;
    const html = (await fs.promises.readFile(full, 'utf8')).replaceAll('__HERALD_CONFIG__', configAttr);
    cache.set(file, { mtimeMs: stat.mtimeMs, html });
    return html;
  }

  for (const [route, file] of WEB_PAGES) {
    const handler = async (_request: unknown, reply: FastifyReply) => {
      securityHeaders(reply);
      const html = await page(file);
      if (html === null) {
        return reply.status(503).type('text/html; charset=utf-8').header('cache-control', 'no-store')
          .send('<!doctype html><meta charset="utf-8"><title>Herald</title><h1>The web app is not built</h1><p>Run <code>npm run build:web</code> (or <code>npm start</code>, which builds it) and reload.</p>');
      }
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    };
    app.get(route, { schema: { hide: true } }, handler);
    if (route !== '/' && !route.endsWith('*')) app.get(`${route}/`, { schema: { hide: true } }, handler);
  }

  await app.register(fastifyStatic, {
    root: path.join(distDir, 'assets'), prefix: '/assets/', decorateReply: false, index: false, list: false, dotfiles: 'deny',
    // Missing asset directory (not built yet) must not stop the server.
    allowedPath: () => fs.existsSync(path.join(distDir, 'assets')),
    setHeaders: (reply) => {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
    },
  });

  app.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) => {
    try {
      const svg = await fs.promises.readFile(path.join(distDir, 'favicon.svg'));
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    } catch {
      return reply.status(404).send();
    }
  });
}
