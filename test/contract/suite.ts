/**
 * The contract every OAuth platform keeps, run against its simulator through the real app:
 * connecting (the state round trip and its single use, completion through the API), the
 * failure modes of publishing (429, 5xx, an expired token, a lost answer verified, a burst
 * of newer posts to page past, an unreadable listing during verify, a call dropped before
 * the platform acted, a complete look-back), revoked authorization, the token refresh job,
 * and, for platforms with a first comment, its failure and its single posting on the verify
 * path. Each platform's test calls these with its specifics and keeps its own cases.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MetricName } from '../../src/shared/metrics.ts';
import { createTestApp, createTenant, createProfile } from '../support/app.ts';
import type { AccountRow, ConnectResult, PlatformHarness, TargetRow } from '../support/harness.ts';

/** The shared failure cases, as named to a platform's hooks. */
export type Case = 'rateLimit' | 'serverError' | 'expired' | 'lostAnswer' | 'lostAnswerBurst' | 'verifyUnreadable' | 'dropped' | 'lookBack' | 'revoked' | 'metrics';
/** The faults the cases add, once each: `list_unreadable` makes verify's listing fail. */
export type Fault = 'rate_limit' | 'server_error' | 'drop_after_create' | 'drop' | 'list_unreadable';

export interface PlatformSpec {
  platform: string;
  /** The platform's name in test titles and in its settings error (e.g. X, TikTok). */
  name: string;
  h: PlatformHarness;
  /** A valid post for a case: `content` plus the media and target options the platform needs. */
  payload(content: string, c: Case): Record<string, unknown>;
  /** Adds one fault of this kind at the call the case is about. */
  fault(kind: Fault, c: Case): void;
  /** The posts on the simulator made from `content`. */
  created(content: string): Array<{ id: string }>;
  /** How many create calls the simulator has answered. */
  creates(): number;
  /** How many listing calls (verify's look-back) the simulator has answered. */
  lists?(): number;
  /** Adds `n` newer posts of other text on the platform. */
  bury?(n: number, prefix: string): void;
  /** Runs a case in a state it needs (e.g. as an organization that may list its posts). */
  within?<T>(c: Case, fn: () => Promise<T>): Promise<T>;
}

const LATER = '2030-01-01T00:00:00Z';
/** A check a hook answers, to run once the case has acted. */
type After = (() => void | Promise<void>) | void;
/** A check on the credentials stored after a refresh. */
type AfterRefresh = ((after: Record<string, any>) => void | Promise<void>) | void;

export function platformContract(spec: PlatformSpec) {
  const { h, name, platform } = spec;
  const within = <T>(c: Case, fn: () => Promise<T>) => (spec.within ? spec.within(c, fn) : fn());
  /** Schedules the case's post far ahead and returns its id (runDue makes it due). */
  const schedule = async (content: string, c: Case) => (await h.post({ ...spec.payload(content, c), scheduledFor: LATER })).json().post._id as string;
  const publishNow = (content: string, c: Case) => h.post({ ...spec.payload(content, c), publishNow: true });
  const once = (content: string, t?: TargetRow) => {
    const created = spec.created(content);
    expect(created).toHaveLength(1);
    if (t) expect(t.platform_post_id).toBe(created[0].id);
  };

  /** Connecting refuses to start, naming the settings, when the platform's app is not configured. */
  const missingSettings = () => {
    it(`names the missing settings when the ${name} app is not configured`, async () => {
      const bare = await createTestApp();
      try {
        const t = await createTenant(bare);
        const p = await createProfile(bare, t);
        const res = await bare.app.inject({ method: 'GET', url: `/v1/connect/${platform}?profileId=${p}`, headers: t.headers });
        expect(res.statusCode).toBe(400);
        const P = platform.toUpperCase();
        expect(res.json().error).toMatch(new RegExp(`HERALD_${P}_CLIENT_ID and HERALD_${P}_CLIENT_SECRET`));
      } finally {
        await bare.close();
      }
    });
  };

  return {
    /** A platform whose connect is its own (e.g. a page picker): the settings case, then `register` adds the rest. */
    connectOwn(title: string, register: () => void) {
      describe(`${name}: ${title}`, () => {
        missingSettings();
        register();
      });
    },

    /** The connect cases; `first` and `more` register the platform's own cases before and after "connects". */
    connect(o: {
      title: string;
      /** The username in the redirect after connecting. */
      username: () => string;
      /** What GET /v1/accounts shows of the new account (platform and isActive: true are implied). */
      account: Record<string, unknown>;
      /** The access token lives at least this long (and at most maxTtlMs). */
      minTtlMs: number;
      maxTtlMs?: number;
      platformUserId: () => string;
      authUrl?(u: URL): void;
      /** More checks on the connect result, the stored row and its opened credentials. */
      stored?(row: AccountRow, creds: Record<string, any>, res: ConnectResult): void | Promise<void>;
      /** The callback replayed, a forged state, a bad state through the API and a denied consent are refused. */
      singleUse?: boolean;
      /** Completion through POST /v1/connect/{platform}; `check` replaces "the same account is answered". */
      api?: { title: string; check?(res: { json(): any }): Promise<void>; reusedCode?: RegExp };
      first?(): void;
      more?(): void;
    }) {
      describe(`${name}: connecting`, () => {
        missingSettings();

        o.first?.();

        it(`connects: ${o.title}`, async () => {
          const res = await h.connect(h.profileId);
          o.authUrl?.(new URL(res.authUrl));
          expect(res.done.statusCode).toBe(302);
          const to = new URL(res.done.headers.location as string);
          expect(to.origin + to.pathname).toBe('https://client.example/done');
          expect(Object.fromEntries(to.searchParams)).toMatchObject({ connected: platform, profileId: h.profileId, username: o.username() });
          const accounts = await h.accounts();
          expect(accounts).toHaveLength(1);
          expect(accounts[0]).toMatchObject({ platform, isActive: true, ...o.account });
          const ttl = new Date(accounts[0].tokenExpiresAt).getTime() - Date.now();
          expect(ttl).toBeGreaterThan(o.minTtlMs);
          if (o.maxTtlMs) expect(ttl).toBeLessThan(o.maxTtlMs);
          h.accountId = accounts[0]._id;
          const row = await h.account();
          expect(row.credentials).toMatch(/^v1:/);
          expect(row.credentials).not.toMatch(/refreshToken|accessToken/);
          expect(row.platform_user_id).toBe(o.platformUserId());
          await o.stored?.(row, h.ctx.services.secrets.openJson(row.credentials), res);
        });

        if (o.singleUse) {
          it('refuses a replayed state with an error page (no redirect), a forged one with an error redirect to the dashboard, and stores nothing more', async () => {
            const { ctx, tenant } = h;
            const { callbackPath } = await h.connect(await createProfile(ctx, tenant), { redirectUrl: 'https://client.example/x' });
            // A used state gives no second redirect (docs/decisions/0046-connect-redirect-origins.md).
            const replay = await ctx.app.inject({ method: 'GET', url: callbackPath! });
            expect(replay.statusCode).toBe(400);
            expect(replay.headers.location).toBeUndefined();
            expect(replay.body).toContain('already used or has expired');
            const forged = await ctx.app.inject({ method: 'GET', url: callbackPath!.replace(/state=([^&.]+)\.[^&]+/, 'state=$1.AAAA') });
            const dashboard = new URL(forged.headers.location as string);
            expect(dashboard.origin + dashboard.pathname).toBe(`${ctx.services.publicUrl}/dashboard/accounts`);
            expect(dashboard.searchParams.get('error')).toBe('connection_failed');
            const api = await ctx.app.inject({ method: 'POST', url: `/v1/connect/${platform}`, headers: tenant.headers, payload: { code: 'x', state: 'nope.nope', profileId: h.profileId } });
            expect(api.statusCode).toBe(400);
            expect(api.json().details.fields.state).toBeTruthy();
            const denied = await ctx.app.inject({ method: 'GET', url: `/v1/connect/${platform}/callback?error=access_denied` });
            expect(new URL(denied.headers.location as string).searchParams.get('error')).toBe('access_denied');
          });
        }

        const api = o.api;
        if (api) {
          it(api.title, async () => {
            const { ctx, tenant, profileId } = h;
            const begin = async () => (await ctx.app.inject({ method: 'GET', url: `/v1/connect/${platform}?profileId=${profileId}`, headers: tenant.headers })).json();
            const start = await begin();
            const consent = await fetch(start.authUrl, { redirect: 'manual' });
            const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
            const res = await ctx.app.inject({ method: 'POST', url: `/v1/connect/${platform}`, headers: tenant.headers, payload: { code, state: start.state, profileId } });
            expect(res.statusCode, res.body).toBe(200);
            if (api.check) await api.check(res);
            else expect(res.json().account._id).toBe(h.accountId);
            if (api.reusedCode) {
              const again = await begin();
              const reuse = await ctx.app.inject({ method: 'POST', url: `/v1/connect/${platform}`, headers: tenant.headers, payload: { code, state: again.state, profileId } });
              expect(reuse.statusCode).toBe(400);
              expect(reuse.json().error).toMatch(api.reusedCode);
            }
          });
        }

        o.more?.();
      });
    },

    /** A first comment the platform refuses does not fail the post; the failure is recorded on the target. */
    failedFirstComment(o: { payload(content: string, firstComment: string): Record<string, unknown>; fault(): void; error: RegExp }) {
      describe(`${name}: a failed first comment`, () => {
        it('does not fail the post; the failure is recorded on the target', async () => {
          o.fault();
          const res = await h.post({ ...o.payload('comment will fail', 'hello'), publishNow: true });
          expect(res.statusCode, res.body).toBe(201);
          const t = await h.target(res.json().post._id);
          expect(t.status).toBe('published');
          expect(t.result?.extra?.firstComment).toMatchObject({ status: 'failed', error: expect.stringMatching(o.error) });
        });
      });
    },

    /** The first comment exactly once on the verify path: after an interruption that followed it, and after an answer lost before it. */
    firstCommentOnVerify(o: {
      /** A post with this first comment (`n` tells the two cases apart, e.g. to pick media). */
      payload(content: string, firstComment: string, n: 0 | 1): Record<string, unknown>;
      /** The comments on the platform's post. */
      comments(platformPostId: string): Array<{ id: string; text: string }>;
      titles: [string, string];
    }) {
      describe(`${name}: the first comment on the verify path`, () => {
        it(o.titles[0], async () => {
          const id = (await h.post({ ...o.payload('comment before the crash', 'only once', 0), scheduledFor: LATER })).json().post._id;
          await h.runDue(id);
          expect((await h.target(id)).status).toBe('published');
          const created = spec.created('comment before the crash');
          expect(created).toHaveLength(1);
          await h.forgetOutcome(id);
          await h.runDue(id);
          const t = await h.target(id);
          expect(t.status).toBe('published');
          expect(t.platform_post_id).toBe(created[0].id);
          const comments = o.comments(created[0].id);
          expect(comments).toHaveLength(1);
          expect(t.result?.extra?.firstComment).toMatchObject({ status: 'published', id: comments[0].id });
        });

        it(o.titles[1], async () => {
          spec.fault('drop_after_create', 'lostAnswer');
          const id = (await h.post({ ...o.payload('lost before the comment', 'late comment', 1), scheduledFor: LATER })).json().post._id;
          await h.runDue(id);
          expect((await h.target(id)).status).toBe('pending');
          await h.runDue(id);
          expect((await h.target(id)).status).toBe('published');
          const created = spec.created('lost before the comment');
          expect(created).toHaveLength(1);
          expect(o.comments(created[0].id).map((c) => c.text)).toEqual(['late comment']);
        });
      });
    },

    /** The failure modes of publishing; a case runs when its options are given. */
    failures(o: {
      /** 429: waits, then publishes once; `waiting` checks the waiting target (e.g. its run_at). */
      rateLimit?: { title?: string; waiting?(t: TargetRow): void };
      /** 5xx: retried, published once. */
      serverError?: { title?: string };
      /** An expired access token is refreshed and the post published. `expire` answers the check to run after (on the stored credentials). */
      expired?: { title: string; expire(): AfterRefresh | Promise<AfterRefresh>; twice?: boolean };
      /** The answer lost after the platform created the post: verify finds it, no second create. */
      lostAnswer?: { title?: string };
      /** The same under `n` newer posts: verify pages back past them (at least `minLists` list calls). */
      lostAnswerBurst?: { title?: string; n: number; minLists: number };
      /** The listing fails during verify: nothing created again, asked again later. */
      verifyUnreadable?: { title?: string };
      /** The call dropped before the platform acted: verify says not published, created once. `retry` checks around the second run. */
      dropped?: { title?: string; retry?(): () => void };
      /** The same with `n` posts since: the complete look-back finds nothing (at least `minLists` list calls), created once. */
      lookBack?: { title?: string; n: number; minLists?: number; retry?(): () => void };
      /** More failure cases of the platform, registered in the same describe after these. */
      more?(): void;
    }) {
      describe(`${name}: failure modes`, () => {
        const rl = o.rateLimit;
        if (rl) {
          it(rl.title ?? 'rate limited (429): the target waits and then publishes once', () => within('rateLimit', async () => {
            spec.fault('rate_limit', 'rateLimit');
            const id = await schedule('after the limit', 'rateLimit');
            await h.runDue(id);
            const waiting = await h.target(id);
            expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_rate_limit' });
            rl.waiting?.(waiting);
            await h.runDue(id);
            expect((await h.target(id)).status).toBe('published');
            once('after the limit');
          }));
        }

        if (o.serverError) {
          it(o.serverError.title ?? '5xx: retried with backoff, published once', () => within('serverError', async () => {
            spec.fault('server_error', 'serverError');
            const id = await schedule('after a 5xx', 'serverError');
            await h.runDue(id);
            expect((await h.target(id)).status).toBe('pending');
            await h.runDue(id);
            expect((await h.target(id)).status).toBe('published');
            once('after a 5xx');
          }));
        }

        const ex = o.expired;
        if (ex) {
          it(ex.title, () => within('expired', async () => {
            const check = await ex.expire();
            const res = await publishNow('after a refresh', 'expired');
            expect(res.statusCode, res.body).toBe(201);
            if (ex.twice) {
              // the refresh token works again (a rotated one was stored)
              await ex.expire();
              expect((await publishNow('after a second refresh', 'expired')).statusCode).toBe(201);
            }
            await check?.(await h.credentials());
          }));
        }

        if (o.lostAnswer) {
          it(o.lostAnswer.title ?? `answer lost after ${name} created the post: verify finds it, no duplicate`, () => within('lostAnswer', async () => {
            spec.fault('drop_after_create', 'lostAnswer');
            const id = await schedule('created but unanswered', 'lostAnswer');
            await h.runDue(id);
            expect((await h.target(id)).status).toBe('pending');
            const creates = spec.creates();
            await h.runDue(id);
            const t = await h.target(id);
            expect(t.status).toBe('published');
            expect(spec.creates()).toBe(creates);
            once('created but unanswered', t);
          }));
        }

        const burst = o.lostAnswerBurst;
        if (burst) {
          it(burst.title ?? `answer lost, then ${burst.n} newer posts: verify pages back past them and finds it, no second create`, () => within('lostAnswerBurst', async () => {
            spec.fault('drop_after_create', 'lostAnswerBurst');
            const id = await schedule('buried under a burst', 'lostAnswerBurst');
            await h.runDue(id);
            expect((await h.target(id)).status).toBe('pending');
            spec.bury!(burst.n, 'burst');
            const creates = spec.creates();
            const lists = spec.lists!();
            await h.runDue(id);
            const t = await h.target(id);
            expect(t.status, t.error_message ?? '').toBe('published');
            once('buried under a burst', t);
            expect(spec.creates()).toBe(creates);
            expect(spec.lists!() - lists).toBeGreaterThanOrEqual(burst.minLists);
          }));
        }

        if (o.verifyUnreadable) {
          it(o.verifyUnreadable.title ?? 'the listing cannot be read during verify: not created again, asked again later', () => within('verifyUnreadable', async () => {
            spec.fault('drop_after_create', 'verifyUnreadable');
            const id = await schedule('verify meets a limit', 'verifyUnreadable');
            await h.runDue(id);
            const creates = spec.creates();
            spec.fault('list_unreadable', 'verifyUnreadable');
            await h.runDue(id);
            const waiting = await h.target(id);
            // Still in doubt: the next run verifies again instead of committing.
            expect(waiting).toMatchObject({ status: 'pending', error_category: 'platform_error', in_doubt: true });
            expect(spec.creates()).toBe(creates);
            await h.runDue(id);
            expect((await h.target(id)).status).toBe('published');
            once('verify meets a limit');
            expect(spec.creates()).toBe(creates);
          }));
        }

        const dropped = o.dropped;
        if (dropped) {
          it(dropped.title ?? `connection dropped before ${name} acted: verify says not published, created once`, () => within('dropped', async () => {
            spec.fault('drop', 'dropped');
            const id = await schedule('dropped on the way', 'dropped');
            await h.runDue(id);
            expect((await h.target(id)).status).toBe('pending');
            expect(spec.created('dropped on the way')).toHaveLength(0);
            const after = dropped.retry?.();
            await h.runDue(id);
            expect((await h.target(id)).status).toBe('published');
            after?.();
            once('dropped on the way');
          }));
        }

        const lb = o.lookBack;
        if (lb) {
          it(lb.title ?? `connection dropped before ${name} acted, ${lb.n} posts since: the complete look-back finds nothing, created once`, () => within('lookBack', async () => {
            spec.fault('drop', 'lookBack');
            const id = await schedule('never arrived', 'lookBack');
            await h.runDue(id);
            spec.bury!(lb.n, 'later');
            const lists = spec.lists?.() ?? 0;
            const after = lb.retry?.();
            await h.runDue(id);
            const t = await h.target(id);
            expect(t.status).toBe('published');
            expect(t.result?.extra?.duplicateOf).toBeUndefined();
            after?.();
            once('never arrived');
            if (lb.minLists) expect(spec.lists!() - lists).toBeGreaterThanOrEqual(lb.minLists);
          }));
        }

        o.more?.();
      });
    },

    /**
     * Metrics (decision 0030), registered last in a file (it revokes the account at the end): on a newly
     * connected account, the refresh pass reads the platform's analytics endpoint and GET /v1/analytics
     * shows the counts in Herald's names, `null` for what the platform does not have; each read
     * stores a snapshot; a 429 on the metrics call backs the post off (no snapshot, read again
     * later); a revoked authorization marks the account for reconnection and later passes skip it.
     */
    metrics(o: {
      /** What Herald must show for the post, from the simulator's last answer (null: the platform has no such metric). */
      expected(platformPostId: string): Record<MetricName, number | null>;
      /** Adds one 429 at the metrics call. */
      rateLimit(): void;
      /** Revokes the authorization (the next read's token refresh is refused). */
      revoke(): void | Promise<void>;
      /** Connects a new account for these cases and answers its id (default: the harness's connectNew). */
      connect?(): Promise<string>;
      /** The post to read back (default: the contract's payload for the 'metrics' case). */
      payload?(content: string): Record<string, unknown>;
      /** A post kind without metrics on this platform, if any: its target ends unavailable, never zeros. */
      missing?: { title: string; payload(content: string): Record<string, unknown> };
    }) {
      describe(`${name}: metrics`, () => {
        const services = () => h.ctx.services;
        const db = () => h.ctx.db;
        beforeAll(async () => {
          // A fresh connection: earlier cases revoked the first one.
          h.accountId = o.connect ? await o.connect() : await h.connectNew();
          await services().users.setAddon(h.tenant.userId, 'analytics', true);
        });
        /** Follows what was published so far, then leaves only this post due. */
        const onlyDue = async (postId: string) => {
          await services().analytics.refreshDue();
          await db().query(`UPDATE post_metrics SET next_refresh_at = CASE WHEN post_id = $1 THEN now() - interval '1 second' ELSE NULL END`, [postId]);
        };
        const view = async (postId: string) => {
          const res = await h.ctx.app.inject({ method: 'GET', url: `/v1/analytics?postId=${postId}`, headers: h.tenant.headers });
          expect(res.statusCode, res.body).toBe(200);
          return res.json();
        };
        const publish = async (payload: Record<string, unknown>) => {
          const created = await h.post({ ...payload, publishNow: true });
          expect(created.statusCode, created.body).toBe(201);
          const id = created.json().post._id as string;
          const t = await h.target(id);
          expect(t.status).toBe('published');
          return { id, platformPostId: t.platform_post_id! };
        };
        const snapshots = async (postId: string) => Number((await db().query<{ n: string }>(
          'SELECT count(*) AS n FROM post_metric_snapshots s JOIN post_targets t ON t.id = s.target_id WHERE t.post_id = $1', [postId])).rows[0].n);
        let post: { id: string; platformPostId: string };

        it('reads the post\'s metrics from the platform: Herald\'s names, null where the platform has none; each read a snapshot', () => within('metrics', async () => {
          post = await publish(o.payload ? o.payload('metrics read back') : spec.payload('metrics read back', 'metrics'));
          await onlyDue(post.id);
          const pass = await services().analytics.refreshDue();
          expect(pass.refreshed).toBe(1);
          const v = await view(post.id);
          expect(v.syncStatus).toBe('synced');
          const { engagementRate: _rate, lastUpdated, ...counts } = v.platformAnalytics[0].analytics;
          expect(counts).toEqual(o.expected(post.platformPostId));
          expect(lastUpdated).toEqual(expect.any(String));
          const first = await snapshots(post.id);
          await onlyDue(post.id);
          await services().analytics.refreshDue();
          expect(await snapshots(post.id)).toBe(first + 1);
          const again = (await view(post.id)).platformAnalytics[0].analytics;
          const { engagementRate: _r2, lastUpdated: _l2, ...grown } = again;
          expect(grown).toEqual(o.expected(post.platformPostId));
        }));

        it('a 429 on the metrics call: no snapshot, the post backs off and is read on a later pass', () => within('metrics', async () => {
          await onlyDue(post.id);
          const before = await snapshots(post.id);
          o.rateLimit();
          const pass = await services().analytics.refreshDue();
          expect(pass.rateLimited).toBe(1);
          const { rows } = await db().query<{ next_refresh_at: Date; failures: number }>('SELECT next_refresh_at, failures FROM post_metrics WHERE post_id = $1', [post.id]);
          expect(rows[0].failures).toBe(1);
          expect(rows[0].next_refresh_at.getTime()).toBeGreaterThan(Date.now() + 60_000);
          expect(await snapshots(post.id)).toBe(before);
          await db().query('UPDATE post_metrics SET next_refresh_at = now() - interval \'1 second\' WHERE post_id = $1', [post.id]);
          expect((await services().analytics.refreshDue()).refreshed).toBe(1);
          expect(await snapshots(post.id)).toBe(before + 1);
        }));

        const missing = o.missing;
        if (missing) {
          it(missing.title, () => within('metrics', async () => {
            const p = await publish(missing.payload('no metrics here'));
            await onlyDue(p.id);
            await services().analytics.refreshDue();
            const v = await view(p.id);
            expect(v.platformAnalytics[0]).toMatchObject({ syncStatus: 'unavailable', analytics: null });
          }));
        }

        it('revoked authorization: the read marks the account for reconnection; later passes skip it and report it', () => within('metrics', async () => {
          await o.revoke();
          await onlyDue(post.id);
          const pass = await services().analytics.refreshDue();
          expect(pass.needsReconnect).toEqual([expect.objectContaining({ accountId: h.accountId, platform })]);
          expect(await h.account()).toMatchObject({ is_active: false, inactive_reason: expect.stringMatching(/reconnect/i) });
          await db().query('UPDATE post_metrics SET next_refresh_at = now() - interval \'1 second\' WHERE post_id = $1', [post.id]);
          const later = await services().analytics.refreshDue();
          expect(later).toMatchObject({ refreshed: 0, rateLimited: 0, failed: 0, needsReconnect: [expect.objectContaining({ accountId: h.accountId })] });
        }));
      });
    },

    /**
     * Unpublish (POST /v1/posts/{id}/unpublish): `publish(content)` publishes a post now; unpublish deletes it
     * on the platform, a second unpublish changes nothing (already_removed), `after` may check the platform's
     * own reads, and a post deleted on the platform first (`removeOnPlatform`) counts as deleted.
     */
    unpublish(o: {
      title: string;
      publish(content: string): ReturnType<PlatformHarness['post']>;
      onPlatform(platformPostId: string): boolean;
      removeOnPlatform(platformPostId: string): void;
      after?(platformPostId: string): void | Promise<void>;
    }) {
      describe(`${name}: unpublish`, () => {
        it(o.title, async () => {
          const unpublish = (postId: string) => h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/unpublish`, headers: h.tenant.headers, payload: {} });
          const res = await o.publish('Posted, then taken back');
          expect(res.statusCode, res.body).toBe(201);
          const { _id: postId, platforms: [t] } = res.json().post;
          expect(o.onPlatform(t.platformPostId)).toBe(true);
          for (const outcome of ['deleted', 'already_removed']) {
            const out = await unpublish(postId);
            expect(out.json()).toMatchObject({ success: true, post: { status: 'cancelled' }, results: [{ platform, outcome }] });
          }
          expect(o.onPlatform(t.platformPostId)).toBe(false);
          await o.after?.(t.platformPostId);
          const second = await o.publish(`Deleted on ${name} first`);
          expect(second.statusCode, second.body).toBe(201);
          const other = second.json().post;
          o.removeOnPlatform(other.platforms[0].platformPostId);
          expect((await unpublish(other._id)).json()).toMatchObject({ success: true, results: [{ platform, outcome: 'deleted' }] });
        });
      });
    },

    /** Revoked authorization (`revoke` may answer a check to run after): the post fails saying to reconnect, and the account shows it. */
    revoked(o: { title?: string; revoke(): After | Promise<After>; error?: RegExp }) {
      describe(`${name}: revoked authorization`, () => {
        it(o.title ?? 'revoked authorization: the account needs reconnecting and the target says so', () => within('revoked', async () => {
          const check = await o.revoke();
          const res = await publishNow('after revocation', 'revoked');
          expect(res.statusCode).toBe(207);
          expect(res.json().platformResults[0].error).toMatch(o.error ?? /reconnect/i);
          const acc = (await h.accounts()).find((a) => a._id === h.accountId);
          expect(acc).toMatchObject({ isActive: false, needsReconnection: true });
          await check?.();
        }));
      });
    },

    /** The token refresh job refreshes what expires soon, and marks an account whose refresh is refused. */
    refreshJob(o: {
      title: string;
      /** Makes the account's token due for refresh; answers what `check` compares with. */
      expire(id: string): Promise<unknown>;
      minTtlMs: number;
      check?(row: AccountRow, creds: Record<string, any>, before: any): void;
      /** Makes the platform refuse the next refresh. */
      refuse(): void;
    }) {
      describe(`${name}: token refresh job`, () => {
        it(o.title, async () => {
          const { refreshExpiringTokens } = await import('../../src/publishing/token-refresh.ts');
          const { ctx } = h;
          const id = await h.connectNew();
          const before = await o.expire(id);
          const deps = { db: ctx.db, adapters: ctx.services.adapters, accounts: ctx.services.accountsRepository };
          expect((await refreshExpiringTokens(deps)).refreshed).toBeGreaterThanOrEqual(1);
          const row = await h.account(id);
          expect(row.token_expires_at!.getTime()).toBeGreaterThan(Date.now() + o.minTtlMs);
          o.check?.(row, ctx.services.secrets.openJson(row.credentials), before);
          o.refuse();
          await o.expire(id);
          expect((await refreshExpiringTokens(deps)).deactivated).toBeGreaterThanOrEqual(1);
          expect(await h.account(id)).toMatchObject({ is_active: false, inactive_reason: expect.stringMatching(/reconnect/) });
        });
      });
    },
  };
}
