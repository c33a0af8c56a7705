/**
 * Process configuration, parsed once from the environment at boot.
 *
 * Nothing else in Herald reads `process.env`: the parsed {@link Config} is passed
 * down explicitly (app factory, worker, CLI). A bad value fails fast with an error
 * naming the variable and the rule.
 */
import path from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { APP_PLATFORMS, OAUTH_PLATFORMS, type AppPlatform, type OAuthPlatform } from './shared/platforms.ts';
import { ADDON_IDS, isAddonId, isPlanId, type AddonId, type PlanId } from './shared/plans.ts';

const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  /** A session connection to the database itself, past a pooler: the worker's LISTEN and the migrations (decision 0068). */
  HERALD_DATABASE_DIRECT_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  /**
   * `transaction`: DATABASE_URL is a pooler in transaction mode (PgBouncer, a managed pooler): no session state;
   * `transaction-prepared`: the same, for a pooler that carries named prepared statements (PgBouncer 1.21+ with max_prepared_statements > 0) (decision 0068).
   */
  HERALD_DB_POOLER: Type.Union([Type.Literal('none'), Type.Literal('transaction'), Type.Literal('transaction-prepared')], { default: 'none' }),
  HERALD_DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  HERALD_SECRET_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  HERALD_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Origins (besides HERALD_PUBLIC_URL's) a connect flow's redirect_url may point at, comma-separated: docs/decisions/0046-connect-redirect-origins.md. */
  HERALD_CONNECT_REDIRECT_ORIGINS: Type.Optional(Type.String({ maxLength: 8000 })),
  HERALD_EMBEDDED_PG_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 54329 }),
  HERALD_BLUESKY_SERVICE_URL: Type.String({ pattern: '^https?://', default: 'https://bsky.social' }),
  /** Per-image cap of the PDSes Herald posts to: the current embed.images lexicon's 2,000,000; a PDS still on the older lexicon takes 1,000,000. */
  HERALD_BLUESKY_MAX_IMAGE_BYTES: Type.Integer({ minimum: 1, default: 2_000_000 }),
  /** Connections per process (decision 0042: 10, as many as PostgreSQL runs well at once on a small machine). */
  HERALD_DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 500, default: 10 }),
  /** Longest wait for a database connection, new or from the pool, ms (decision 0044). */
  HERALD_DB_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 5_000 }),
  /** PostgreSQL's statement_timeout for the pool's connections, ms; 0 turns it (and the client's wait) off (decision 0044). */
  HERALD_DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 5_000 }),
  /** How long GET /health waits for the database before it reports it down, ms (decision 0044). */
  HERALD_DB_HEALTH_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 1_500 }),
  /** Free space under which GET /health reports the media storage's disk as full, MB (decision 0044). */
  HERALD_MEDIA_MIN_FREE_MB: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 100 }),
  HERALD_WORKER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  HERALD_WORKER_POLL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 500 }),
  HERALD_WORKER_STALE_MS: Type.Integer({ minimum: 500, maximum: 3_600_000, default: 30_000 }),
  /** `MS` for every platform, `platform=MS` pairs, or both (`120000,bluesky=0`): decision 0045. */
  HERALD_COMMIT_SETTLE_MS: Type.Optional(Type.String({ pattern: '^(\\d{1,8}|[a-z]+=\\d{1,8})(,[a-z]+=\\d{1,8})*$' })),
  HERALD_LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  HERALD_RATE_LIMIT: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
  HERALD_ALLOW_PRIVATE_URLS: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
  HERALD_STORAGE: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  HERALD_S3_BUCKET: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' })),
  HERALD_S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  HERALD_S3_REGION: Type.String({ pattern: '^[a-z0-9-]{1,40}$', default: 'us-east-1' }),
  HERALD_S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  HERALD_S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  HERALD_S3_FORCE_PATH_STYLE: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
  HERALD_S3_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  HERALD_S3_URL_EXPIRES: Type.Integer({ minimum: 60, maximum: 604_800, default: 604_800 }),
  HERALD_UPLOAD_TOKEN_TTL: Type.Integer({ minimum: 60, maximum: 604_800, default: 3_600 }),
  HERALD_ANALYTICS_RATE_LIMIT: Type.Integer({ minimum: 1, maximum: 100_000, default: 30 }),
  HERALD_FFPROBE_PATH: Type.String({ minLength: 1, default: 'ffprobe' }),
  HERALD_FFMPEG_PATH: Type.String({ minLength: 1, default: 'ffmpeg' }),
  HERALD_METRICS: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'off' }),
  HERALD_METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, maxLength: 256 })),
  HERALD_CLIPS_CONCURRENCY: Type.Integer({ minimum: 0, maximum: 64, default: 1 }),
  HERALD_CLIPS_PRESET: Type.Enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow'], { default: 'veryfast' }),
  HERALD_CLIPS_OUTPUT_HEIGHT: Type.Integer({ minimum: 320, maximum: 3840, multipleOf: 16, default: 1280 }),
  HERALD_CLIPS_MAX_SOURCE_BYTES: Type.Integer({ minimum: 1, maximum: 4 * 1024 ** 3, default: 1024 ** 3 }),
  HERALD_CLIPS_MAX_DURATION: Type.Integer({ minimum: 15, maximum: 86_400, default: 10_800 }),
  HERALD_SUPPORT_EMAIL: Type.String({ pattern: '^[^\\s@<>"]+@[^\\s@<>"]+$', default: 'support@localhost' }),
  HERALD_DOCS_AI_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  HERALD_DOCS_AI_KEY: Type.Optional(Type.String({ minLength: 1 })),
  HERALD_DOCS_AI_MODEL: Type.String({ minLength: 1, default: 'gpt-4o-mini' }),
  HERALD_SANDBOX: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'off' }),
  HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
  HERALD_WEBHOOK_CONCURRENCY: Type.Integer({ minimum: 0, maximum: 500, default: 20 }),
  HERALD_WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  HERALD_WEBHOOK_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: 3_600_000, default: 30_000 }),
  HERALD_WEBHOOK_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 20, default: 8 }),
  HERALD_WEBHOOK_DISABLE_AFTER_HOURS: Type.Number({ minimum: 0.0001, maximum: 8_760, default: 72 }),
  HERALD_SIGNUP: Type.Union([Type.Literal('closed'), Type.Literal('open')], { default: 'closed' }),
  HERALD_STRIPE_SECRET_KEY: Type.Optional(Type.String({ pattern: '^(sk|rk)_' })),
  HERALD_STRIPE_WEBHOOK_SECRET: Type.Optional(Type.String({ pattern: '^whsec_' })),
  HERALD_STRIPE_PRICES: Type.Optional(Type.String({ minLength: 1 })),
  HERALD_STRIPE_API_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /**
   * Outgoing mail (password resets, decision 0050; approval requests, decisions and mentions, decision 0059): the SMTP
   * server; unset, Herald sends no mail and offers no password reset (approvals still work, without their mail).
   */
  HERALD_SMTP_HOST: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
  HERALD_SMTP_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  HERALD_SMTP_TLS: Type.Union([Type.Literal('auto'), Type.Literal('implicit'), Type.Literal('starttls'), Type.Literal('off')], { default: 'auto' }),
  HERALD_SMTP_USER: Type.Optional(Type.String({ minLength: 1 })),
  HERALD_SMTP_PASSWORD: Type.Optional(Type.String({ minLength: 1 })),
  HERALD_SMTP_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 320 })),
});

/** OAuth app settings of one platform, from `HERALD_<PLATFORM>_*` variables. */
export interface PlatformAppConfig {
  clientId?: string;
  clientSecret?: string;
  /** Overrides the platform's API base URL (simulators, proxies). */
  apiBaseUrl?: string;
  /** Overrides the platform's authorization host. */
  authBaseUrl?: string;
  /** The app's bot token (`HERALD_<PLATFORM>_BOT_TOKEN`), for a platform that publishes as the app's bot (Discord). */
  botToken?: string;
}

/** Platforms connected through OAuth 2.0 (Bluesky uses app passwords), from src/shared/platforms.ts. */
export { OAUTH_PLATFORMS, type OAuthPlatform };

/** Raw environment after defaults and coercion. */
export type Env = Static<typeof EnvSchema>;

/** Herald's parsed configuration. Paths are absolute. */
export interface Config {
  port: number;
  host: string;
  /** External PostgreSQL URL; when absent Herald runs embedded PostgreSQL under `dataDir/pg`. */
  databaseUrl?: string;
  /**
   * A connection to the database itself that keeps its session (HERALD_DATABASE_DIRECT_URL), for
   * what a pooler in transaction mode cannot carry: the worker's LISTEN and the migrations. Optional
   * (docs/decisions/0068-connection-pooler.md).
   */
  databaseDirectUrl?: string;
  /**
   * What DATABASE_URL points at (HERALD_DB_POOLER): `none`, PostgreSQL itself (or a pooler in session
   * mode); `transaction`, a pooler in transaction mode, where consecutive statements may run on
   * different server connections: no named prepared statements, no statement_timeout start-up
   * parameter, and without a direct URL no LISTEN (the worker polls); `transaction-prepared`, the same
   * but statements keep their names, for a pooler that prepares them on each server connection itself
   * (PgBouncer 1.21+ with max_prepared_statements > 0).
   */
  dbPooler: 'none' | 'transaction' | 'transaction-prepared';
  /** Absolute data directory (embedded database, media files, generated secret key). */
  dataDir: string;
  /** 32-byte key for AES-256-GCM token encryption, hex; generated into the data dir when absent. */
  secretKeyHex?: string;
  /** Base URL under which Herald is reachable (media URLs); defaults to http://HOST:PORT. */
  publicUrl?: string;
  /** Origins besides publicUrl's that a connect flow may send the browser back to (HERALD_CONNECT_REDIRECT_ORIGINS), as `URL.origin`. */
  connectRedirectOrigins: string[];
  embeddedPgPort: number;
  blueskyServiceUrl: string;
  /** Largest image Herald sends to a PDS, in bytes (HERALD_BLUESKY_MAX_IMAGE_BYTES). */
  blueskyMaxImageBytes: number;
  dbPoolSize: number;
  /** Database timeouts (HERALD_DB_*_TIMEOUT_MS, docs/decisions/0044-database-failures.md). */
  db: DbTimeoutsConfig;
  /**
   * Free space (bytes) under which GET /health reports the disk that Herald writes uploads to
   * as full (HERALD_MEDIA_MIN_FREE_MB; 0: only a write that failed for a full disk does).
   */
  mediaMinFreeBytes: number;
  workerConcurrency: number;
  /** Longest idle sleep of the worker loop, ms. */
  workerPollMs: number;
  /** A process whose heartbeat is older than this loses its running targets to the reconciler, ms. */
  workerStaleMs: number;
  /**
   * How long after an unanswered publish call a platform may still create the post, ms: a verify
   * that finds nothing sooner proves nothing, and no second publish call is made before it
   * (HERALD_COMMIT_SETTLE_MS; decision 0045). `byPlatform` overrides `default` per platform id.
   */
  commitSettleMs: { default: number; byPlatform: Record<string, number> };
  logLevel: string;
  rateLimit: boolean;
  /** GET /v1/analytics requests per user and hour (HERALD_ANALYTICS_RATE_LIMIT; 30 by default, decision 0030). Always on. */
  analyticsRateLimit: number;
  /** Lets the SSRF guard reach loopback/private addresses (tests and local simulators only). */
  allowPrivateUrls: boolean;
  /** Where media files live: local disk under `dataDir/media` (default) or an S3-compatible bucket. */
  storage: StorageConfig;
  /** Lifetime of a client-upload token (POST /v1/media with JSON), seconds. */
  uploadTokenTtlSeconds: number;
  /** ffprobe executable used to read media metadata (duration, dimensions, codecs). */
  ffprobePath: string;
  /** Support mailbox shown in the docs page's help block. */
  supportEmail: string;
  /** AI clipping (src/clips, docs/decisions/0028-clip-scoring.md). */
  clips: ClipsConfig;
  /** OpenAI-compatible chat endpoint for "Ask Docs AI" answers (base URL, e.g. https://host/v1); null: retrieval only. */
  docsAi: { url: string; apiKey?: string; model: string } | null;
  /**
   * OAuth apps per platform: `HERALD_<PLATFORM>_CLIENT_ID`, `_CLIENT_SECRET`, `_API_URL`,
   * `_AUTH_URL` (PLATFORM upper-cased, e.g. HERALD_TWITTER_CLIENT_ID); for a bot-token platform only `_API_URL` (HERALD_TELEGRAM_API_URL).
   */
  platformApps: Partial<Record<AppPlatform, PlatformAppConfig>>;
  /**
   * Sandbox mode (HERALD_SANDBOX=on, default off): the platform simulators run in-process on
   * loopback and every platform goes to them; real platform credentials are not used
   * (src/sandbox/index.ts, docs/decisions/0014-sandbox.md).
   */
  sandbox: boolean;
  /** Webhook delivery (src/modules/webhooks, docs/decisions/0038-webhook-outbox.md). */
  webhooks: WebhooksConfig;
  /**
   * GET /metrics in Prometheus format (HERALD_METRICS=on; default off). With HERALD_METRICS_TOKEN,
   * scrapers must send `Authorization: Bearer <token>` (src/observability).
   */
  metrics: { enabled: boolean; token: string | null };
  /** Self-service sign-up (HERALD_SIGNUP=open; default closed: users come from the CLI, first start and team invites). */
  signupOpen: boolean;
  /** Stripe billing (HERALD_STRIPE_*); null when not configured: plans are then managed with the CLI. */
  stripe: StripeConfig | null;
  /** Outgoing mail (HERALD_SMTP_*); null when not configured: no password reset by email and no approval mail. */
  smtp: SmtpConfig | null;
}

/** The SMTP server Herald sends mail through (password resets; approval requests, decisions and mentions). */
export interface SmtpConfig {
  host: string;
  port: number;
  /**
   * `implicit`: TLS from the first byte (port 465); `starttls`: plain connection upgraded with
   * STARTTLS, required; `auto`: implicit on port 465, else STARTTLS when the server offers it;
   * `off`: no TLS (a relay on the same host or a trusted network only).
   */
  tls: 'auto' | 'implicit' | 'starttls' | 'off';
  /** Credentials, both or neither. */
  user?: string;
  password?: string;
  /** The From address, e.g. `Herald <herald@example.com>`. */
  from: string;
}

/** Cross-field rules of the HERALD_SMTP_* variables. @throws ConfigError naming the variable. */
function smtpConfig(e: Env, supportEmail: string): SmtpConfig | null {
  const others = (['HERALD_SMTP_PORT', 'HERALD_SMTP_USER', 'HERALD_SMTP_PASSWORD', 'HERALD_SMTP_FROM'] as const).filter((k) => e[k] !== undefined);
  if (!e.HERALD_SMTP_HOST) {
    if (others.length) throw new ConfigError(others.map((k) => `${k}: needs HERALD_SMTP_HOST (the SMTP server)`));
    return null;
  }
  const problems: string[] = [];
  if (!!e.HERALD_SMTP_USER !== !!e.HERALD_SMTP_PASSWORD) problems.push(`${e.HERALD_SMTP_USER ? 'HERALD_SMTP_PASSWORD' : 'HERALD_SMTP_USER'}: set both HERALD_SMTP_USER and HERALD_SMTP_PASSWORD, or neither`);
  const from = e.HERALD_SMTP_FROM ?? `Herald <${supportEmail}>`;
  // A bare address or `Name <address>`, on one line.
  if (!/^(?:[^<>\r\n]*<[^\s@<>"]+@[^\s@<>"]+>|[^\s@<>"]+@[^\s@<>"]+)$/.test(from.trim())) problems.push(`HERALD_SMTP_FROM: must be an address or "Name <address>" (got ${JSON.stringify(from)})`);
  if (problems.length) throw new ConfigError(problems);
  const port = e.HERALD_SMTP_PORT ?? (e.HERALD_SMTP_TLS === 'implicit' ? 465 : 587);
  return { host: e.HERALD_SMTP_HOST, port, tls: e.HERALD_SMTP_TLS, user: e.HERALD_SMTP_USER, password: e.HERALD_SMTP_PASSWORD, from: from.trim() };
}

/** What a Stripe price buys: a plan with its billing period, or an add-on. */
export type StripePriceTarget = { kind: 'plan'; plan: PlanId; billingPeriod: 'monthly' | 'yearly' } | { kind: 'addon'; addon: AddonId };

/** Stripe billing settings (src/modules/billing). */
export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Stripe price id -> plan or add-on (HERALD_STRIPE_PRICES: `price_a=basic:monthly,price_b=basic:yearly,price_c=addon:analytics`). */
  prices: Record<string, StripePriceTarget>;
  /** Overrides Stripe's API base URL (tests run a local fake; default https://api.stripe.com). */
  apiUrl?: string;
}

/** Cross-field rules of the HERALD_STRIPE_* variables. @throws ConfigError naming the variable. */
function stripeConfig(e: Env): StripeConfig | null {
  if (!e.HERALD_STRIPE_SECRET_KEY && !e.HERALD_STRIPE_WEBHOOK_SECRET && !e.HERALD_STRIPE_PRICES) return null;
  const problems: string[] = [];
  if (!e.HERALD_STRIPE_SECRET_KEY) problems.push('HERALD_STRIPE_SECRET_KEY: is required when Stripe billing is configured');
  if (!e.HERALD_STRIPE_WEBHOOK_SECRET) problems.push('HERALD_STRIPE_WEBHOOK_SECRET: is required when Stripe billing is configured');
  const prices: Record<string, StripePriceTarget> = {};
  for (const entry of (e.HERALD_STRIPE_PRICES ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
    const m = /^([A-Za-z0-9_]+)=(?:addon:([a-z]+)|([a-z]+):(monthly|yearly))$/.exec(entry);
    if (m && m[2] !== undefined && isAddonId(m[2])) prices[m[1]] = { kind: 'addon', addon: m[2] };
    else if (m && m[3] !== undefined && isPlanId(m[3]) && m[3] !== 'free') prices[m[1]] = { kind: 'plan', plan: m[3], billingPeriod: m[4] as 'monthly' | 'yearly' };
    else problems.push(`HERALD_STRIPE_PRICES: "${entry}" must be <price id>=<plan>:<monthly|yearly> (a paid plan) or <price id>=addon:<${ADDON_IDS.join('|')}>`);
  }
  if (Object.keys(prices).length === 0 && problems.length === 0) problems.push('HERALD_STRIPE_PRICES: is required when Stripe billing is configured (at least one price)');
  if (problems.length) throw new ConfigError(problems);
  return { secretKey: e.HERALD_STRIPE_SECRET_KEY!, webhookSecret: e.HERALD_STRIPE_WEBHOOK_SECRET!, prices, apiUrl: e.HERALD_STRIPE_API_URL?.replace(/\/+$/, '') };
}

/**
 * The settle times of HERALD_COMMIT_SETTLE_MS. Unset: 2 minutes (longer than a publish call's
 * 30 s timeout plus the 60 s that gateways in front of platform APIs commonly hold a request),
 * and 0 for Bluesky, whose client-chosen record keys make a repeated create harmless.
 */
function commitSettle(v: string | undefined): Config['commitSettleMs'] {
  const out: Config['commitSettleMs'] = { default: 120_000, byPlatform: { bluesky: 0 } };
  for (const part of (v ?? '').split(',').filter(Boolean)) {
    const [k, ms] = part.includes('=') ? part.split('=') : [null, part];
    if (k === null) out.default = Number(ms);
    else out.byPlatform[k] = Number(ms);
  }
  return out;
}

/**
 * HERALD_CONNECT_REDIRECT_ORIGINS: comma-separated http(s) origins (`https://app.example.com`,
 * a port if not the default), answered as `URL.origin`. @throws ConfigError for an entry that is not one.
 */
function connectRedirectOrigins(v: string | undefined): string[] {
  const out = new Set<string>();
  const problems: string[] = [];
  for (const entry of (v ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
    let u: URL | null = null;
    try { u = new URL(entry); } catch { /* reported below */ }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.pathname !== '/' || u.search || u.hash) {
      problems.push(`HERALD_CONNECT_REDIRECT_ORIGINS: "${entry}" must be an http(s) origin, scheme and host (and port) only, e.g. https://app.example.com`);
    } else out.add(u.origin);
  }
  if (problems.length) throw new ConfigError(problems);
  return [...out];
}

/** Thrown when an environment variable is invalid; `problems` lists `NAME: rule` lines. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses configuration from an environment map (default `process.env`).
 * @throws ConfigError naming each invalid variable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const withDefaults = Value.Default(EnvSchema, raw);
  const converted = Value.Convert(EnvSchema, withDefaults);
  if (!Value.Check(EnvSchema, converted)) {
    const problems = Value.Errors(EnvSchema, converted).map((e) => {
      const name = e.instancePath.replace(/^\//, '') || String((e.params as Record<string, unknown>).requiredProperties ?? '');
      return `${name}: ${e.message} (got ${JSON.stringify(raw[name] ?? null)})`;
    });
    throw new ConfigError(problems);
  }
  const e = converted as Env;
  const platformApps: Config['platformApps'] = {};
  const urlProblems: string[] = [];
  for (const p of APP_PLATFORMS) {
    const v = (suffix: string) => env[`HERALD_${p.toUpperCase()}_${suffix}`]?.trim() || undefined;
    const app: PlatformAppConfig = { clientId: v('CLIENT_ID'), clientSecret: v('CLIENT_SECRET'), apiBaseUrl: v('API_URL'), authBaseUrl: v('AUTH_URL'), botToken: v('BOT_TOKEN') };
    for (const [k, u] of [['API_URL', app.apiBaseUrl], ['AUTH_URL', app.authBaseUrl]] as const) {
      if (u && !/^https?:\/\//.test(u)) urlProblems.push(`HERALD_${p.toUpperCase()}_${k}: must be an http(s) URL (got ${JSON.stringify(u)})`);
    }
    if (Object.values(app).some(Boolean)) platformApps[p] = app;
  }
  if (!e.DATABASE_URL) {
    // Both describe the path to an external database; the embedded one is reached directly.
    if (e.HERALD_DATABASE_DIRECT_URL) urlProblems.push('HERALD_DATABASE_DIRECT_URL: needs DATABASE_URL (the embedded PostgreSQL is reached directly)');
    if (e.HERALD_DB_POOLER !== 'none') urlProblems.push('HERALD_DB_POOLER: needs DATABASE_URL (the pooler\'s address; the embedded PostgreSQL has none)');
  }
  if (urlProblems.length) throw new ConfigError(urlProblems);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.HERALD_DATABASE_DIRECT_URL,
    dbPooler: e.HERALD_DB_POOLER,
    dataDir: path.resolve(e.HERALD_DATA_DIR),
    secretKeyHex: e.HERALD_SECRET_KEY?.toLowerCase(),
    publicUrl: e.HERALD_PUBLIC_URL?.replace(/\/+$/, ''),
    connectRedirectOrigins: connectRedirectOrigins(e.HERALD_CONNECT_REDIRECT_ORIGINS),
    embeddedPgPort: e.HERALD_EMBEDDED_PG_PORT,
    blueskyServiceUrl: e.HERALD_BLUESKY_SERVICE_URL.replace(/\/+$/, ''),
    blueskyMaxImageBytes: e.HERALD_BLUESKY_MAX_IMAGE_BYTES,
    dbPoolSize: e.HERALD_DB_POOL_SIZE,
    db: { connectTimeoutMs: e.HERALD_DB_CONNECT_TIMEOUT_MS, statementTimeoutMs: e.HERALD_DB_STATEMENT_TIMEOUT_MS, healthTimeoutMs: e.HERALD_DB_HEALTH_TIMEOUT_MS },
    mediaMinFreeBytes: e.HERALD_MEDIA_MIN_FREE_MB * 1024 * 1024,
    workerConcurrency: e.HERALD_WORKER_CONCURRENCY,
    workerPollMs: e.HERALD_WORKER_POLL_MS,
    workerStaleMs: e.HERALD_WORKER_STALE_MS,
    commitSettleMs: commitSettle(e.HERALD_COMMIT_SETTLE_MS),
    logLevel: e.HERALD_LOG_LEVEL,
    rateLimit: e.HERALD_RATE_LIMIT === 'on',
    analyticsRateLimit: e.HERALD_ANALYTICS_RATE_LIMIT,
    allowPrivateUrls: e.HERALD_ALLOW_PRIVATE_URLS === 'true',
    storage: storageConfig(e),
    uploadTokenTtlSeconds: e.HERALD_UPLOAD_TOKEN_TTL,
    ffprobePath: e.HERALD_FFPROBE_PATH,
    supportEmail: e.HERALD_SUPPORT_EMAIL,
    clips: {
      ffmpegPath: e.HERALD_FFMPEG_PATH, ffprobePath: e.HERALD_FFPROBE_PATH, concurrency: e.HERALD_CLIPS_CONCURRENCY,
      preset: e.HERALD_CLIPS_PRESET, outputHeight: e.HERALD_CLIPS_OUTPUT_HEIGHT,
      maxSourceBytes: e.HERALD_CLIPS_MAX_SOURCE_BYTES, maxDurationSeconds: e.HERALD_CLIPS_MAX_DURATION,
    },
    docsAi: e.HERALD_DOCS_AI_URL ? { url: e.HERALD_DOCS_AI_URL.replace(/\/+$/, ''), apiKey: e.HERALD_DOCS_AI_KEY, model: e.HERALD_DOCS_AI_MODEL } : null,
    platformApps,
    sandbox: e.HERALD_SANDBOX === 'on',
    metrics: { enabled: e.HERALD_METRICS === 'on', token: e.HERALD_METRICS_TOKEN ?? null },
    webhooks: {
      allowPrivateUrls: e.HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS === 'true', concurrency: e.HERALD_WEBHOOK_CONCURRENCY,
      timeoutMs: e.HERALD_WEBHOOK_TIMEOUT_MS, retryBaseMs: e.HERALD_WEBHOOK_RETRY_BASE_MS, maxAttempts: e.HERALD_WEBHOOK_MAX_ATTEMPTS,
      disableAfterSeconds: Math.round(e.HERALD_WEBHOOK_DISABLE_AFTER_HOURS * 3600),
    },
    signupOpen: e.HERALD_SIGNUP === 'open',
    stripe: stripeConfig(e),
    smtp: smtpConfig(e, e.HERALD_SUPPORT_EMAIL),
  };
}

/** Database timeouts (docs/decisions/0044-database-failures.md). */
export interface DbTimeoutsConfig {
  /** Longest wait for a connection: connecting a new one, or waiting for a free one in the pool, ms. */
  connectTimeoutMs: number;
  /**
   * PostgreSQL's statement_timeout on the pool's connections, ms; the client gives up on a
   * statement a second later when the server does not answer at all. 0: neither.
   */
  statementTimeoutMs: number;
  /** The database check of GET /health gives up after this, ms. */
  healthTimeoutMs: number;
}

/** Webhook delivery settings (HERALD_WEBHOOK*). */
export interface WebhooksConfig {
  /**
   * Lets webhook URLs point at loopback/private addresses (HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS,
   * default false; development and tests only). Separate from HERALD_ALLOW_PRIVATE_URLS.
   */
  allowPrivateUrls: boolean;
  /** Deliveries sent at once per worker process (0: this worker delivers none). */
  concurrency: number;
  /** Time a receiver has to answer, ms. */
  timeoutMs: number;
  /** Delay before the first retry, ms; each next one is 4 times longer (with jitter). */
  retryBaseMs: number;
  /** Attempts per delivery, the first included; then the delivery is failed. */
  maxAttempts: number;
  /** A webhook failing without a single success for this long is disabled, seconds. */
  disableAfterSeconds: number;
}

/** AI clipping settings (HERALD_FFMPEG_PATH and HERALD_CLIPS_*). */
export interface ClipsConfig {
  /** ffmpeg executable for analysis and encoding. */
  ffmpegPath: string;
  ffprobePath: string;
  /** Clip jobs one worker process runs at once (CPU-heavy; 0: this worker runs none). */
  concurrency: number;
  /** x264 preset of the clip encodes (faster presets: larger files, less CPU). */
  preset: 'ultrafast' | 'superfast' | 'veryfast' | 'faster' | 'fast' | 'medium' | 'slow';
  /** Height of the 9:16 output in pixels (width = height * 9 / 16). */
  outputHeight: number;
  /** Largest source video fetched, bytes (checked against Content-Length before the download). */
  maxSourceBytes: number;
  /** Longest source video accepted, seconds. */
  maxDurationSeconds: number;
}

/** Media storage backend settings (HERALD_STORAGE and HERALD_S3_*). */
export type StorageConfig =
  | { kind: 'local' }
  | {
    kind: 's3';
    bucket: string;
    /** S3-compatible endpoint (MinIO, R2, ...); absent: AWS S3 for the region. */
    endpoint?: string;
    region: string;
    /** Static credentials; absent: the AWS SDK's default chain (environment, instance role). */
    credentials?: { accessKeyId: string; secretAccessKey: string };
    forcePathStyle: boolean;
    /** Public base URL of the bucket (CDN); absent: media URLs are presigned GET URLs. */
    publicUrl?: string;
    /** Lifetime of presigned GET URLs, seconds (at most 7 days, the SigV4 maximum). */
    urlExpiresSeconds: number;
  };

/** Cross-field rules of the storage variables. @throws ConfigError naming the variable. */
function storageConfig(e: Env): StorageConfig {
  if (e.HERALD_STORAGE === 'local') return { kind: 'local' };
  const problems: string[] = [];
  if (!e.HERALD_S3_BUCKET) problems.push('HERALD_S3_BUCKET: is required when HERALD_STORAGE=s3');
  if (!!e.HERALD_S3_ACCESS_KEY_ID !== !!e.HERALD_S3_SECRET_ACCESS_KEY) {
    problems.push(`${e.HERALD_S3_ACCESS_KEY_ID ? 'HERALD_S3_SECRET_ACCESS_KEY' : 'HERALD_S3_ACCESS_KEY_ID'}: HERALD_S3_ACCESS_KEY_ID and HERALD_S3_SECRET_ACCESS_KEY go together`);
  }
  if (problems.length) throw new ConfigError(problems);
  return {
    kind: 's3',
    bucket: e.HERALD_S3_BUCKET!,
    endpoint: e.HERALD_S3_ENDPOINT?.replace(/\/+$/, ''),
    region: e.HERALD_S3_REGION,
    credentials: e.HERALD_S3_ACCESS_KEY_ID ? { accessKeyId: e.HERALD_S3_ACCESS_KEY_ID, secretAccessKey: e.HERALD_S3_SECRET_ACCESS_KEY! } : undefined,
    forcePathStyle: e.HERALD_S3_FORCE_PATH_STYLE === 'true',
    publicUrl: e.HERALD_S3_PUBLIC_URL?.replace(/\/+$/, ''),
    urlExpiresSeconds: e.HERALD_S3_URL_EXPIRES,
  };
}
