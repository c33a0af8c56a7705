/**
 * A TCP proxy on loopback in front of the test PostgreSQL that can crash and come back on the
 * same port, the way a PostgreSQL server crashes and restarts: `down()` resets every connection
 * and stops listening, so new connections are refused (ECONNREFUSED), and `up()` listens on the
 * same port again. (test/support/tcp-proxy.ts freezes, or closes for good; this one restarts.)
 */
import net from 'node:net';

export interface CrashProxy {
  /** The port the proxy listens on (127.0.0.1), the same before and after a crash. */
  readonly port: number;
  /** Whether it accepts connections now. */
  readonly isUp: boolean;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  /**
   * The crash: resets every connection and stops listening, synchronously (a caller that checked
   * something just before knows nothing was forwarded in between); resolves once the listener is
   * closed.
   */
  down(): Promise<void>;
  /** The restart: listens on the same port again and forwards new connections. */
  up(): Promise<void>;
  /** Resets every connection and stops for good. */
  close(): Promise<void>;
}

/** Starts a proxy forwarding to `target` (host and port of the database). */
export async function startCrashProxy(target: { host: string; port: number }): Promise<CrashProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  };
  const accept = (client: net.Socket) => {
    track(client);
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: net.Server | null = null;
  const listen = async (port: number): Promise<number> => {
    const s = net.createServer(accept);
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => { s.off('error', reject); resolve(); });
    });
    server = s;
    return (s.address() as net.AddressInfo).port;
  };
  const crash = (): Promise<void> => {
    const s = server;
    server = null;
    for (const sock of sockets) sock.resetAndDestroy();
    return s ? new Promise<void>((resolve) => s.close(() => resolve())) : Promise.resolve();
  };
  const port = await listen(0);
  return {
    port,
    get isUp() { return server !== null; },
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    down: crash,
    async up() {
      if (server) return;
      await listen(port);
    },
    close: crash,
  };
}
