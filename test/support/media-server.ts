/**
 * A tiny loopback HTTP server that serves media files by path, for contract tests whose
 * platform downloads media by URL (Threads) or whose adapter fetches it (LinkedIn).
 */
import http from 'node:http';

export interface MediaServer {
  /** Base URL, e.g. http://127.0.0.1:1234 */
  url: string;
  /** Adds or replaces a file; returns its absolute URL. */
  put(path: string, bytes: Buffer, contentType: string): string;
  close(): Promise<void>;
}

export async function startMediaServer(): Promise<MediaServer> {
  const files = new Map<string, { bytes: Buffer; type: string }>();
  const server = http.createServer((req, res) => {
    const f = files.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!f) { res.writeHead(404).end('not found'); return; }
    res.writeHead(200, { 'content-type': f.type, 'content-length': String(f.bytes.length) });
    res.end(req.method === 'HEAD' ? undefined : f.bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    put(path, bytes, contentType) { files.set(path, { bytes, type: contentType }); return url + path; },
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
