import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeImage } from '../../test/support/media.ts';
import { createRemoteImageProber, probeRemoteImage } from './remote-media.ts';

let server: http.Server;
let base: string;
const files = new Map<string, Buffer>();
const ranges: string[] = [];
let sent = 0;
let requests = 0;

beforeAll(async () => {
  files.set('/portrait.jpg', makeImage({ format: 'jpeg', width: 1080, height: 1350 }));
  files.set('/big.png', makeImage({ format: 'png', width: 1200, height: 628, minBytes: 2_000_000 }));
  files.set('/really-a-png.jpg', makeImage({ format: 'png', width: 640, height: 320 }));
  files.set('/notes.txt', Buffer.from('not an image'));
  server = http.createServer((req, res) => {
    requests++;
    const f = files.get(req.url ?? '');
    if (!f) { res.writeHead(404).end(); return; }
    ranges.push(String(req.headers.range ?? ''));
    const m = /^bytes=0-(\d+)$/.exec(String(req.headers.range ?? ''));
    const body = m ? f.subarray(0, Number(m[1]) + 1) : f;
    sent += body.length;
    res.writeHead(m ? 206 : 200, { 'content-type': 'image/jpeg', 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('probeRemoteImage', () => {
  it('reads format and pixels from the first 256 KB only (a Range request), whatever the URL or content type says', async () => {
    sent = 0;
    expect(await probeRemoteImage(`${base}/big.png`, { allowPrivate: true })).toEqual({ mimeType: 'image/png', width: 1200, height: 628 });
    expect(ranges.at(-1)).toBe(`bytes=0-${256 * 1024 - 1}`);
    expect(sent, 'a 2 MB file: only the first 256 KB are read').toBeLessThanOrEqual(256 * 1024);
    expect(await probeRemoteImage(`${base}/portrait.jpg`, { allowPrivate: true })).toEqual({ mimeType: 'image/jpeg', width: 1080, height: 1350 });
    expect(await probeRemoteImage(`${base}/really-a-png.jpg`, { allowPrivate: true })).toEqual({ mimeType: 'image/png', width: 640, height: 320 });
  });

  it('answers null for what it cannot read: not an image, missing, or an address the SSRF guard refuses', async () => {
    expect(await probeRemoteImage(`${base}/notes.txt`, { allowPrivate: true })).toBeNull();
    expect(await probeRemoteImage(`${base}/missing.jpg`, { allowPrivate: true })).toBeNull();
    const before = ranges.length;
    expect(await probeRemoteImage(`${base}/portrait.jpg`)).toBeNull();
    expect(ranges.length, 'loopback is refused before any request').toBe(before);
  });

  it('a prober asks once per URL: repeated and concurrent requests, and a missing file, are answered from its memory', async () => {
    const probe = createRemoteImageProber({ allowPrivate: true });
    const before = requests;
    const answers = await Promise.all([1, 2, 3].map(() => probe(`${base}/portrait.jpg`)));
    expect(answers).toEqual(Array(3).fill({ mimeType: 'image/jpeg', width: 1080, height: 1350 }));
    expect(await probe(`${base}/portrait.jpg`)).toEqual({ mimeType: 'image/jpeg', width: 1080, height: 1350 });
    expect(requests - before).toBe(1);
    const misses = requests;
    expect(await probe(`${base}/missing.jpg`)).toBeNull();
    expect(await probe(`${base}/missing.jpg`)).toBeNull();
    expect(requests - misses, 'a URL that answered nothing is asked once too').toBe(1);
  });
});
