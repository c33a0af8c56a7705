/**
 * An HTTP proxy on loopback that forwards every request to `target` and, for requests
 * that `slow(method, path)` selects, holds the platform's answer for `delayMs` after the
 * platform has acted. This widens the window in which a crash of Herald leaves a post
 * created on the platform but unanswered, the case exactly-once publishing must survive.
 *
 * With `late`, the requests it selects are held before they reach the platform instead, for
 * `late.ms`, and delivered then even when the client gave up meanwhile: a request that lands
 * late (a slow platform that commits late looks the same to Herald).
 *
 * With `hold`, the requests it selects never reach the platform: they are held unanswered until
 * their client goes away (a request lost on the way, the kill of Herald in the middle of it).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  url: string;
  /** Requests forwarded, and those whose answer was held. */
  readonly forwarded: number;
  readonly delayed: number;
  /** Requests held before delivery (`late`), and those of them delivered after their client had gone. */
  readonly landedLate: number;
  readonly landedAfterClientLeft: number;
  /** Requests held by `hold` (never forwarded). */
  readonly held: number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

export async function startDelayProxy(target: string, opts: {
  delayMs: number; slow: (method: string, path: string) => boolean;
  late?: { ms: number; select: (method: string, path: string) => boolean };
  hold?: (method: string, path: string) => boolean;
}): Promise<DelayProxy> {
  let held = 0;
  let forwarded = 0;
  let delayed = 0;
  let landedLate = 0;
  let landedAfterClientLeft = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let clientLeft = false;
    res.on('close', () => { if (!res.writableFinished) clientLeft = true; });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      if (opts.hold?.(method, path)) {
        held++;
        return; // never forwarded, never answered: close() or the client's end drops it
      }
      if (opts.late?.select(method, path)) {
        await new Promise((r) => setTimeout(r, opts.late!.ms));
        landedLate++;
        if (clientLeft) landedAfterClientLeft++;
      }
      try {
        const headers = Object.fromEntries(Object.entries(req.headers)
          .filter(([k, v]) => !HOP_BY_HOP.has(k) && typeof v === 'string') as Array<[string, string]>);
        const upstream = await fetch(target + path, {
          method, headers, redirect: 'manual',
          body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
        });
        const body = Buffer.from(await upstream.arrayBuffer());
        forwarded++;
        if (opts.slow(method, path)) {
          delayed++;
          await new Promise((r) => setTimeout(r, opts.delayMs));
        }
        const out: Record<string, string> = {};
        upstream.headers.forEach((v, k) => { if (!HOP_BY_HOP.has(k)) out[k] = v; });
        res.writeHead(upstream.status, out);
        res.end(body);
      } catch {
        res.destroy(); // the client went away (killed), or the platform did
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get forwarded() { return forwarded; },
    get delayed() { return delayed; },
    get landedLate() { return landedLate; },
    get landedAfterClientLeft() { return landedAfterClientLeft; },
    get held() { return held; },
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
