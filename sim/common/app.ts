/**
 * The simulators' HTTP server: a Fastify app on loopback with the body parsers the platforms
 * need (urlencoded forms as a flat object, multipart for S3-style uploads, raw bodies for
 * byte uploads), a count of the calls seen by route, and the start-up line a simulator run
 * on its own prints.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { FaultQueue, SimFault } from './faults.ts';
import { expireAll } from './oauth.ts';

export interface SimAppOptions {
  /** Calls seen, by route key (`POST /2/tweets`); counted on every request. */
  calls: Map<string, number>;
  /** Largest body accepted, bytes (Fastify's default 1 MiB when absent). */
  bodyLimit?: number;
  /** Registers @fastify/multipart with this file size limit, bytes. */
  multipartFileSize?: number;
  /** Content types read as a raw Buffer (upload bodies). */
  raw?: string | string[] | RegExp;
  /** Runs after the call is counted, on every request (usage headers). */
  onRequest?: (req: FastifyRequest, reply: FastifyReply) => void;
}

/** A Fastify app with the simulator's parsers and call counting. */
export async function simApp(o: SimAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, ...(o.bodyLimit ? { bodyLimit: o.bodyLimit } : {}) });
  if (o.multipartFileSize) await app.register(multipart, { limits: { fileSize: o.multipartFileSize } });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
  if (o.raw) app.addContentTypeParser(o.raw, { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.addHook('onRequest', async (req, reply) => {
    const key = `${req.method} ${req.routeOptions.url ?? req.url}`;
    o.calls.set(key, (o.calls.get(key) ?? 0) + 1);
    o.onRequest?.(req, reply);
  });
  return app;
}

/** Listens on loopback (`port` 0: a free one) and gives the base URL. */
export async function listen(app: FastifyInstance, port = 0): Promise<string> {
  await app.listen({ port, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/**
 * When the simulator's module is the program (`node sim/x/server.ts`), starts it and prints one
 * JSON line: `{platform, url, clientId, clientSecret, ...extra}`.
 */
export async function runAsMain<S extends { url: string; clientSecret: string }>(
  moduleUrl: string, platform: string, start: () => Promise<S>, describe: (sim: S) => Record<string, unknown>,
): Promise<void> {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  const sim = await start();
  process.stdout.write(`${JSON.stringify({ platform, url: sim.url, ...describe(sim) })}\n`);
}

/** What every simulator hands its caller (tests, the sandbox), `F` being its faults. */
export interface SimulatorBase<F> {
  url: string;
  app: FastifyInstance;
  clientId: string;
  clientSecret: string;
  /** Calls seen, by route key (e.g. 'POST /2/tweets'). */
  calls: Map<string, number>;
  addFault(f: F): void;
  /** Makes every issued access token expire now. */
  expireAccessTokens(): void;
  /** Revokes every token. */
  revokeAll(): void;
  close(): Promise<void>;
}

/** The test controls of {@link SimulatorBase}: faults, access-token expiry, revocation (`revokeAll`), closing. */
export function simControls<F extends SimFault>(app: FastifyInstance, faults: FaultQueue<F>, access: Map<string, { expires: number }>, revokeAll: () => void) {
  return { addFault: (f: F) => faults.add(f), expireAccessTokens: () => expireAll(access), revokeAll, close: () => app.close() };
}
