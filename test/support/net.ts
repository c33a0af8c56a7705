/** Network helpers shared by the tests (no app or database imports: the global setup uses them too). */
import net from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (listen on 0, read the port, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Calls `fn` every `intervalMs` until it returns something truthy, and returns that; throws after `timeoutMs`. */
export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 100, what } = opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(what ? `timed out waiting for ${what}` : 'timed out waiting');
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
