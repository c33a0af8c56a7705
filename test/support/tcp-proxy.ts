/**
 * A TCP proxy on loopback in front of the test PostgreSQL, to simulate the database failing
 * without touching the shared test cluster:
 * - `freeze()`: nothing is forwarded any more in either direction, and new connections are
 *   accepted but never reach the database (a frozen server or a network partition: no
 *   refusal, no answer); `thaw()` forwards again;
 * - `close()`: every connection is reset and new ones are refused (the database is down).
 */
import net from 'node:net';

export interface TcpProxy {
  /** The port the proxy listens on (127.0.0.1). */
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  freeze(): void;
  thaw(): void;
  /** Resets every connection and stops listening; later connections are refused. */
  close(): Promise<void>;
}

/** Starts a proxy forwarding to `host:port`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    if (frozen) s.pause();
  };
  const server = net.createServer((client) => {
    track(client);
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    // Hand-forwarded (no pipe(): it resumes a paused socket on drain, which would defeat freeze()).
    client.on('data', (chunk) => { upstream.write(chunk); });
    upstream.on('data', (chunk) => { client.write(chunk); });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    freeze() {
      frozen = true;
      for (const s of sockets) s.pause();
    },
    thaw() {
      frozen = false;
      for (const s of sockets) s.resume();
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.resetAndDestroy();
      server.close(() => resolve());
    }),
  };
}
