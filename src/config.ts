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

const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  HERALD_DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  HERALD_SECRET_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  HERALD_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  HERALD_EMBEDDED_PG_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 54329 }),
  HERALD_BLUESKY_SERVICE_URL: Type.String({ pattern: '^https?://', default: 'https://bsky.social' }),
  HERALD_DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 500, default: 20 }),
  HERALD_WORKER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  HERALD_WORKER_POLL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 500 }),
  HERALD_WORKER_STALE_MS: Type.Integer({ minimum: 500, maximum: 3_600_000, default: 30_000 }),
  HERALD_LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  HERALD_RATE_LIMIT: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
  HERALD_ALLOW_PRIVATE_URLS: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
});

/** Raw environment after defaults and coercion. */
export type Env = Static<typeof EnvSchema>;

/** Herald's parsed configuration. Paths are absolute. */
export interface Config {
  port: number;
  host: string;
  /** External PostgreSQL URL; when absent Herald runs embedded PostgreSQL under `dataDir/pg`. */
  databaseUrl?: string;
  /** Absolute data directory (embedded database, media files, generated secret key). */
  dataDir: string;
  /** 32-byte key for AES-256-GCM token encryption, hex; generated into the data dir when absent. */
  secretKeyHex?: string;
  /** Base URL under which Herald is reachable (media URLs); defaults to http://HOST:PORT. */
  publicUrl?: string;
  embeddedPgPort: number;
  blueskyServiceUrl: string;
  dbPoolSize: number;
  workerConcurrency: number;
  /** Longest idle sleep of the worker loop, ms. */
  workerPollMs: number;
  /** A process whose heartbeat is older than this loses its running targets to the reconciler, ms. */
  workerStaleMs: number;
  logLevel: string;
  rateLimit: boolean;
  /** Lets the SSRF guard reach loopback/private addresses (tests and local simulators only). */
  allowPrivateUrls: boolean;
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
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.HERALD_DATA_DIR),
    secretKeyHex: e.HERALD_SECRET_KEY?.toLowerCase(),
    publicUrl: e.HERALD_PUBLIC_URL?.replace(/\/+$/, ''),
    embeddedPgPort: e.HERALD_EMBEDDED_PG_PORT,
    blueskyServiceUrl: e.HERALD_BLUESKY_SERVICE_URL.replace(/\/+$/, ''),
    dbPoolSize: e.HERALD_DB_POOL_SIZE,
    workerConcurrency: e.HERALD_WORKER_CONCURRENCY,
    workerPollMs: e.HERALD_WORKER_POLL_MS,
    workerStaleMs: e.HERALD_WORKER_STALE_MS,
    logLevel: e.HERALD_LOG_LEVEL,
    rateLimit: e.HERALD_RATE_LIMIT === 'on',
    allowPrivateUrls: e.HERALD_ALLOW_PRIVATE_URLS === 'true',
  };
}
