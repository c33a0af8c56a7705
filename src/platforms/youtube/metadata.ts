/**
 * Changing a published video's metadata: videos.update
 * (https://developers.google.com/youtube/v3/docs/videos/update, 50 quota units). The call replaces
 * every writable field of each part it names, so the video's current snippet and status are read
 * first (videos.list, 1 unit) and only the fields given change; `snippet.title` and
 * `snippet.categoryId` are required whenever the snippet is sent.
 */
import { AdapterError, type VideoMetadataPatch } from '../types.ts';
import { googleJson } from './google.ts';
import type { YouTubeApi } from './model.ts';
import { fitYouTubeTagCount, noAngles } from './rules.ts';

interface FullVideo {
  id: string;
  snippet?: { title?: string; description?: string; tags?: string[]; categoryId?: string; defaultLanguage?: string };
  status?: { privacyStatus?: string; madeForKids?: boolean; selfDeclaredMadeForKids?: boolean; containsSyntheticMedia?: boolean; embeddable?: boolean; publicStatsViewable?: boolean; license?: string; publishAt?: string };
}

const SNIPPET_FIELDS = ['title', 'description', 'tags', 'categoryId'] as const;
const STATUS_FIELDS = ['privacyStatus', 'madeForKids', 'containsSyntheticMedia'] as const;

/**
 * Updates `videoId` with the fields of `patch` (the others kept as YouTube has them). Answers the
 * fields sent. `<` and `>` in the title and description are sent as their full-width forms.
 * @throws AdapterError `rejected` (404 videoNotFound: not this channel's video, or deleted), `rate_limited`, `auth_expired`, `transient`.
 */
export async function updateVideoMetadata(api: YouTubeApi, videoId: string, patch: VideoMetadataPatch): Promise<{ updatedFields: string[] }> {
  const base = api.apiBaseUrl();
  const snippetChange = SNIPPET_FIELDS.filter((k) => patch[k] !== undefined);
  const statusChange = STATUS_FIELDS.filter((k) => patch[k] !== undefined);
  const parts = [...(snippetChange.length ? ['snippet'] : []), ...(statusChange.length ? ['status'] : [])];
  if (parts.length === 0) return { updatedFields: [] };
  const { body } = await api.call((token) => googleJson<{ items?: FullVideo[] }>(base, '/youtube/v3/videos', { token, query: { part: parts.join(','), id: videoId } }));
  const now = body.items?.[0];
  if (!now) throw new AdapterError('rejected', `YouTube has no video ${videoId} on this channel (deleted, or not this channel's)`, { status: 404, endpoint: 'GET /youtube/v3/videos' });
  const out: Record<string, unknown> = { id: videoId };
  if (snippetChange.length) {
    const s = now.snippet ?? {};
    out.snippet = {
      title: patch.title !== undefined ? noAngles(patch.title.trim()) : s.title,
      categoryId: patch.categoryId ?? s.categoryId ?? '22',
      description: patch.description !== undefined ? noAngles(patch.description) : s.description ?? '',
      tags: patch.tags !== undefined ? fitYouTubeTagCount(patch.tags) : s.tags ?? [],
      ...(s.defaultLanguage ? { defaultLanguage: s.defaultLanguage } : {}),
    };
  }
  if (statusChange.length) {
    const s = now.status ?? {};
    out.status = {
      privacyStatus: patch.privacyStatus ?? s.privacyStatus,
      selfDeclaredMadeForKids: patch.madeForKids ?? s.selfDeclaredMadeForKids ?? s.madeForKids ?? false,
      ...(patch.containsSyntheticMedia !== undefined || s.containsSyntheticMedia !== undefined ? { containsSyntheticMedia: patch.containsSyntheticMedia ?? s.containsSyntheticMedia } : {}),
      ...(s.embeddable !== undefined ? { embeddable: s.embeddable } : {}),
      ...(s.publicStatsViewable !== undefined ? { publicStatsViewable: s.publicStatsViewable } : {}),
      ...(s.license ? { license: s.license } : {}),
      // A scheduled private video keeps its publishAt unless it is made public or unlisted now.
      ...(s.publishAt && (patch.privacyStatus ?? s.privacyStatus) === 'private' ? { publishAt: s.publishAt } : {}),
    };
  }
  await api.call((token) => googleJson(base, '/youtube/v3/videos', { method: 'PUT', token, query: { part: parts.join(',') }, json: out }));
  return { updatedFields: [...snippetChange, ...statusChange] };
}
