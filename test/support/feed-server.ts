/**
 * A loopback HTTP server for feed tests: serves bodies by path with an ETag and a Last-Modified,
 * answers conditional GETs (If-None-Match / If-Modified-Since) with 304, and counts requests.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';

export interface FeedServer {
  /** Base URL, e.g. http://127.0.0.1:1234 */
  url: string;
  /** Adds or replaces a body (a new ETag and Last-Modified); returns its absolute URL. */
  put(path: string, body: string | Buffer, contentType: string): string;
  /** Requests per path: how many, how many were conditional, how many answered 304. */
  hits(path: string): { total: number; conditional: number; notModified: number };
  close(): Promise<void>;
}

/** Starts the server on a free loopback port. */
export async function startFeedServer(): Promise<FeedServer> {
  const files = new Map<string, { body: Buffer; type: string; etag: string; lastModified: string }>();
  const counts = new Map<string, { total: number; conditional: number; notModified: number }>();
  let tick = Date.UTC(2026, 0, 1);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const c = counts.get(path) ?? { total: 0, conditional: 0, notModified: 0 };
    counts.set(path, c);
    c.total++;
    const f = files.get(path);
    if (!f) { res.writeHead(404).end('not found'); return; }
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    if (inm || ims) c.conditional++;
    if ((inm && inm === f.etag) || (!inm && ims && ims === f.lastModified)) {
      c.notModified++;
      res.writeHead(304, { etag: f.etag, 'last-modified': f.lastModified }).end();
      return;
    }
    res.writeHead(200, { 'content-type': f.type, 'content-length': String(f.body.length), etag: f.etag, 'last-modified': f.lastModified });
    res.end(f.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    put(path, body, type) {
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
      tick += 60_000;
      files.set(path, { body: bytes, type, etag: `"${createHash('sha1').update(bytes).digest('hex').slice(0, 16)}"`, lastModified: new Date(tick).toUTCString() });
      return url + path;
    },
    hits: (path) => ({ ...(counts.get(path) ?? { total: 0, conditional: 0, notModified: 0 }) }),
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
