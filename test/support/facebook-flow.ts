/**
 * A Facebook Page behind a proxy, for the exactly-once flows that count on the platform's side
 * (stalled workers, requests that land late): the Facebook simulator runs in its own process (its
 * state outlives any Herald process), and a Page feed, unlike X, does not refuse duplicate content,
 * so every second create is a real duplicate. Herald's workers run as their own processes.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from './app.ts';
import { startDelayProxy, type DelayProxy } from './delay-proxy.ts';
import { oauthConnect } from './oauth.ts';
import { spawnHerald, startSimProcess, type SimProcess } from './sim-process.ts';

type FacebookSim = SimProcess<{ url: string; clientId: string; clientSecret: string; pages: Array<{ id: string }> }>;

/** The Page feed's visible call, `POST /{version}/{page-id}/feed`. */
export const isFeedPost = (method: string, path: string) => method === 'POST' && /^\/v[\d.]+\/\d+\/feed/.test(path);

export interface FacebookFlow {
  ctx: TestContext;
  tenant: Tenant;
  accountId: string;
  proxy: DelayProxy;
  /** The environment of a `herald worker` process on the test's database, with `extra` over it. */
  workerEnv(extra?: Record<string, string>): Record<string, string>;
  /** Starts `herald worker` (its own process, stdout ignored). */
  startWorker(extra?: Record<string, string>): ChildProcess;
  /** Schedules one post per text for `at`, returns post id -> text. */
  schedule(texts: string[], at: Date): Promise<Map<string, string>>;
  /** Targets of the tenant by status. */
  statuses(): Promise<Record<string, number>>;
  /**
   * The truth from the platform: for each planned post, how many copies the Page has, and whether
   * Herald's status and post id match it.
   */
  count(planned: Map<string, string>): Promise<{ duplicates: number; lost: number; statusWrong: number; wrong: string[] }>;
  close(): Promise<void>;
}

export async function startFacebookFlow(opts: {
  proxy: Parameters<typeof startDelayProxy>[1];
  env?: Record<string, string>;
}): Promise<FacebookFlow> {
  const fb: FacebookSim = await startSimProcess('sim/facebook/server.ts');
  const proxy = await startDelayProxy(fb.info.url, opts.proxy);
  const platformEnv = {
    HERALD_FACEBOOK_CLIENT_ID: fb.info.clientId, HERALD_FACEBOOK_CLIENT_SECRET: fb.info.clientSecret,
    HERALD_FACEBOOK_API_URL: proxy.url, HERALD_FACEBOOK_AUTH_URL: fb.info.url,
  };
  const ctx = await createTestApp({ env: { ...platformEnv, ...(opts.env ?? {}) } });
  const tenant = await createTenant(ctx);
  const profileId = await createProfile(ctx, tenant);
  const dance = await oauthConnect(ctx, tenant, 'facebook', profileId);
  const tempToken = new URL(dance.done.headers.location as string).searchParams.get('tempToken')!;
  const page = await ctx.app.inject({ method: 'POST', url: '/v1/connect/facebook/select-page', headers: tenant.headers, payload: { profileId, pageId: fb.info.pages[0].id, tempToken } });
  expect(page.statusCode, page.body).toBe(200);
  const accountId = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers: tenant.headers })).json().accounts[0]._id as string;
  const children = new Set<ChildProcess>();

  const workerEnv = (extra: Record<string, string> = {}) => ({
    ...platformEnv, ...(opts.env ?? {}), DATABASE_URL: ctx.databaseUrl, HERALD_SECRET_KEY: ctx.secretKeyHex, HERALD_DATA_DIR: ctx.dataDir,
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
          payload: { content: text, scheduledFor: at.toISOString(), platforms: [{ platform: 'facebook', accountId }] },
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
      const state = await (await fetch(`${fb.info.url}/__sim/state`)).json() as { posts: Array<{ id: string; message: string }> };
      const { rows } = await ctx.db.query<{ post_id: string; status: string; platform_post_id: string | null; error_message: string | null }>(
        'SELECT post_id, status, platform_post_id, error_message FROM post_targets WHERE tenant_id = $1', [tenant.userId]);
      const byPost = new Map(rows.map((r) => [r.post_id, r]));
      let duplicates = 0;
      let lost = 0;
      let statusWrong = 0;
      const wrong: string[] = [];
      for (const [postId, text] of planned) {
        const ids = state.posts.filter((p) => p.message === text).map((p) => p.id);
        const t = byPost.get(postId)!;
        if (ids.length > 1) duplicates += ids.length - 1;
        if (ids.length === 0) lost++;
        if (t.status !== 'published' || ids.length !== 1 || t.platform_post_id !== ids[0]) {
          statusWrong++;
          if (wrong.length < 5) wrong.push(`"${text}": Herald ${t.status} ${t.platform_post_id ?? ''} ${t.error_message ?? ''}; on the Page: ${ids.join(', ') || 'none'}`);
        }
      }
      return { duplicates, lost, statusWrong, wrong };
    },
    async close() {
      for (const c of children) { c.kill('SIGCONT'); c.kill('SIGKILL'); }
      await proxy.close();
      await ctx.close();
      await fb.stop();
    },
  };
}
