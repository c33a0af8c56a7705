/**
 * Sandbox mode (HERALD_SANDBOX=on, off by default; docs/decisions/0014-sandbox.md).
 *
 * The platform simulators of `sim/` run inside the Herald process on 127.0.0.1, and every
 * platform is pointed at them: the OAuth apps (client id, secret, API and authorization base
 * URLs) come from the simulators, Bluesky logs in at a local PDS (`@atproto/dev-env`). Sandbox is
 * all-or-nothing: real platform credentials in the environment are NOT used, a platform without a
 * simulator cannot be connected, and nothing reaches a real platform.
 *
 * Accounts connected in sandbox mode are stored with `settings.sandbox = true`; the publisher only
 * publishes sandbox accounts in sandbox mode and only real accounts outside it, so a sandbox token
 * never goes to a real platform nor a real token to a simulator. Every /v1 response carries
 * `X-Herald-Sandbox: true` and GET /health `sandbox: true`; GET /v1/sandbox describes the sandbox.
 *
 * Simulators that download media by URL (Instagram, Threads, Facebook, TikTok) fetch through
 * Herald's SSRF guard (sim/common/fetch-media.ts): the caller's URL cannot reach loopback or the
 * private network through them. Herald's own media, served from its loopback origin here, is
 * allowed by URL prefix ({@link Sandbox.trustHeraldMedia}, called by createServices); private
 * addresses in general only when Herald itself allows them (HERALD_ALLOW_PRIVATE_URLS=true).
 *
 * Adding a simulator: one line in {@link SANDBOX_SIMULATORS}.
 */
import net from 'node:net';
import type { Config } from '../config.ts';
import { APP_PLATFORMS, BOT_TOKEN_PLATFORMS, INSTANCE_PLATFORMS, type AppPlatform } from '../shared/platforms.ts';
import { AppError } from '../core/errors.ts';
import { createAdapterRegistry, type AdapterRegistry } from '../platforms/registry.ts';
import type { SimMediaFetchPolicy } from '../../sim/common/fetch-media.ts';
// Type only (erased at run time): the PDS module is loaded on demand, since @atproto/dev-env is a devDependency.
import type * as BlueskyPds from '../../sim/bluesky-pds.ts';

type BlueskyPdsModule = typeof BlueskyPds;

/** What every `start<Name>Simulator()` returns (plus its own state: posts, tweets, pins, ...). */
export interface SandboxSimulator {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The simulated app's bot token, for a platform that publishes as the app's bot (Discord). */
  botToken?: string;
  close(): Promise<void>;
}

/** What startSandbox hands every simulator. */
export interface SandboxSimulatorContext {
  /** The media download policy of the sandbox (one object, updated by {@link Sandbox.trustHeraldMedia}). */
  mediaFetch: SimMediaFetchPolicy;
}

export interface SandboxSimulatorEntry {
  /** An OAuth platform, or a bot-token one (its simulator's URL becomes the API base URL). */
  platform: AppPlatform;
  /** Starts the simulator on 127.0.0.1 (a free port). Imported lazily: sandbox-off processes never load sim/. */
  start(ctx: SandboxSimulatorContext): Promise<SandboxSimulator>;
}

/** The simulated OAuth platforms. A new simulator needs one line here. */
export const SANDBOX_SIMULATORS: SandboxSimulatorEntry[] = [
  { platform: 'twitter', start: async () => (await import('../../sim/twitter/server.ts')).startXSimulator() },
  { platform: 'reddit', start: async () => (await import('../../sim/reddit/server.ts')).startRedditSimulator() },
  { platform: 'pinterest', start: async ({ mediaFetch }) => (await import('../../sim/pinterest/server.ts')).startPinterestSimulator({ mediaFetch }) },
  { platform: 'linkedin', start: async () => (await import('../../sim/linkedin/server.ts')).startLinkedInSimulator() },
  { platform: 'threads', start: async ({ mediaFetch }) => (await import('../../sim/threads/server.ts')).startThreadsSimulator({ mediaFetch }) },
  { platform: 'facebook', start: async ({ mediaFetch }) => (await import('../../sim/facebook/server.ts')).startFacebookSimulator({ mediaFetch }) },
  { platform: 'instagram', start: async ({ mediaFetch }) => (await import('../../sim/instagram/server.ts')).startInstagramSimulator({ mediaFetch }) },
  { platform: 'tiktok', start: async ({ mediaFetch }) => (await import('../../sim/tiktok/server.ts')).startTikTokSimulator({ mediaFetch }) },
  { platform: 'youtube', start: async () => (await import('../../sim/youtube/server.ts')).startYouTubeSimulator() },
  { platform: 'googlebusiness', start: async ({ mediaFetch }) => (await import('../../sim/googlebusiness/server.ts')).startGoogleBusinessSimulator({ mediaFetch, moderationMs: 5_000 }) },
  { platform: 'discord', start: async () => (await import('../../sim/discord/server.ts')).startDiscordSimulator() },
  { platform: 'telegram', start: async () => (await import('../../sim/telegram/server.ts')).startTelegramSimulator() },
  { platform: 'mastodon', start: async () => (await import('../../sim/mastodon/server.ts')).startMastodonSimulator() },
];

/** Handle of the ready-made Bluesky account (`.test` is the dev PDS's domain; "sandbox" is a reserved handle). */
export const SANDBOX_BLUESKY_HANDLE = 'herald-demo.test';

/** The ready-made Bluesky account on the sandbox PDS. */
export interface SandboxBlueskyAccount {
  serviceUrl: string;
  identifier: string;
  did: string;
  appPassword: string;
}

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface StartSandboxOptions {
  log?: Logger;
  /** Start the local Bluesky PDS (default true; takes a few seconds). */
  bluesky?: boolean;
  /** Which simulators to start (default {@link SANDBOX_SIMULATORS}). */
  simulators?: SandboxSimulatorEntry[];
  /** Environment variables set by the operator, to name the real credentials that are ignored. */
  env?: Record<string, string | undefined>;
}

export interface Sandbox {
  /** Simulated OAuth platforms and their running simulators. */
  readonly simulators: ReadonlyMap<AppPlatform, SandboxSimulator>;
  /** The Bluesky test account, or null when the local PDS is not available. */
  readonly bluesky: SandboxBlueskyAccount | null;
  /** The configuration with every platform pointed at its simulator (and `sandbox: true`). */
  configure(config: Config): Config;
  /** The adapter registry for a configured sandbox: refuses platforms without a simulator. */
  adapterRegistry(config: Config): AdapterRegistry;
  /** What GET /v1/sandbox answers. `baseUrl` is Herald's public URL. */
  describe(baseUrl: string): SandboxDescription;
  /**
   * What a simulator holds now (posts, media, calls), for GET /v1/sandbox/{platform}/state; null
   * when not simulated. `only`: the platform ids of one user's posts; every list is then cut to
   * what names one of them ({@link ownedOnly}), since all sandbox users share one simulated account.
   */
  state(platform: string, only?: ReadonlySet<string>): Promise<Record<string, unknown> | null>;
  /**
   * Lets the simulators download Herald's own media: URLs under `urlPrefixes` (Herald's media
   * base URLs, on loopback in sandbox mode; added to those already trusted), and any private
   * address only when `allowPrivate` (Herald's HERALD_ALLOW_PRIVATE_URLS). Everything else a
   * caller names goes through the SSRF guard.
   */
  trustHeraldMedia(opts: { urlPrefixes: string[]; allowPrivate: boolean }): void;
  close(): Promise<void>;
}

export interface SandboxDescription {
  enabled: true;
  message: string;
  platforms: Array<{ platform: string; simulatorUrl: string; connect: string; stateUrl: string }>;
  notSimulated: string[];
  bluesky: (SandboxBlueskyAccount & { connect: string; stateUrl: string }) | null;
  walkthrough: string[];
}

/** JSON-safe copy of a simulator's state: bytes summarised, Maps as objects, long lists cut to the last `limit`. */
export function plainState(v: unknown, limit = 50, depth = 0): unknown {
  if (depth > 8) return '…';
  if (v === null || v === undefined) return v ?? null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'function') return undefined;
  if (typeof v !== 'object') return v;
  if (v instanceof Uint8Array) return `<${v.byteLength} bytes>`;
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Map) return Object.fromEntries([...v.entries()].slice(-limit).map(([k, x]) => [String(k), plainState(x, limit, depth + 1)]));
  if (v instanceof Set) return [...v].slice(-limit).map((x) => plainState(x, limit, depth + 1));
  if (Array.isArray(v)) return v.slice(-limit).map((x) => plainState(x, limit, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const p = plainState(x, limit, depth + 1);
    if (p !== undefined) out[k] = p;
  }
  return out;
}

/** Fields of a simulator handle that are not state (the Fastify app, the client secret). */
const NOT_STATE = new Set(['app', 'clientSecret', 'botToken', 'close']);

/** The simulators' fixed lists (the simulated user's pages, organizations, boards, subreddits): the same for every user, shown whole. */
const SHARED_FIXTURES = new Set(['pages', 'orgs', 'boards', 'subreddits']);

/** True when `x` is one of `ids`, or an object with a top-level value in `ids` (its own id, or the post it belongs to). */
function namesOneOf(x: unknown, ids: ReadonlySet<string>): boolean {
  const scalar = (y: unknown) => (typeof y === 'string' || typeof y === 'number' || typeof y === 'bigint') && ids.has(String(y));
  if (scalar(x)) return true;
  return !!x && typeof x === 'object' && Object.values(x).some(scalar);
}

/**
 * One user's part of a simulator's state value: arrays, Sets and Maps keep only the entries that
 * name one of `ids` (a Map entry also by its key); an object of a class (the metrics book) has its
 * collections cut the same way; plain values and plain objects (the simulated user) stay.
 */
export function ownedOnly(v: unknown, ids: ReadonlySet<string>, depth = 0): unknown {
  if (Array.isArray(v)) return v.filter((x) => namesOneOf(x, ids));
  if (v instanceof Set) return new Set([...v].filter((x) => namesOneOf(x, ids)));
  if (v instanceof Map) return new Map([...v].filter(([k, x]) => ids.has(String(k)) || namesOneOf(x, ids)));
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) !== Object.prototype && !(v instanceof Date) && !(v instanceof Uint8Array) && depth < 3) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = ownedOnly(x, ids, depth + 1);
    return out;
  }
  return v;
}

/**
 * Runs `fn` with `server.listen(port[, cb])` calls (no host) bound to 127.0.0.1: @atproto/dev-env's
 * PDS and PLC servers listen on every interface and have no option for it. Only the port-only
 * forms are changed, and only while `fn` runs (Herald itself listens later, with its HOST).
 */
async function onLoopback<T>(fn: () => Promise<T>): Promise<T> {
  const proto = net.Server.prototype as unknown as { listen: (...args: unknown[]) => unknown };
  const original = proto.listen;
  proto.listen = function listen(this: unknown, ...args: unknown[]) {
    if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) args.splice(1, 0, '127.0.0.1');
    return original.apply(this, args);
  };
  try {
    return await fn();
  } finally {
    proto.listen = original;
  }
}

/**
 * Starts the simulators (and the Bluesky PDS when available) on loopback.
 * @throws when a simulator fails to start (after closing the ones already started).
 */
export async function startSandbox(opts: StartSandboxOptions = {}): Promise<Sandbox> {
  const log = opts.log;
  const simulators = new Map<AppPlatform, SandboxSimulator>();
  const entries = opts.simulators ?? SANDBOX_SIMULATORS;
  let pds: { close(): Promise<void>; listPosts(did: string): Promise<unknown[]> } | null = null;
  let bluesky: SandboxBlueskyAccount | null = null;
  const mediaPrefixes = new Set<string>();
  const mediaFetch: SimMediaFetchPolicy = { allowPrivate: false, allowPrefixes: mediaPrefixes };
  try {
    const started = await Promise.all(entries.map(async (e) => [e.platform, await e.start({ mediaFetch })] as const));
    for (const [p, sim] of started) simulators.set(p, sim);
    if (opts.bluesky !== false) {
      let mod: BlueskyPdsModule | null = null;
      try {
        mod = await import('../../sim/bluesky-pds.ts');
      } catch (err) {
        log?.warn({ err: (err as Error).message },
          'sandbox: Bluesky is NOT simulated: the local PDS needs @atproto/dev-env (a devDependency; `npm ci` installs it, `npm ci --omit=dev` does not). Bluesky cannot be connected in this sandbox.');
      }
      if (mod) {
        let harness: Awaited<ReturnType<typeof mod.startBlueskyPds>> | null = null;
        try {
          harness = await onLoopback(() => mod.startBlueskyPds());
          const acct = await harness.createAccount(SANDBOX_BLUESKY_HANDLE);
          bluesky = { serviceUrl: harness.url, identifier: acct.handle, did: acct.did, appPassword: acct.appPassword };
          pds = harness;
        } catch (err) {
          await harness?.close().catch(() => undefined);
          log?.warn({ err: (err as Error).message }, 'sandbox: Bluesky is NOT simulated: the local PDS did not start. Bluesky cannot be connected in this sandbox.');
        }
      }
    }
  } catch (err) {
    await Promise.allSettled([...simulators.values()].map((s) => s.close()));
    throw err;
  }

  const ignored = Object.keys(opts.env ?? {}).filter((k) => /^HERALD_[A-Z]+_(CLIENT_ID|CLIENT_SECRET|API_URL|AUTH_URL|BOT_TOKEN)$/.test(k) && opts.env![k]);
  if ((opts.env ?? {}).HERALD_BLUESKY_SERVICE_URL) ignored.push('HERALD_BLUESKY_SERVICE_URL');
  log?.warn({
    simulated: [...simulators.keys()],
    bluesky: bluesky ? { serviceUrl: bluesky.serviceUrl, identifier: bluesky.identifier } : 'not simulated',
    notSimulated: APP_PLATFORMS.filter((p) => !simulators.has(p)),
    ignoredSettings: ignored,
  }, 'SANDBOX MODE (HERALD_SANDBOX=on): every platform goes to a local simulator on 127.0.0.1; nothing is posted to real platforms, and real platform credentials from the environment are NOT used. Platforms without a simulator cannot be connected. GET /v1/sandbox describes it.');

  /**
   * The platforms served by a local server instead of a simulator (the Bluesky PDS, when it
   * started), with what GET /v1/sandbox/{platform}/state shows of them.
   */
  const localServers = new Map<string, { state(cut: (k: string, v: unknown) => unknown): Promise<Record<string, unknown>> }>();
  if (bluesky && pds) {
    const account = bluesky;
    const server = pds;
    localServers.set('bluesky', {
      state: async (cut) => ({ account: { handle: account.identifier, did: account.did }, posts: plainState(cut('posts', await server.listPosts(account.did))) }),
    });
  }

  const notSimulatedError = (platform: string) => new AppError('BAD_REQUEST',
    `${platform} has no simulator in this sandbox, and sandbox mode never uses real platform credentials; simulated: ${[...simulators.keys(), ...(bluesky ? ['bluesky'] : [])].join(', ')}`,
    { platform, sandbox: true });

  return {
    simulators,
    bluesky,
    configure(config) {
      const platformApps: Config['platformApps'] = {};
      for (const [p, sim] of simulators) platformApps[p] = { clientId: sim.clientId, clientSecret: sim.clientSecret, apiBaseUrl: sim.url, authBaseUrl: sim.url, ...(sim.botToken ? { botToken: sim.botToken } : {}) };
      return { ...config, sandbox: true, platformApps, blueskyServiceUrl: bluesky?.serviceUrl ?? config.blueskyServiceUrl };
    },
    adapterRegistry(config) {
      const inner = createAdapterRegistry(config);
      return {
        ...inner,
        sandbox: true,
        oauth(platform) {
          if (!simulators.has(platform)) throw notSimulatedError(platform);
          return inner.oauth(platform);
        },
        connectShape(platform) {
          // A platform connected with an app password logs in at its local server, or is refused.
          const shape = inner.connectShape(platform);
          // A bot-token platform calls its simulator (configure set its API base URL), or is refused.
          if (shape.kind === 'bot-token') return simulators.has(platform as AppPlatform) ? shape : { ...shape, login: async () => { throw notSimulatedError(platform); } };
          // A platform connected through an instance the user names: the simulator is the instance.
          if (shape.kind === 'instance-oauth') {
            const sim = simulators.get(platform as AppPlatform);
            if (!sim) return { ...shape, register: async () => { throw notSimulatedError(platform); } };
            return { ...shape, fixedInstanceUrl: sim.url };
          }
          if (shape.kind !== 'app-password' || localServers.has(platform)) return shape;
          return { ...shape, login: async () => { throw notSimulatedError(platform); } };
        },
      };
    },
    describe(baseUrl) {
      return {
        enabled: true,
        message: 'Sandbox mode: every platform goes to a local simulator; nothing is posted to real platforms and real platform credentials are not used.',
        platforms: [...simulators].map(([platform, sim]) => ({
          platform, simulatorUrl: sim.url,
          connect: (BOT_TOKEN_PLATFORMS as readonly string[]).includes(platform)
            ? `${baseUrl}/v1/connect/${platform}/bot-token {"profileId":"{profileId}","botToken":"${sim.clientSecret}"}`
            // A platform connected through an instance the user names takes any server name here (the simulator is the instance).
            : `${baseUrl}/v1/connect/${platform}?profileId={profileId}${INSTANCE_PLATFORMS[platform] ? `&instance=${INSTANCE_PLATFORMS[platform]!.placeholder}` : ''}`,
          stateUrl: `${baseUrl}/v1/sandbox/${platform}/state`,
        })),
        notSimulated: [...APP_PLATFORMS.filter((p) => !simulators.has(p)), ...(bluesky ? [] : ['bluesky'])],
        bluesky: bluesky ? { ...bluesky, connect: `${baseUrl}/v1/connect/bluesky/credentials`, stateUrl: `${baseUrl}/v1/sandbox/bluesky/state` } : null,
        walkthrough: [
          `Create a profile: POST ${baseUrl}/v1/profiles {"name":"Sandbox"}`,
          `Connect a simulated account: GET ${baseUrl}/v1/connect/twitter?profileId={profileId} answers {authUrl}; open authUrl (the simulator approves at once and redirects back to Herald, which stores the account with sandbox: true)`,
          bluesky ? `Or connect Bluesky: POST ${baseUrl}/v1/connect/bluesky/credentials {"identifier":"${bluesky.identifier}","appPassword":"${bluesky.appPassword}","state":"{profileId}"}` : 'Bluesky is not simulated here (@atproto/dev-env is not installed)',
          `Publish: POST ${baseUrl}/v1/posts {"content":"Hello sandbox","publishNow":true,"platforms":[{"platform":"twitter","accountId":"{accountId}"}]}`,
          `Watch: GET ${baseUrl}/v1/posts/{postId} (status, platformPostId) and GET ${baseUrl}/v1/sandbox/twitter/state (what the simulator received)`,
        ],
      };
    },
    async state(platform, only) {
      const cut = (k: string, v: unknown) => (only && !SHARED_FIXTURES.has(k) ? ownedOnly(v, only) : v);
      const local = localServers.get(platform);
      if (local) return local.state(cut);
      const sim = simulators.get(platform as AppPlatform);
      if (!sim) return null;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(sim)) if (!NOT_STATE.has(k) && typeof v !== 'function') out[k] = plainState(cut(k, v));
      return out;
    },
    trustHeraldMedia({ urlPrefixes, allowPrivate }) {
      for (const p of urlPrefixes) mediaPrefixes.add(p);
      mediaFetch.allowPrivate = allowPrivate;
    },
    async close() {
      await Promise.allSettled([...simulators.values()].map((s) => s.close()));
      await pds?.close().catch(() => undefined);
    },
  };
}
