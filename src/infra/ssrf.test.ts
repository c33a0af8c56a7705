/**
 * The SSRF guard with `allowPrivate: false`, proven against a real HTTP server on
 * 127.0.0.1 (no traffic leaves this machine): loopback, private, link-local and
 * IPv6 forms are refused before any connection (the server sees no request); a
 * redirect from an allowed host to a private address is refused at the redirect;
 * non-http schemes, oversized bodies and slow responses are cut off.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchBlockedError, guardedFetch, isBlockedAddress } from './ssrf.ts';

let server: http.Server;
let port: number;
let origin: string;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url!);
    const u = new URL(req.url!, 'http://x');
    switch (u.pathname) {
      case '/ok':
        res.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end('PNGDATA');
        return;
      case '/redirect':
        res.writeHead(302, { location: u.searchParams.get('to')! }).end();
        return;
      case '/big-declared':
        res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
        return;
      case '/big-chunked': {
        res.writeHead(200, { 'content-type': 'video/mp4' });
        let n = 0;
        const t = setInterval(() => {
          if (n++ >= 10 || res.destroyed) { clearInterval(t); res.end(); return; }
          res.write(Buffer.alloc(1000));
        }, 5);
        return;
      }
      case '/drip': {
        // A byte every 100 ms for 5 s: never idle long enough for a socket timeout.
        res.writeHead(200, { 'content-type': 'image/png' });
        let n = 0;
        const t = setInterval(() => {
          if (n++ >= 50 || res.destroyed) { clearInterval(t); res.end(); return; }
          res.write('x');
        }, 100);
        res.on('close', () => clearInterval(t));
        return;
      }
      case '/cached':
        // A conditional GET: the validator matches -> 304.
        if (req.headers['if-none-match'] === '"v1"') { res.writeHead(304, { etag: '"v1"' }).end(); return; }
        res.writeHead(200, { 'content-type': 'application/rss+xml', etag: '"v1"', 'last-modified': 'Mon, 01 Jun 2026 10:00:00 GMT' }).end('<rss/>');
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        return;
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

const refused = async (url: string, opts: Parameters<typeof guardedFetch>[1], match: RegExp) => {
  const err = await guardedFetch(url, opts).then(() => null, (e: unknown) => e);
  expect(err, url).toBeInstanceOf(FetchBlockedError);
  expect((err as Error).message, url).toMatch(match);
};

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.1', '198.18.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', // IPv4-mapped
    '::127.0.0.1', '::ffff:0:7f00:1', '64:ff9b::a00:1', '2002:7f00:1::1', '2002:a9fe:a9fe::', // compatible, translated, NAT64, 6to4
    'not-an-ip', 'localhost',
  ])('blocks %s', (a) => expect(isBlockedAddress(a)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1'])('allows %s', (a) => {
    expect(isBlockedAddress(a)).toBe(false);
  });
});

describe('guardedFetch with allowPrivate: false', () => {
  const opts = { maxBytes: 1024, timeoutMs: 2000, allowPrivate: false };

  it('refuses loopback, private, link-local and IPv6 forms of them before connecting', async () => {
    const before = hits.length;
    for (const url of [
      `${origin}/ok`, `http://localhost:${port}/ok`, `http://[::1]:${port}/ok`, `http://[::ffff:127.0.0.1]:${port}/ok`,
      `http://[::ffff:7f00:1]:${port}/ok`, `http://2130706433:${port}/ok`, `http://0x7f000001:${port}/ok`, `http://127.1:${port}/ok`,
      'http://10.0.0.1/ok', 'http://10.1.2.3:8080/latest', 'http://169.254.169.254/latest/meta-data/', 'http://192.168.0.1/',
      'http://172.16.5.4/', 'http://[fe80::1]/', 'http://0.0.0.0/', 'https://100.64.0.1/',
    ]) {
      await refused(url, opts, /refusing to fetch .*(private or reserved address)/);
    }
    expect(hits.length).toBe(before); // not one request reached the server
  });

  it('refuses non-http schemes', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a.png', 'gopher://127.0.0.1:70/', 'data:image/png;base64,AAAA', 'javascript:alert(1)', 'ws://example.com/']) {
      await refused(url, opts, /only http and https URLs can be fetched/);
    }
    await refused('not a url', opts, /not a valid URL/);
  });

  it('refuses a redirect from an allowed host to a private address, a loopback name or another scheme', async () => {
    // The test server stands in for a public host (allowAddresses); every redirect target is still checked.
    const asPublic = { ...opts, allowAddresses: ['127.0.0.1'] };
    const ok = await guardedFetch(`${origin}/ok`, asPublic);
    expect(ok).toMatchObject({ bytes: Buffer.from('PNGDATA'), contentType: 'image/png', size: 7, status: 200 });
    const before = hits.length;
    for (const to of ['http://10.0.0.1/secret', 'http://169.254.169.254/latest/meta-data/', `http://[::1]:${port}/ok`, `http://127.0.0.2:${port}/ok`, `http://[::ffff:127.0.0.2]:${port}/ok`]) {
      await refused(`${origin}/redirect?to=${encodeURIComponent(to)}`, asPublic, /refusing to fetch/);
    }
    await refused(`${origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, asPublic, /only http and https/);
    // Only the redirecting requests reached the server, never a target.
    expect(hits.slice(before).every((h) => h.startsWith('/redirect'))).toBe(true);
    expect(hits.length - before).toBe(6);
    await refused(`${origin}/loop`, asPublic, /too many redirects/);
  });

  it('caps the size: a declared Content-Length over the cap, and a longer streamed body', async () => {
    const asPublic = { ...opts, allowAddresses: ['127.0.0.1'] };
    await refused(`${origin}/big-declared`, asPublic, /5000 bytes; the limit is 1024/);
    await refused(`${origin}/big-chunked`, asPublic, /larger than the limit of 1024 bytes/);
    expect((await guardedFetch(`${origin}/big-declared`, { ...asPublic, maxBytes: 5000 })).bytes.length).toBe(5000);
  });

  it('streams the body into a sink (nothing kept), with the same cap, and says which refusal was the size', async () => {
    const asPublic = { ...opts, allowAddresses: ['127.0.0.1'] };
    const collect = () => { const parts: Buffer[] = []; const sink = new PassThrough(); sink.on('data', (c: Buffer) => parts.push(c)); return { sink, parts }; };
    const a = collect();
    const r = await guardedFetch(`${origin}/big-chunked`, { ...asPublic, maxBytes: 20_000, sink: a.sink });
    expect(r.bytes.length).toBe(0);
    expect(r.size).toBe(10_000);
    expect(Buffer.concat(a.parts).length).toBe(10_000);
    const b = collect();
    const err = await guardedFetch(`${origin}/big-chunked`, { ...asPublic, maxBytes: 4_000, sink: b.sink }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(FetchBlockedError);
    expect((err as FetchBlockedError).reason).toBe('too_large');
    expect(Buffer.concat(b.parts).length).toBeLessThanOrEqual(4_000);
    const c = await guardedFetch('http://127.0.0.1/x', opts).then(() => null, (e: unknown) => e);
    expect((c as FetchBlockedError).reason).toBe('refused');
  });

  it('caps the total time, even when bytes keep trickling in', async () => {
    const started = Date.now();
    const err = await guardedFetch(`${origin}/drip`, { maxBytes: 1_000_000, timeoutMs: 500, allowAddresses: ['127.0.0.1'] }).then(() => null, (e: Error) => e);
    const took = Date.now() - started;
    expect(err?.message).toMatch(/timed out after 500 ms/);
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(2000);
  });

  it('fetches loopback when allowPrivate is on (tests and simulators)', async () => {
    expect((await guardedFetch(`${origin}/ok`, { maxBytes: 1024, allowPrivate: true })).bytes.toString()).toBe('PNGDATA');
    await expect(guardedFetch(`${origin}/missing`, { maxBytes: 1024, allowPrivate: true })).rejects.toThrow(/HTTP 404/);
  });
});

describe('conditional GET (request headers, notModified)', () => {
  it('sends the given headers, answers a 304 as a result with notModified, and an error without it', async () => {
    const opts = { maxBytes: 1000, allowAddresses: ['127.0.0.1'] };
    const first = await guardedFetch(`${origin}/cached`, opts);
    expect(first).toMatchObject({ status: 200, contentType: 'application/rss+xml', headers: { etag: '"v1"', 'last-modified': 'Mon, 01 Jun 2026 10:00:00 GMT' } });
    expect(first.bytes.toString()).toBe('<rss/>');
    const again = await guardedFetch(`${origin}/cached`, { ...opts, headers: { 'if-none-match': '"v1"' }, notModified: true });
    expect(again).toMatchObject({ status: 304, size: 0 });
    await expect(guardedFetch(`${origin}/cached`, { ...opts, headers: { 'if-none-match': '"v1"' } })).rejects.toThrow(/HTTP 304/);
  });
});
