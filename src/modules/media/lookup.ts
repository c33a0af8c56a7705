/**
 * Finds a media file Herald stored from its URL, for validators and the publisher
 * (platform rules such as YouTube Shorts up to 3 minutes, 9:16 stories or codec
 * requirements need the duration, dimensions and codecs that ffprobe recorded).
 *
 * Every storage backend puts the key `<tenantId>/<mediaId>/<name>` at the end of the
 * URL path (local `/media/<key>`, S3 path- or host-style, a public base URL), so the
 * URL alone identifies the row; the tenant must match, so another tenant's URL finds nothing.
 */
import { prepared, type Db } from '../../storage/db.ts';
import type { MediaRef } from '../../platforms/types.ts';
import type { MediaMetadata } from '../../infra/probe.ts';

/** A stored media file with the metadata read at upload time. */
export interface MediaFileInfo {
  id: string;
  type: 'image' | 'video' | 'gif' | 'document';
  mimeType: string;
  /** Bytes. */
  size: number;
  filename: string;
  /** duration (s), width, height (px), videoCodec, audioCodec, ...; `{}` for documents; `probeError` when unreadable. */
  metadata: MediaMetadata;
}

const ID = /^[0-9a-f]{24}$/;

/** The media id in one of Herald's media URLs for `tenantId`, or null (foreign URL, other tenant, not a URL). */
export function mediaIdFromUrl(url: string, tenantId: string): string | null {
  let segments: string[];
  try {
    segments = new URL(url).pathname.split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
  // <tenantId>/<mediaId>/<file name> are the last three path segments.
  if (segments.length < 3) return null;
  const [tenant, id, name] = segments.slice(-3);
  if (tenant !== tenantId.toLowerCase() || !ID.test(id) || !name) return null;
  return id;
}

/**
 * The media file behind `url` for `tenantId`, with its metadata; null when the URL is
 * not one of this tenant's Herald media URLs (or the file was deleted).
 */
export async function mediaMetadataByUrl(db: Db, tenantId: string, url: string): Promise<MediaFileInfo | null> {
  const id = mediaIdFromUrl(url, tenantId);
  if (!id) return null;
  const { rows } = await db.query<{ id: string; type: MediaFileInfo['type']; mime_type: string; size: string; filename: string; metadata: MediaMetadata; storage_key: string }>(
    'SELECT id, type, mime_type, size, filename, metadata, storage_key FROM media_files WHERE id = $1 AND tenant_id = $2', [id, tenantId.toLowerCase()]);
  const r = rows[0];
  if (!r || !r.storage_key.startsWith(`${tenantId.toLowerCase()}/${id}/`)) return null;
  return { id: r.id, type: r.type, mimeType: r.mime_type, size: Number(r.size), filename: r.filename, metadata: r.metadata ?? {} };
}

/**
 * The stored files among `$2` (media ids) of tenant `$1`. Named, so PostgreSQL plans it once per
 * connection: sent unnamed, every post with media planned it anew (0.06 ms a create; bench/README.md).
 */
const MEDIA_BY_IDS = prepared('media.by-ids', 'SELECT id, type, mime_type, size, metadata FROM media_files WHERE tenant_id = $1 AND id = ANY($2::char(24)[])');

/**
 * Fills size, type and ffprobe metadata (duration in seconds, displayed width and height
 * in pixels, codecs) into the media items that are Herald's own uploads of `tenantId`, in
 * place, so platform rules on sizes and durations are checked before publishing. Images
 * named by a foreign URL get their format and pixel size from `opts.probeRemoteImage` when
 * given (read concurrently with the lookup); other foreign URLs are left as given.
 */
export async function enrichMediaRefs(db: Db, tenantId: string, lists: MediaRef[][], opts: EnrichOptions = {}): Promise<void> {
  const all = lists.flat().map((m) => ({ m, id: mediaIdFromUrl(m.url, tenantId) }));
  const foreign = all.filter((x) => !x.id && (x.m.type === 'image' || x.m.type === 'gif') && (x.m.width === undefined || x.m.height === undefined));
  const probing = opts.probeRemoteImage ? Promise.all(foreign.map(async ({ m }) => {
    const info = await opts.probeRemoteImage!(m.url);
    if (!info) return;
    m.width = info.width;
    m.height = info.height;
    m.mimeType = info.mimeType;
  })) : Promise.resolve();
  const items = all.filter((x): x is { m: MediaRef; id: string } => !!x.id);
  if (items.length === 0) {
    await probing;
    return;
  }
  const { rows } = await db.query<{ id: string; type: MediaRef['type']; mime_type: string; size: number; metadata: Record<string, unknown> }>(
    MEDIA_BY_IDS, [tenantId, [...new Set(items.map((x) => x.id))]]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const { m, id } of items) {
    const r = byId.get(id);
    if (!r) continue;
    const md = r.metadata ?? {};
    m.size = Number(r.size);
    m.mimeType = r.mime_type;
    m.type = r.type;
    if (typeof md.duration === 'number') m.durationSeconds = md.duration;
    if (typeof md.width === 'number') m.width = md.width;
    if (typeof md.frames === 'number') m.frames = md.frames;
    if (typeof md.height === 'number') m.height = md.height;
    if (typeof md.videoCodec === 'string') m.videoCodec = md.videoCodec;
    if (typeof md.audioCodec === 'string') m.audioCodec = md.audioCodec;
  }
  await probing;
}

/** How {@link enrichMediaRefs} reads media Herald did not store. */
export interface EnrichOptions {
  /**
   * Format and pixel size of an image named by URL (src/infra/remote-media.ts), so pixel and
   * format rules are checked at creation; null when it cannot be read (the rules run again at publish time).
   */
  probeRemoteImage?: (url: string) => Promise<{ mimeType: string; width: number; height: number } | null>;
}
