/**
 * A Mastodon account behind a proxy, for the exactly-once flows that count on the platform's side
 * (the stalled worker of test/support/stall-scenario.ts): the Mastodon simulator runs in its own
 * process (its state outlives any Herald process) and, like a real instance, takes the same text
 * twice, so every second create is a real duplicate. The account is connected with the proxy as its
 * instance, so every call of Herald's workers goes through the proxy. Same shape as the Facebook flow.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { createProfile, createTenant, createTestApp } from './app.ts';
import { startDelayProxy } from './delay-proxy.ts';
import type { FacebookFlow } from './facebook-flow.ts';
import { spawnHerald, startSimProcess, type SimProcess } from './sim-process.ts';

type MastodonSim = SimProcess<{ url: string }>;

/** The visible call, `POST /api/v1/statuses`. */
export const isStatusPost = (method: string, path: string) => method === 'POST' && path.startsWith('/api/v1/statuses');

export async function startMastodonFlow(opts: {
  proxy: Parameters<typeof startDelayProxy>[1];
  env?: Record<string, string>;
}): Promise<FacebookFlow> {
  // A burst of 300 posts makes about 900 calls: the instance's limit is raised so that the scenario tests fencing, not rate limits.
  const sim: MastodonSim = await startSimProcess('sim/mastodon/server.ts', { MASTODON_SIM_RATE_LIMIT: '100000' });
  const proxy = await startDelayProxy(sim.info.url, opts.proxy);
  const ctx = await createTestApp({ env: { ...(opts.env ?? {}) } });
  const tenant = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  const start = await ctx.app.inject({ method: 'GET', url: `/v1/connect/mastodon?profileId=${profileId}&instance=${encodeURIComponent(proxy.url)}`, headers: tenant.headers });
  expect(start.statusCode, start.body).toBe(200);
  const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
  const cb = new URL(consent.headers.get('location')!);
  const done = await ctx.app.inject({ method: 'GET', url: cb.pathname + cb.search });
  expect(done.statusCode).toBe(302);
  const accountId = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts[0]._id as string;
  const children = new Set<ChildProcess>();

  const workerEnv = (extra: Record<string, string> = {}) => ({
    ...(opts.env ?? {}), DATABASE_URL: ctx.databaseUrl, HERALD_SECRET_KEY: ctx.secretKeyHex, HERALD_DATA_DIR: ctx.dataDir,
    HERALD_WORKER_POLL_MS: '200', HERALD_LOG_LEVEL: 'warn', HERALD_ALLOW_PRIVATE_URLS: 'true', ...extra,
  });

  return {
    ctx, tenant, accountId, proxy, workerEnv,
    startWorker: (extra = {}) => spawnHerald('worker', workerEnv(extra), children),
    async schedule(texts, at) {
      const planned = new Map<string, string>();
      for (const text of texts) {
        const res = await ctx.app.inject({
          method: 'POST', url: '/v1/posts', headers: tenant.headers,
          payload: { content: text, scheduledFor: at.toISOString(), platforms: [{ platform: 'mastodon', accountId }] },
        });
        expect(res.statusCode, res.body).toBe(201);
        planned.set(res.json().post._id, text);
      }
      return planned;
    },
    async statuses() {
      const { rows } = await ctx.db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM post_targets WHERE tenant_id = $1 GROUP BY status', [tenant.userId]);
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },
    async count(planned) {
      const state = await (await fetch(`${sim.info.url}/__sim/state`)).json() as { statuses: Array<{ id: string; text: string }> };
      const { rows } = await ctx.db.query<{ post_id: string; status: string; platform_post_id: string | null; error_message: string | null }>(
        'SELECT post_id, status, platform_post_id, error_message FROM post_targets WHERE tenant_id = $1', [tenant.userId]);
      const byPost = new Map(rows.map((r) => [r.post_id, r]));
      let duplicates = 0;
      let lost = 0;
      let statusWrong = 0;
      const wrong: string[] = [];
      for (const [postId, text] of planned) {
        const ids = state.statuses.filter((s) => s.text === text).map((s) => s.id);
        const t = byPost.get(postId)!;
        if (ids.length > 1) duplicates += ids.length - 1;
        if (ids.length === 0) lost++;
        if (t.status !== 'published' || ids.length !== 1 || t.platform_post_id !== ids[0]) {
          statusWrong++;
          if (wrong.length < 5) wrong.push(`"${text}": Herald ${t.status} ${t.platform_post_id ?? ''} ${t.error_message ?? ''}; on the instance: ${ids.join(', ') || 'none'}`);
        }
      }
      return { duplicates, lost, statusWrong, wrong };
    },
    async close() {
      for (const c of children) { c.kill('SIGCONT'); c.kill('SIGKILL'); }
      await proxy.close();
      await ctx.close();
      await sim.stop();
    },
  };
}
