/**
 * Duplicate protection (docs/decisions/0039-publishing-logs-health-unpublish.md): the same
 * content to the same account within 24 hours is refused with 409 DUPLICATE_CONTENT naming the
 * earlier post, unless the request sends `allowDuplicate: true`.
 *
 * Each target of a new scheduled or published-now post claims (account, content hash: text, media
 * URLs and thread items) in `post_content_claims` inside the post's own INSERT statement (see
 * insertPostsWithTargets):
 * `ON CONFLICT` waits for a concurrent claim of the same pair and sees it once committed, so
 * of two parallel identical requests exactly one is saved. A claim older than
 * {@link DUPLICATE_WINDOW_HOURS} is taken over; deleting or unpublishing a post drops its claims.
 * Drafts claim nothing (they are not published).
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import type { MediaRef } from '../../shared/rules/types.ts';

/** How long a post's content is reserved for its accounts (hours). */
export const DUPLICATE_WINDOW_HOURS = 24;

/** Text of the PostgreSQL error that the insert raises when a claim is held by an earlier post. */
export const DUPLICATE_MARKER = 'herald_duplicate_content';

/** One (account, content) pair a new post claims. */
export interface ContentClaim {
  accountId: string;
  /** SHA-256 of the text (trimmed) and the media URLs, in order. */
  hash: Buffer;
}

/**
 * The hash of what a target publishes: its text (surrounding whitespace ignored), its media URLs
 * in order and, for a thread, each item's text (`platformSpecificData.threadItems[].content`).
 */
export function contentHash(text: string, media: ReadonlyArray<Pick<MediaRef, 'url'>>, platformSpecificData?: Record<string, unknown> | null): Buffer {
  const items = platformSpecificData?.threadItems;
  const thread = Array.isArray(items) ? items.map((i) => String((i as { content?: unknown } | null)?.content ?? '').trim()) : [];
  return createHash('sha256').update(JSON.stringify([text.trim(), media.map((m) => m.url), thread])).digest();
}

/** True for the error the insert raises on a held claim. */
export function isDuplicateError(err: unknown): boolean {
  return err instanceof Error && err.message.includes(DUPLICATE_MARKER);
}

/**
 * The 409 for claims an earlier post holds: reads which post holds them (the first one found).
 * `details: { accountId, existingPostId }` as the Late API's DUPLICATE_CONTENT.
 */
export async function duplicateContentError(q: Queryable, claims: ContentClaim[]): Promise<AppError> {
  const hit = await heldClaim(q, claims);
  return new AppError('DUPLICATE_CONTENT',
    `The same content was already posted to this account within ${DUPLICATE_WINDOW_HOURS} hours${hit ? ` (post ${hit.postId})` : ''}; send allowDuplicate: true to post it again`,
    { accountId: hit?.accountId ?? claims[0].accountId, existingPostId: hit?.postId ?? null });
}

/** The first of these claims an earlier post holds within the window (read only); null when none. */
export async function heldClaim(q: Queryable, claims: ContentClaim[]): Promise<{ accountId: string; postId: string } | null> {
  if (claims.length === 0) return null;
  const { rows } = await q.query<{ account_id: string; post_id: string }>(
    `SELECT c.account_id, c.post_id FROM post_content_claims c
       JOIN unnest($1::char(24)[], $2::bytea[]) AS u(account_id, hash) ON c.account_id = u.account_id AND c.content_hash = u.hash
      WHERE c.claimed_at > now() - make_interval(hours => $3) LIMIT 1`,
    [claims.map((c) => c.accountId), claims.map((c) => c.hash), DUPLICATE_WINDOW_HOURS]);
  return rows[0] ? { accountId: rows[0].account_id, postId: rows[0].post_id } : null;
}

/** Drops a post's claims (it was unpublished), so its content can be posted again. */
export async function releaseClaims(q: Queryable, postId: string): Promise<void> {
  await q.query('DELETE FROM post_content_claims WHERE post_id = $1', [postId]);
}

/** Deletes claims past the window (their rows would only be taken over). Returns how many. */
export async function pruneClaims(q: Queryable): Promise<number> {
  const { rowCount } = await q.query('DELETE FROM post_content_claims WHERE claimed_at < now() - make_interval(hours => $1)', [DUPLICATE_WINDOW_HOURS]);
  return rowCount ?? 0;
}
