/**
 * The setup every platform contract test repeats: a simulator (or any servers the test
 * needs), the real app configured for it, a tenant with a profile, and a test publisher;
 * plus the readers those tests use (a post's target row, an account's stored row and
 * credentials) and the way they publish and run a post's due targets.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Publisher } from '../../src/publishing/publisher.ts';
import type { ServiceDeps } from '../../src/services.ts';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from './app.ts';
import { oauthConnect, type OAuthDance } from './oauth.ts';
import { runDue, startTestPublisher } from './publishing.ts';
import { multipart } from './png.ts';

/** The app settings that point a platform at its simulator (HERALD_{PLATFORM}_CLIENT_ID, _CLIENT_SECRET, _API_URL, _AUTH_URL). */
export function platformEnv(platform: string, sim: { clientId: string; clientSecret: string; url: string }): Record<string, string> {
  const p = `HERALD_${platform.toUpperCase()}`;
  return { [`${p}_CLIENT_ID`]: sim.clientId, [`${p}_CLIENT_SECRET`]: sim.clientSecret, [`${p}_API_URL`]: sim.url, [`${p}_AUTH_URL`]: sim.url };
}

/** A post target as the contract tests read it (one target per post). */
export interface TargetRow {
  status: string;
  error_message: string | null;
  error_category: string | null;
  platform_post_id: string | null;
  platform_post_url: string | null;
  run_at: Date | null;
  result: { extra?: Record<string, unknown> } | null;
  /** An unanswered commit or verify waits to be checked before anything else on its account. */
  in_doubt: boolean;
}

export async function readTarget(ctx: TestContext, postId: string): Promise<TargetRow> {
  const { rows } = await ctx.db.query<TargetRow>(
    'SELECT status, error_message, error_category, platform_post_id, platform_post_url, run_at, result, in_doubt FROM post_targets WHERE post_id = $1', [postId]);
  return rows[0];
}

/** An account's stored row (credentials still sealed). */
export interface AccountRow {
  credentials: string;
  username: string;
  platform_user_id: string;
  token_expires_at: Date | null;
  settings: Record<string, any>;
  is_active: boolean;
  inactive_reason: string | null;
}

export async function readAccount(ctx: TestContext, id: string): Promise<AccountRow> {
  const { rows } = await ctx.db.query<AccountRow>(
    'SELECT credentials, username, platform_user_id, token_expires_at, settings, is_active, inactive_reason FROM accounts WHERE id = $1', [id]);
  return rows[0];
}

/** What a connect returns: Herald's answer to the callback (or to the last selection step) and the authorize URL. */
export type ConnectResult = Pick<OAuthDance, 'authUrl'> & Partial<Omit<OAuthDance, 'done'>> & {
  done: { statusCode: number; headers: Record<string, unknown> };
  /** The selection step the callback sent the browser to, where the platform has one (null when it was skipped). */
  selectUrl?: URL | null;
};

export interface PlatformHarness {
  readonly ctx: TestContext;
  readonly tenant: Tenant;
  readonly profileId: string;
  readonly worker: Publisher;
  /** The account the shared cases publish with (set by the connect case). */
  accountId: string;
  /** POST /v1/posts as the tenant. */
  post(payload: object): Promise<Awaited<ReturnType<TestContext['app']['inject']>>>;
  /** Uploads files to Herald (POST /v1/media, multipart), which records their format, pixels and duration; answers the `files` entries. */
  upload(files: Array<{ filename: string; contentType: string; data: Buffer }>): Promise<Array<Record<string, any>>>;
  /** Makes the post's pending targets due now and runs them. */
  runDue(postId: string): Promise<number>;
  target(postId: string): Promise<TargetRow>;
  /** GET /v1/accounts of a profile (the harness profile by default). */
  accounts(profileId?: string): Promise<Array<Record<string, any>>>;
  account(id?: string): Promise<AccountRow>;
  /** The account's opened credentials. */
  credentials<T = Record<string, any>>(id?: string): Promise<T>;
  /** Connects through the platform's OAuth (and any selection step the platform adds). */
  connect(profileId: string, opts?: { tenant?: Tenant; redirectUrl?: string }): Promise<ConnectResult>;
  /** Connects on a new profile and returns the new account's id. */
  connectNew(): Promise<string>;
  /** Moves the stored access token's expiry 30 s ahead (credentials and column), so the next use refreshes it; returns the credentials as they were. */
  expireSoon<T = { accessToken: string; refreshToken: string }>(id?: string): Promise<T>;
  /** Moves only the token_expires_at column a minute ahead (what the refresh job selects by). */
  dueForRefresh(id?: string): Promise<void>;
  /** Leaves the post as a Herald that stopped after its last attempt acted, before recording the outcome: the next run verifies. */
  forgetOutcome(postId: string): Promise<void>;
}

export interface HarnessOptions {
  /** The platform, as in /v1/connect/{platform}. */
  platform: string;
  /** Names the test publisher's worker id. */
  tag: string;
  /** Starts the simulator and whatever else the test needs; answers the app's configuration. */
  setup(): Promise<{ env?: Record<string, string>; deps?: Partial<ServiceDeps> }>;
  /** Stops what setup started (after the app is closed). */
  teardown(): Promise<void>;
  /** A connect with a step after the callback (e.g. choosing the author). */
  connect?(h: PlatformHarness, dance: OAuthDance, tenant: Tenant): Promise<ConnectResult>;
  /** A platform connected without OAuth (a bot token): the whole connect, in place of the OAuth dance. */
  connectWithout?(h: PlatformHarness, profileId: string, tenant: Tenant, redirectUrl: string): Promise<ConnectResult>;
  setupTimeoutMs?: number;
}

export function platformHarness(opts: HarnessOptions): PlatformHarness {
  let ctx: TestContext;
  let tenant: Tenant;
  let profileId: string;
  let worker: Publisher;
  beforeAll(async () => {
    const { env, deps } = await opts.setup();
    // The contract cases run a verify right after an unanswered call and expect it settled: the
    // settle time is the test of late landings (test/flows/late-landing.test.ts), not of adapters.
    ctx = await createTestApp({ env: { HERALD_COMMIT_SETTLE_MS: '0', ...env }, deps });
    tenant = await createTenant(ctx);
    profileId = await createProfile(ctx, tenant);
    worker = await startTestPublisher(ctx, opts.tag);
  }, opts.setupTimeoutMs);
  afterAll(async () => {
    await ctx?.close();
    await opts.teardown();
  });
  const h: PlatformHarness = {
    get ctx() { return ctx; },
    get tenant() { return tenant; },
    get profileId() { return profileId; },
    get worker() { return worker; },
    accountId: '',
    post: (payload) => ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: tenant.headers, payload }),
    async upload(files) {
      const mp = multipart('files', files);
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/media', headers: { ...tenant.headers, 'content-type': mp.contentType }, payload: mp.payload });
      if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
      return res.json().files;
    },
    runDue: (postId) => runDue(ctx, worker, postId),
    target: (postId) => readTarget(ctx, postId),
    accounts: async (profile = profileId) => (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profile}`, headers: tenant.headers })).json().accounts,
    account: (id = h.accountId) => readAccount(ctx, id),
    credentials: async (id = h.accountId) => ctx.services.secrets.openJson((await readAccount(ctx, id)).credentials),
    async connect(profile, o = {}) {
      const t = o.tenant ?? tenant;
      if (opts.connectWithout) return opts.connectWithout(h, profile, t, o.redirectUrl ?? 'https://client.example/done');
      const dance = await oauthConnect(ctx, t, opts.platform, profile, o.redirectUrl);
      return opts.connect ? opts.connect(h, dance, t) : dance;
    },
    async connectNew() {
      const p = await createProfile(ctx, tenant);
      const { done } = await h.connect(p);
      return new URL(done.headers.location as string).searchParams.get('accountId')!;
    },
    async expireSoon(id = h.accountId) {
      const creds = await h.credentials(id);
      creds.expiresAt = new Date(Date.now() + 30_000).toISOString();
      await ctx.db.query(`UPDATE accounts SET credentials = $2, token_expires_at = now() + interval '30 seconds' WHERE id = $1`, [id, ctx.services.secrets.sealJson(creds)]);
      return creds as never;
    },
    async dueForRefresh(id = h.accountId) {
      await ctx.db.query(`UPDATE accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [id]);
    },
    async forgetOutcome(postId) {
      await ctx.db.query(`UPDATE publish_attempts SET outcome = NULL WHERE id = (SELECT max(a.id) FROM publish_attempts a JOIN post_targets pt ON pt.id = a.target_id WHERE pt.post_id = $1)`, [postId]);
      // As releasing a crashed claim leaves it: pending, in doubt (its last commit has no answer; decision 0018).
      await ctx.db.query(`UPDATE post_targets SET status = 'pending', in_doubt = true WHERE post_id = $1`, [postId]);
    },
  };
  return h;
}
