/**
 * The columns of the bulk CSV upload (POST /v1/posts/bulk-upload), written once: the server's
 * row parser (src/modules/bulk/csv-rows.ts) accepts exactly these, and the dashboard's Bulk
 * upload page builds its downloadable template from them. Pure: shared with the web app.
 */
import { PLATFORM_CAPABILITIES } from './capabilities.ts';
import { PLATFORMS, type PlatformId } from './platforms.ts';

/** Every column the bulk upload reads, in the template's order (header names are case-insensitive). */
export const BULK_COLUMNS: readonly string[] = [
  'platforms', 'profiles', 'schedule_time', 'tz', 'publish_now', 'is_draft', 'use_queue', 'post_content', 'title', 'media_urls',
  'tags', 'visibility', 'first_comment', 'subreddit', 'board_id', 'link',
  ...PLATFORMS.map((p) => `custom_content_${p}`), ...PLATFORMS.filter((p) => PLATFORM_CAPABILITIES[p].threads).map((p) => `${p}_thread_items`),
];

/**
 * The shared columns that fill a platform option, per platform: `column` (a cell, when not empty)
 * becomes `platformSpecificData[field]` of the row's target on that platform, after `clean`.
 * `first_comment` is not here: it goes to every platform that takes a first comment (capabilities).
 */
export interface BulkOptionColumn {
  column: string;
  field: string;
  clean?(cell: string): string;
}

/** {@link BulkOptionColumn}s of each platform that has some, in the order they are applied. */
export const BULK_OPTION_COLUMNS: Readonly<Partial<Record<PlatformId, readonly BulkOptionColumn[]>>> = {
  youtube: [{ column: 'title', field: 'title' }],
  reddit: [
    { column: 'title', field: 'title' },
    { column: 'subreddit', field: 'subreddit', clean: (v) => v.replace(/^r\//i, '') },
    { column: 'link', field: 'url' },
  ],
  pinterest: [{ column: 'title', field: 'title' }, { column: 'board_id', field: 'boardId' }, { column: 'link', field: 'link' }],
};

/** Other names the `platforms` column accepts for a platform id (X's own name). */
export const PLATFORM_ALIASES: Readonly<Record<string, PlatformId>> = { x: 'twitter' };

/** The columns without which no row is read. */
export const BULK_REQUIRED_COLUMNS: readonly string[] = ['platforms', 'profiles'];

/** Quotes one CSV cell when it needs it (RFC 4180). */
function cell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * A CSV template for the bulk upload: the header with every column of {@link BULK_COLUMNS}, and
 * example rows (a scheduled post, a draft) for `profile` (a profile's exact name or id) on
 * `platform`. Lines end with CRLF (RFC 4180).
 */
export function bulkCsvTemplate(opts: { profile?: string; platform?: string } = {}): string {
  const profile = opts.profile ?? 'My brand';
  const platform = opts.platform ?? 'bluesky';
  const rows: Array<Record<string, string>> = [
    { platforms: platform, profiles: profile, schedule_time: '2030-01-15 09:30', tz: 'Europe/Paris', post_content: 'Hello from Herald #herald', tags: 'launch' },
    { platforms: platform, profiles: profile, is_draft: 'true', post_content: 'A draft to finish later', title: 'Draft title' },
  ];
  const lines = [BULK_COLUMNS.join(','), ...rows.map((r) => BULK_COLUMNS.map((c) => cell(r[c] ?? '')).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
