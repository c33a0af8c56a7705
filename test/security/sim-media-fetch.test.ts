/**
 * The simulators' media downloads (sim/common/fetch-media.ts): a caller-supplied URL goes
 * through Herald's SSRF guard, so a simulator cannot be used to reach loopback or the private
 * network (nor to tell open from closed ports); only the allowed prefixes (Herald's own media
 * in sandbox mode) and an explicit allowPrivate get through.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchMedia, mediaFetchable } from '../../sim/common/fetch-media.ts';
import { startTikTokSimulator } from '../../sim/tiktok/server.ts';

let server: http.Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/media/redirect') { res.writeHead(302, { location: '/secret' }).end(); return; }
    res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('png-bytes'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => { await new Promise((r) => server.close(r)); });

describe('sim/common/fetch-media.ts', () => {
  it('refuses loopback, private and non-http URLs by default without connecting, open port or closed', async () => {
    const before = hits.length;
    for (const url of [`${base}/x.jpg`, 'http://127.0.0.1:9/x.jpg', 'http://[::1]:9/x.jpg', 'http://10.0.0.1/x.jpg', 'http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd']) {
      const r = await fetchMedia(url);
      expect(r, url).toMatchObject({ ok: false, refused: true });
    }
    // The same answer for an open and a closed port: nothing to tell them apart.
    expect(await mediaFetchable(`${base}/x.jpg`)).toEqual(await mediaFetchable('http://127.0.0.1:9/x.jpg'));
    expect(hits.length).toBe(before);
  });

  it('fetches under an allowed prefix only: not the rest of that origin, not through `..`, not through a redirect', async () => {
    const policy = { allowPrefixes: [`${base}/media/`] };
    const ok = await fetchMedia(`${base}/media/a.png`, policy);
    expect(ok).toMatchObject({ ok: true, contentType: 'image/png' });
    const before = hits.length;
    for (const url of [`${base}/v1/secret`, `${base}/media/../secret`, `${base}/media/%2e%2e/secret`, `${base.replace('127.0.0.1', '127.0.0.2')}/media/a.png`]) {
      expect(await fetchMedia(url, policy), url).toMatchObject({ ok: false, refused: true });
    }
    expect(hits.length).toBe(before);
    expect(await fetchMedia(`${base}/media/redirect`, policy)).toMatchObject({ ok: false, refused: true, error: expect.stringMatching(/redirect/) });
    expect(hits).not.toContain('/secret');
  });

  it('lets private addresses through only when allowPrivate is set (tests with a loopback media server)', async () => {
    expect(await mediaFetchable(`${base}/x.jpg`, { allowPrivate: true })).toEqual({ ok: true });
  });

  it('TikTok PULL_FROM_URL (started as the sandbox starts it): a loopback photo URL is not pulled and the publish fails', async () => {
    const sim = await startTikTokSimulator();
    try {
      const auth = await fetch(`${sim.url}/v2/auth/authorize/?client_key=${sim.clientKey}&redirect_uri=https://x.example/cb&scope=user.info.basic,video.publish&response_type=code&state=s`, { redirect: 'manual' });
      const code = new URL(auth.headers.get('location')!).searchParams.get('code')!;
      const { access_token: token } = await (await fetch(`${sim.url}/v2/oauth/token/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_key: sim.clientKey, client_secret: sim.clientSecret, code, grant_type: 'authorization_code', redirect_uri: 'https://x.example/cb' }) })).json() as { access_token: string };
      const call = async (p: string, body: object) => (await fetch(`${sim.url}${p}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body) })).json() as Promise<{ data: Record<string, unknown> }>;
      const before = hits.length;
      const init = await call('/v2/post/publish/content/init/', {
        media_type: 'PHOTO', post_mode: 'DIRECT_POST', post_info: { privacy_level: 'SELF_ONLY' },
        source_info: { source: 'PULL_FROM_URL', photo_images: [`${base}/photo.jpg`], photo_cover_index: 0 },
      });
      let status: Record<string, unknown> = {};
      for (let i = 0; i < 5 && status.status !== 'FAILED'; i++) status = (await call('/v2/post/publish/status/fetch/', { publish_id: init.data.publish_id })).data;
      expect(status).toMatchObject({ status: 'FAILED', fail_reason: 'photo_pull_failed' });
      expect(hits.length).toBe(before);
    } finally {
      await sim.close();
    }
  });

  it('is the only way the simulators download: no simulator calls fetch itself', () => {
    const simDir = path.resolve(import.meta.dirname, '../../sim');
    const servers = fs.readdirSync(simDir, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'common')
      .map((d) => path.join(simDir, d.name, 'server.ts')).filter((f) => fs.existsSync(f));
    expect(servers.length).toBeGreaterThanOrEqual(9);
    for (const f of servers) expect(fs.readFileSync(f, 'utf8'), f).not.toMatch(/(?<![\w.])fetch\s*\(/);
  });
});
