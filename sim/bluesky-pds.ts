/**
 * Local Bluesky PDS harness for tests and the README walk-through.
 *
 * Starts a real AT Protocol PDS (plus a local PLC directory) with `@atproto/dev-env`'s
 * `TestNetworkNoAppView`: no AppView, no internet needed. Handles on this PDS end in `.test`
 * (e.g. `alice.test`); `app.bsky.*` reads that need the AppView (getProfile, getPosts, ...) are not
 * served, everything under `com.atproto.*` (sessions, repo, blobs, identity) is.
 *
 * Usage in tests:
 * ```ts
 * const pds = await startBlueskyPds();
 * const alice = await pds.createAccount('alice');     // -> { did, handle: 'alice.test', password, appPassword }
 * await connectBluesky(pds.url, alice.handle, alice.appPassword);
 * await pds.close();
 * ```
 *
 * Standalone: `node --import tsx sim/bluesky-pds.ts` prints `{ url, account }` as JSON and stays up
 * until SIGINT/SIGTERM. `BLUESKY_PDS_PORT` picks the PDS port (default: a free one),
 * `BLUESKY_PDS_HANDLE` the account's handle (default `alice.test`).
 */
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TestNetworkNoAppView } from '@atproto/dev-env';

/** A stored record as returned by `com.atproto.repo.getRecord` / `listRecords`. */
export interface PdsRecord {
  uri: string;
  cid: string;
  value: Record<string, unknown>;
}

/** An account created on the local PDS. `password` is the main password, `appPassword` an app password. */
export interface PdsAccount {
  did: string;
  handle: string;
  password: string;
  appPassword: string;
}

export interface BlueskyPdsHarness {
  /** Base URL of the PDS, e.g. `http://localhost:41234` (also the "service URL" to log in at). */
  url: string;
  /** Port of the PDS. */
  port: number;
  /** Base URL of the local PLC directory. */
  plcUrl: string;
  /** The underlying dev-env network, for anything not covered here. */
  network: TestNetworkNoAppView;
  /**
   * Creates an account (`com.atproto.server.createAccount`; invites are off on the dev PDS) and an
   * app password for it (`com.atproto.server.createAppPassword`). `handle` may omit the `.test` suffix.
   */
  createAccount(handle: string): Promise<PdsAccount>;
  /** Reads one record by its `at://did/collection/rkey` URI; `null` when it does not exist. */
  getRecord(uri: string): Promise<PdsRecord | null>;
  /** All `app.bsky.feed.post` records of a repo, newest first. */
  listPosts(did: string): Promise<PdsRecord[]>;
  close(): Promise<void>;
}

async function xrpc<T>(base: string, nsid: string, init: { query?: Record<string, string>; body?: unknown; token?: string } = {}): Promise<{ status: number; body: T }> {
  const url = new URL(`/xrpc/${nsid}`, base);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: init.body !== undefined ? 'POST' : 'GET',
    headers,
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

function parseAtUri(uri: string): { repo: string; collection: string; rkey: string } {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  if (!m) throw new Error(`not an at:// record URI: ${uri}`);
  return { repo: m[1], collection: m[2], rkey: m[3] };
}

/**
 * Starts PLC + PDS on free localhost ports (or `opts.port` for the PDS). Takes 0.2–1 s, after
 * the ~3 s it takes to load `@atproto/dev-env` itself. No env vars are needed.
 * Throws if the native modules (better-sqlite3, sharp) are not built.
 */
export async function startBlueskyPds(opts: { port?: number } = {}): Promise<BlueskyPdsHarness> {
  // enableDidDocWithSession: createSession/refreshSession then return the didDoc (as bsky.social does),
  // so clients find the PDS endpoint (`#atproto_pds`) the same way as in production.
  const network = await TestNetworkNoAppView.create({
    pds: { enableDidDocWithSession: true, ...(opts.port ? { port: opts.port } : {}) },
  });
  const url = network.pds.url;
  const cfg = network.pds.ctx.cfg;
  const dataDirs = [path.dirname(cfg.db.accountDbLoc), ...(cfg.blobstore.provider === 'disk' ? [cfg.blobstore.location] : [])];

  let counter = 0;
  const harness: BlueskyPdsHarness = {
    url,
    port: network.pds.port,
    plcUrl: network.plc.url,
    network,
    async createAccount(handleIn: string): Promise<PdsAccount> {
      const handle = handleIn.endsWith('.test') ? handleIn : `${handleIn}.test`;
      const password = `pw-${handle}-${++counter}-${Math.random().toString(36).slice(2)}`;
      const created = await xrpc<{ did: string; handle: string; accessJwt: string; message?: string }>(url, 'com.atproto.server.createAccount', {
        body: { handle, email: `${handle.replace(/\./g, '-')}@example.com`, password },
      });
      if (created.status !== 200) throw new Error(`createAccount ${handle} failed: ${created.status} ${JSON.stringify(created.body)}`);
      const app = await xrpc<{ name: string; password: string }>(url, 'com.atproto.server.createAppPassword', {
        body: { name: 'herald' },
        token: created.body.accessJwt,
      });
      if (app.status !== 200) throw new Error(`createAppPassword ${handle} failed: ${app.status} ${JSON.stringify(app.body)}`);
      return { did: created.body.did, handle: created.body.handle, password, appPassword: app.body.password };
    },
    async getRecord(uri: string): Promise<PdsRecord | null> {
      const { repo, collection, rkey } = parseAtUri(uri);
      const res = await xrpc<PdsRecord & { error?: string }>(url, 'com.atproto.repo.getRecord', { query: { repo, collection, rkey } });
      if (res.status === 200) return res.body;
      if (res.body.error === 'RecordNotFound') return null;
      throw new Error(`getRecord ${uri} failed: ${res.status} ${JSON.stringify(res.body)}`);
    },
    async listPosts(did: string): Promise<PdsRecord[]> {
      const out: PdsRecord[] = [];
      let cursor: string | undefined;
      do {
        const query: Record<string, string> = { repo: did, collection: 'app.bsky.feed.post', limit: '100' };
        if (cursor) query.cursor = cursor;
        const res = await xrpc<{ records: PdsRecord[]; cursor?: string }>(url, 'com.atproto.repo.listRecords', { query });
        if (res.status !== 200) throw new Error(`listRecords ${did} failed: ${res.status} ${JSON.stringify(res.body)}`);
        out.push(...res.body.records);
        cursor = res.body.records.length ? res.body.cursor : undefined;
      } while (cursor);
      return out;
    },
    async close() {
      await network.close();
      // dev-env leaves its SQLite files and blob store in random dirs under the OS temp dir.
      const tmp = path.resolve(os.tmpdir()) + path.sep;
      for (const dir of dataDirs) {
        if (path.resolve(dir).startsWith(tmp)) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      }
    },
  };
  return harness;
}

const isMain = (() => {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return import.meta.url === pathToFileURL(path.resolve(entry)).href;
  } catch {
    return false;
  }
})();

if (isMain) {
  const started = Date.now();
  const pds = await startBlueskyPds({ port: process.env.BLUESKY_PDS_PORT ? Number(process.env.BLUESKY_PDS_PORT) : undefined });
  const account = await pds.createAccount(process.env.BLUESKY_PDS_HANDLE ?? 'alice.test');
  console.log(JSON.stringify({ url: pds.url, plcUrl: pds.plcUrl, startupMs: Date.now() - started, account }, null, 2));
  console.error('Bluesky dev PDS running; Ctrl-C to stop.');
  const stop = async () => {
    await pds.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
