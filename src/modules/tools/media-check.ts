/**
 * `POST /v1/tools/validate/media` (the official client's `validate.validateMedia`): a media URL
 * fetched through the SSRF guard (src/infra/ssrf.ts) into a private temporary file, its type read
 * from its bytes, its duration, pixel size and codecs probed with ffprobe (src/infra/probe.ts; the
 * image header when ffprobe is missing), and the item checked against each platform's media rules
 * from the one rule table (src/shared/rules/, decision 0026), the same check a post with it gets.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { FetchBlockedError, guardedFetch } from '../../infra/ssrf.ts';
import { MediaReadError } from '../../storage/media-object.ts';
import { probeMedia } from '../../infra/probe.ts';
import { PLATFORM_CAPABILITIES } from '../../shared/capabilities.ts';
import { gifFrames } from '../../shared/media/gif.ts';
import type { PlatformId } from '../../shared/platforms.ts';
import { checkRules, type MediaRef } from '../../shared/rules/index.ts';
import { isAllowedContentType, mediaTypeOf } from '../media/content-types.ts';

/** Largest file read to validate it, bytes (512 MiB): a larger one is answered `valid: false` without being read. */
export const VALIDATE_MEDIA_MAX_BYTES = 512 * 1024 * 1024;
/** Longest a validation's download may take, ms. */
export const VALIDATE_MEDIA_TIMEOUT_MS = 60_000;

/** What the check needs from the server's configuration. */
export interface MediaCheckDeps {
  allowPrivateUrls: boolean;
  ffprobePath: string;
  /** Overrides {@link VALIDATE_MEDIA_MAX_BYTES} (tests). */
  maxBytes?: number;
  /**
   * Reads one of Herald's own media URLs from storage (null for a foreign URL; throws when larger
   * than `maxBytes`), as the publisher does: an own URL of a local install is on a private address
   * the SSRF guard rightly refuses to fetch.
   */
  readOwn?: (url: string, maxBytes: number) => Promise<{ bytes: Buffer; mimeType: string } | null>;
}

/** One platform's verdict on the media item: the rules it breaks there (none: the platform takes it). */
export interface PlatformVerdict {
  valid: boolean;
  errors: Array<{ rule: string; message: string }>;
}

/** `1.5 MB`, `320 KB`, `12 B` (powers of 1,024). */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${i === 0 ? v : Math.round(v * 10) / 10} ${units[i]}`;
}

/** The size cap of `type` on one platform (bytes), when the capability table has one. */
function sizeLimitOf(p: PlatformId, type: MediaRef['type']): number | undefined {
  const c = PLATFORM_CAPABILITIES[p];
  return type === 'video' ? c.videoMaxBytes : type === 'gif' ? (c.gifMaxBytes ?? c.imageMaxBytes) : type === 'image' ? c.imageMaxBytes : undefined;
}

/**
 * The media rules of `platform` that `item` breaks, alone in a post: rules about the post's text or
 * options are left out (the item is checked, not a post).
 */
function verdict(platform: PlatformId, item: MediaRef): PlatformVerdict {
  const errors = checkRules(platform, { text: '', mediaItems: [item], threadItems: [], platformSpecificData: {} })
    .filter((v) => v.field.startsWith('mediaItems'))
    .map((v) => ({ rule: v.rule, message: v.message }));
  return { valid: errors.length === 0, errors };
}

/**
 * Validates the media at `url` for `platforms`. Never throws for the URL's sake: an address the
 * guard refuses, a URL that cannot be read, a file too large to read or one that is not media
 * answer `valid: false` with `error`. `valid` is true when the file is media Herald publishes and
 * every platform in `platforms` (when given) takes it; `platforms` (the answer's) has each
 * platform's verdict and `platformLimits` each platform's size cap for the type.
 */
export async function checkMediaUrl(url: string, selected: readonly PlatformId[] | undefined, all: readonly PlatformId[], deps: MediaCheckDeps) {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'herald-validate-'));
  const file = path.join(dir, 'media');
  const fail = (error: string, extra: Record<string, unknown> = {}) => ({ valid: false, url, error, type: 'unknown' as const, size: null, ...extra });
  try {
    const maxBytes = deps.maxBytes ?? VALIDATE_MEDIA_MAX_BYTES;
    let fetched: { contentType: string; size: number };
    const sink = fs.createWriteStream(file);
    try {
      const own = deps.readOwn ? await deps.readOwn(url, maxBytes) : null;
      if (own) {
        await new Promise<void>((resolve, reject) => sink.write(own.bytes, (err) => (err ? reject(err) : resolve())));
        fetched = { contentType: own.mimeType, size: own.bytes.length };
      } else {
        fetched = await guardedFetch(url, { maxBytes, sink, allowPrivate: deps.allowPrivateUrls, timeoutMs: VALIDATE_MEDIA_TIMEOUT_MS });
      }
    } catch (err) {
      if (err instanceof MediaReadError) return fail(`Herald's stored copy of this file could not be read: ${err.message}`);
      if (err instanceof FetchBlockedError && err.reason === 'too_large') return fail(`The file is larger than ${formatBytes(maxBytes)}, the most Herald reads to validate media`);
      if (err instanceof FetchBlockedError) return fail(`Herald does not fetch this URL: ${err.message}`);
      return fail(`The URL could not be read: ${(err as Error).message}`);
    } finally {
      sink.end();
      await new Promise<void>((r) => { sink.on('close', () => r()); sink.on('error', () => r()); });
    }
    const head = Buffer.alloc(Math.min(fetched.size, 64 * 1024));
    const fd = await fs.promises.open(file, 'r');
    try { await fd.read(head, 0, head.length, 0); } finally { await fd.close(); }
    const sniffed = (await fileTypeFromBuffer(head))?.mime;
    const mimeType = sniffed ?? fetched.contentType;
    const base = { url, contentType: mimeType, size: fetched.size, sizeFormatted: formatBytes(fetched.size) };
    if (!isAllowedContentType(mimeType) || mimeType === 'application/pdf') {
      return { ...fail(`The file is ${mimeType || 'of an unknown type'}, not an image or video Herald publishes`), ...base, valid: false, type: 'unknown' as const };
    }
    const mediaType = mediaTypeOf(mimeType);
    const md = await probeMedia(file, mimeType, { ffprobePath: deps.ffprobePath });
    const item: MediaRef = { type: mediaType, url, mimeType, size: fetched.size };
    if (typeof md.duration === 'number') item.durationSeconds = md.duration;
    if (typeof md.width === 'number' && typeof md.height === 'number') { item.width = md.width; item.height = md.height; }
    if (typeof md.videoCodec === 'string') item.videoCodec = md.videoCodec;
    if (typeof md.audioCodec === 'string') item.audioCodec = md.audioCodec;
    if (item.width === undefined && mediaType !== 'video') {
      try {
        const s = imageSize(new Uint8Array(head));
        if (s.width && s.height) { item.width = s.width; item.height = s.height; }
      } catch { /* not parsable from the head: the pixel rules are left out */ }
    }
    if (mimeType === 'image/gif') item.frames = gifFrames(await fs.promises.readFile(file));

    const platforms: Record<string, PlatformVerdict> = {};
    const platformLimits: Record<string, { limit: number; limitFormatted: string; withinLimit: boolean }> = {};
    for (const p of selected ?? all) {
      platforms[p] = verdict(p, item);
      const limit = sizeLimitOf(p, mediaType);
      if (limit !== undefined) platformLimits[p] = { limit, limitFormatted: formatBytes(limit), withinLimit: fetched.size <= limit };
    }
    const refusing = selected?.filter((p) => !platforms[p]!.valid) ?? [];
    return {
      ...base,
      valid: refusing.length === 0,
      ...(refusing.length ? { error: refusing.map((p) => `${p}: ${platforms[p]!.errors.map((e) => e.message).join('; ')}`).join(' | ') } : {}),
      type: mediaType === 'video' ? 'video' as const : 'image' as const,
      mediaType,
      ...(item.width !== undefined ? { width: item.width, height: item.height } : {}),
      ...(item.durationSeconds !== undefined ? { duration: item.durationSeconds } : {}),
      ...(item.videoCodec ? { videoCodec: item.videoCodec } : {}),
      ...(item.frames !== undefined ? { frames: item.frames } : {}),
      ...(md.probeError ? { probeError: md.probeError } : {}),
      platformLimits,
      platforms,
    };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
