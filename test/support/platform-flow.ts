/**
 * What the exactly-once flows do with any platform account behind a proxy (test/support/facebook-flow.ts,
 * mastodon-flow.ts; the scenarios in stall-scenario.ts and late-landing-scenario.ts): start
 * `herald worker` processes on the test's database, schedule posts, read the targets' statuses, and
 * count on the platform's side (its simulator in its own process) duplicates, losses and statuses
 * Herald got wrong.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import type { PlatformId } from '../../src/shared/platforms.ts';
import type { Tenant, TestContext } from './app.ts';
import type { DelayProxy } from './delay-proxy.ts';
import { spawnHerald } from './sim-process.ts';

export interface PlatformFlow {
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
   * The truth from the platform: for each planned post, how many copies the platform has, and
   * whether Herald's status and post id match it.
   */
  count(planned: Map<string, string>): Promise<{ duplicates: number; lost: number; statusWrong: number; wrong: string[] }>;
  close(): Promise<void>;
}

/**
 * A flow over a connected account. `onPlatform`: every post the simulator holds, as `{ id, text }`;
 * `where`: how the count's messages name the platform's side ("the Page"); `stop`: stops the
 * simulator after the proxy and the app.
 */
export function platformFlow(o: {
  ctx: TestContext; tenant: Tenant; accountId: string; platform: PlatformId; proxy: DelayProxy;
  env: Record<string, string>; where: string;
  onPlatform: () => Promise<Array<{ id: string; text: string }>>; stop: () => Promise<void>;
}): PlatformFlow {
  const { ctx, tenant, accountId, proxy } = o;
  const children = new Set<ChildProcess>();
  const workerEnv = (extra: Record<string, string> = {}) => ({
    ...o.env, DATABASE_URL: ctx.databaseUrl, HERALD_SECRET_KEY: ctx.secretKeyHex, HERALD_DATA_DIR: ctx.dataDir,
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
          payload: { content: text, scheduledFor: at.toISOString(), platforms: [{ platform: o.platform, accountId }] },
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
      const onPlatform = await o.onPlatform();
      const { rows } = await ctx.db.query<{ post_id: string; status: string; platform_post_id: string | null; error_message: string | null }>(
        'SELECT post_id, status, platform_post_id, error_message FROM post_targets WHERE tenant_id = $1', [tenant.userId]);
      const byPost = new Map(rows.map((r) => [r.post_id, r]));
      let duplicates = 0;
      let lost = 0;
      let statusWrong = 0;
      const wrong: string[] = [];
      for (const [postId, text] of planned) {
        const ids = onPlatform.filter((p) => p.text === text).map((p) => p.id);
        const t = byPost.get(postId)!;
        if (ids.length > 1) duplicates += ids.length - 1;
        if (ids.length === 0) lost++;
        if (t.status !== 'published' || ids.length !== 1 || t.platform_post_id !== ids[0]) {
          statusWrong++;
          if (wrong.length < 5) wrong.push(`"${text}": Herald ${t.status} ${t.platform_post_id ?? ''} ${t.error_message ?? ''}; on ${o.where}: ${ids.join(', ') || 'none'}`);
        }
      }
      return { duplicates, lost, statusWrong, wrong };
    },
    async close() {
      for (const c of children) { c.kill('SIGCONT'); c.kill('SIGKILL'); }
      await proxy.close();
      await ctx.close();
      await o.stop();
    },
  };
}
