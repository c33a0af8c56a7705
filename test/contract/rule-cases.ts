/**
 * Sends a platform's rule cases (test/rules/cases.ts) to its simulator past Herald's own
 * checks: the adapter with `validate` switched off prepares and commits each case's inside post
 * (the platform takes it) and its outside post (the platform refuses it with its own error).
 * So a simulator that accepts what the platform refuses, or refuses what it accepts, fails here,
 * and the adapter's rules (test/rules/rules.test.ts) are held against the simulator's.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import type { AccountContext, AdapterContext, PlatformAdapter, PlatformId, PublishRequest } from '../../src/platforms/types.ts';
import type { PlatformHarness } from '../support/harness.ts';
import type { MediaRef, RulePost } from '../../src/shared/rules/types.ts';
import { CASE_MEDIA_ORIGIN, fullPost, type RuleCase } from '../rules/cases.ts';
import { makeImage, makeVideo } from '../support/media.ts';
import type { MediaServer } from '../support/media-server.ts';

export interface SimulatorRuleOptions {
  /** The platform's cases. */
  cases: readonly RuleCase[];
  /** The adapter as the app configured it, and the connected account to publish with. */
  publisher?(): Promise<{ adapter: PlatformAdapter; account: AccountContext }>;
  /**
   * Sends a post straight to the platform instead (when the adapter re-checks bytes it fetched,
   * as Bluesky's does): resolves to the platform's refusal, or null when it was published.
   */
  send?(req: PublishRequest): Promise<Error | null>;
  /** Serves the generated media files (the simulator downloads them, or the adapter uploads them). */
  media(): MediaServer;
  /** Adds what every post on the platform needs besides the case (e.g. a board, a privacy level). */
  complete?(post: RulePost): RulePost;
  /** Runs a case in a state it needs. */
  within?<T>(fn: () => Promise<T>): Promise<T>;
}

const generated = new Map<string, Buffer>();

function bytesOf(url: URL): Buffer {
  const key = url.href;
  const hit = generated.get(key);
  if (hit) return hit;
  const q = url.searchParams;
  const num = (k: string) => (q.has(k) ? Number(q.get(k)) : undefined);
  let bytes: Buffer;
  if (url.pathname.startsWith('/image.')) {
    bytes = makeImage({ format: q.get('format') as 'jpeg', width: num('w')!, height: num('h')!, frames: num('frames'), minBytes: num('bytes') });
  } else if (url.pathname === '/video.mp4') {
    bytes = makeVideo({ seconds: num('s')!, width: num('w')!, height: num('h')!, audio: q.get('audio') !== '0', minBytes: num('bytes') });
  } else {
    bytes = padTo(minimalPdf(), num('bytes') ?? 20_000);
  }
  const want = num('bytes');
  if (want !== undefined && bytes.length !== want) throw new Error(`could not generate ${url.href} at exactly ${want} bytes (got ${bytes.length})`);
  generated.set(key, bytes);
  return bytes;
}

/**
 * A one-page PDF (catalog, pages, page, cross-reference table). Padded with trailing spaces
 * after %%EOF, which readers ignore: content sniffers (the PDS's file-type) need a few KB.
 */
function minimalPdf(): Buffer {
  const objects = ['<</Type/Catalog/Pages 2 0 R>>', '<</Type/Pages/Kids[3 0 R]/Count 1>>', '<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>'];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => { offsets.push(pdf.length); pdf += `${i + 1} 0 obj\n${o}\nendobj\n`; });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const padTo = (bytes: Buffer, size: number) => (bytes.length >= size ? bytes : Buffer.concat([bytes, Buffer.alloc(size - bytes.length, 0x20)]));

/** A case's media made real: generated, served by `server`, its URL and size the served file's. */
export function resolveMedia(server: MediaServer, m: MediaRef): MediaRef {
  if (!m.url.startsWith(CASE_MEDIA_ORIGIN)) return m;
  const url = new URL(m.url);
  const bytes = bytesOf(url);
  const name = `/rules/${createHash('sha256').update(url.href).digest('hex').slice(0, 16)}${url.pathname}`;
  return { ...m, url: server.put(name, bytes, m.mimeType ?? 'application/octet-stream'), size: bytes.length };
}

/** `post` with every described media item (post, thread items, thumbnails) generated and served. */
export function resolvePost(server: MediaServer, post: RulePost): PublishRequest {
  const r = (m: MediaRef) => resolveMedia(server, m);
  const full = fullPost(post) as PublishRequest;
  return {
    ...full,
    mediaItems: full.mediaItems.map(r),
    threadItems: full.threadItems.map((t) => ({ ...t, ...(t.mediaItems ? { mediaItems: t.mediaItems.map(r) } : {}) })),
  };
}

/** Prepares and commits `req` with the adapter's own checks off; resolves to the platform's refusal, or null when it was published. */
export async function sendPastHerald(adapter: PlatformAdapter, account: AccountContext, req: PublishRequest): Promise<Error | null> {
  const unchecked: PlatformAdapter = Object.create(adapter, { validate: { value: () => [] } });
  const ctx: AdapterContext = {
    async saveCredentials(credentials) { account.credentials = credentials; },
    async fetchMedia(item, maxBytes) {
      const res = await fetch(item.url);
      if (!res.ok) throw new Error(`media ${item.url}: ${res.status}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      void maxBytes; // past Herald's checks: the adapter's own size cap is not applied here
      return { bytes, mimeType: res.headers.get('content-type') ?? item.mimeType ?? 'application/octet-stream' };
    },
    log() {},
  };
  try {
    const prepared = await unchecked.prepare(ctx, account, req);
    await unchecked.commit(ctx, account, req, prepared);
    return null;
  } catch (e) {
    return e as Error;
  }
}

/** The refusal as a test reads it: message plus the platform's code. */
const describeError = (e: Error) => `${e.message} ${(e as { opts?: { platformCode?: string } }).opts?.platformCode ?? ''}`;

/**
 * {@link SimulatorRuleOptions.publisher} for a contract test: the adapter the app configured for
 * `platform` and the harness's connected account (`accountId()`, the harness account by default).
 */
export function harnessPublisher(h: PlatformHarness, platform: PlatformId, accountId: () => string = () => h.accountId): () => Promise<{ adapter: PlatformAdapter; account: AccountContext }> {
  return async () => {
    const id = accountId();
    const row = await h.account(id);
    return {
      adapter: h.ctx.services.adapters.require(platform),
      account: { id, platformUserId: row.platform_user_id, username: row.username, settings: row.settings ?? {}, credentials: await h.credentials(id) },
    };
  };
}

/** One test per case the platform answers: the inside post is published, the outside one refused with the platform's error. */
export function simulatorRuleCases(opts: SimulatorRuleOptions): void {
  const within = <T>(fn: () => Promise<T>) => (opts.within ? opts.within(fn) : fn());
  for (const c of opts.cases) {
    if (!('refuses' in c.platform)) continue;
    const refuses = c.platform.refuses;
    it(`the platform itself: ${c.rule}${c.name ? ` (${c.name})` : ''}: takes the post just inside, refuses the one just outside`, async () => {
      await within(async () => {
        const send = opts.send ?? (async (req: PublishRequest) => {
          const { adapter, account } = await opts.publisher!();
          return sendPastHerald(adapter, account, req);
        });
        const complete = opts.complete ?? ((p: RulePost) => p);
        const inside = await send(resolvePost(opts.media(), complete(fullPost(c.inside))));
        expect(inside && describeError(inside), 'the post just inside the rule is published').toBeNull();
        const outside = await send(resolvePost(opts.media(), complete(fullPost(c.outside))));
        expect(outside, 'the post just outside the rule is refused by the platform').not.toBeNull();
        // The refusal is the platform's, not a check of Herald's adapter that ran on the fetched bytes.
        expect((outside as { opts?: { platformCode?: string } }).opts?.platformCode ?? '', 'refused by the platform, not by Herald').not.toBe(c.rule);
        expect(describeError(outside!)).toMatch(typeof refuses === 'string' ? new RegExp(refuses.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : refuses);
      });
    }, 60_000);
  }
}
