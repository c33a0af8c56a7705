/**
 * Approvals' tables (docs/decisions/0059-approvals.md): `post_review_events` (every step of a
 * post's review), `post_comments` (internal notes and the client's comments) and `review_links`
 * (client links, looked up by the SHA-256 of their token). Every write of these tables is here;
 * the posts module calls {@link recordReviewEvent} in the transaction that submits a post. The
 * profile's approval rule (columns of `profiles`) is read here and written by modules/profiles.
 * Imports no other module's code that imports this file (posts imports it).
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Queryable } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';

export type ReviewEventKind = 'submitted' | 'approved' | 'changes_requested' | 'edited';
/** Who acted: a team user, or the client of a review link (`name` as the client gave it). */
export type ReviewActor = { kind: 'user'; userId: string } | { kind: 'client'; linkId: string; name: string };

export interface ApprovalRuleRow {
  id: string;
  name: string;
  approval_required: boolean;
  approver_ids: string[];
  client_approval: boolean;
}

/** The approval rules of the tenant's profiles among `ids`. */
export async function approvalRules(q: Queryable, tenantId: string, ids: readonly string[]): Promise<ApprovalRuleRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query<ApprovalRuleRow>(
    `SELECT id, name, approval_required, approver_ids, client_approval FROM profiles WHERE tenant_id = $1 AND id = ANY($2::char(24)[])`,
    [tenantId, [...new Set(ids)]]);
  return rows.map((r) => ({ ...r, approver_ids: r.approver_ids.map((a) => a.trim()) }));
}

/** True when the user may approve on a profile with this rule: the owner, or a listed member; the key or session must hold `posts:approve`. */
export function mayApprove(auth: AuthContext, rule: Pick<ApprovalRuleRow, 'approver_ids'>): boolean {
  if (!auth.permissions.has('posts:approve') || auth.grantId) return false;
  return auth.isRoot || rule.approver_ids.includes(auth.userId);
}

/**
 * The decision 0059 rule: a post going out (scheduled, queued or published now) on these profiles
 * waits for approval when one of them requires it and the caller may not approve there.
 */
export async function reviewNeeded(q: Queryable, auth: AuthContext, profileIds: readonly string[]): Promise<boolean> {
  // The owner with posts:approve (every API key without a narrower list) approves everywhere: no query on the create path.
  if (mayApprove(auth, { approver_ids: [] })) return false;
  const rules = await approvalRules(q, auth.tenantId, profileIds);
  return rules.some((r) => r.approval_required && !mayApprove(auth, r));
}

/**
 * Checks that the caller may publish what an approval did not see, on these profiles: refused when
 * one requires approval and the caller may not approve there (decision 0059), unless `approved`
 * answers true (asked only then: the post's text is the one approved).
 * @throws 403 FORBIDDEN (`reason: approval_required`, the profile) naming the rule and `action`'s way out.
 */
export async function assertMayPublishUnreviewed(q: Queryable, auth: AuthContext, profileIds: readonly string[], action: string, approved?: () => Promise<boolean>): Promise<void> {
  if (mayApprove(auth, { approver_ids: [] })) return;
  const rules = await approvalRules(q, auth.tenantId, profileIds);
  const held = rules.find((r) => r.approval_required && !mayApprove(auth, r));
  if (held && !(await approved?.())) {
    throw new AppError('FORBIDDEN', `The profile "${held.name}" requires approval before anything is published: ${action}`,
      { profileId: held.id, reason: 'approval_required' });
  }
}

/** The kind of the post's last review step, or null when it was never submitted for review. */
export async function lastReviewStep(q: Queryable, postId: string): Promise<ReviewEventKind | null> {
  const { rows } = await q.query<{ kind: ReviewEventKind }>('SELECT kind FROM post_review_events WHERE post_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1', [postId]);
  return rows[0]?.kind ?? null;
}

export const hashReviewToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** Records one step of a post's review (in the caller's transaction). */
export async function recordReviewEvent(q: Queryable, e: {
  tenantId: string; postId: string; kind: ReviewEventKind; actor: ReviewActor; comment?: string | null; details?: Record<string, unknown>; at: Date;
}): Promise<string> {
  const id = newId();
  await q.query(
    `INSERT INTO post_review_events (id, tenant_id, post_id, kind, actor_user_id, review_link_id, actor_name, comment, details, created_at)
     VALUES ($1, $2, $3, $4, $5, $6,
             COALESCE((SELECT COALESCE(NULLIF(name, ''), email) FROM users WHERE id = $5), $7), $8, $9, $10)`,
    [id, e.tenantId, e.postId, e.kind, e.actor.kind === 'user' ? e.actor.userId : null, e.actor.kind === 'client' ? e.actor.linkId : null,
      e.actor.kind === 'client' ? e.actor.name : '', e.comment ?? null, JSON.stringify(e.details ?? {}), e.at]);
  return id;
}

export interface ReviewEventRow {
  id: string; post_id: string; kind: ReviewEventKind; actor_user_id: string | null; review_link_id: string | null; actor_name: string;
  comment: string | null; details: Record<string, unknown>; created_at: Date;
}

export async function listReviewEvents(q: Queryable, postId: string): Promise<ReviewEventRow[]> {
  return (await q.query<ReviewEventRow>('SELECT * FROM post_review_events WHERE post_id = $1 ORDER BY created_at, id', [postId])).rows;
}

/** Whether the post was ever submitted for review (an edit of it is then recorded). */
export async function hasReviewHistory(q: Queryable, postId: string): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM post_review_events WHERE post_id = $1 LIMIT 1', [postId]);
  return rows.length > 0;
}

export interface CommentRow {
  id: string; post_id: string; visibility: 'internal' | 'client'; author_user_id: string | null; review_link_id: string | null;
  author_name: string; body: string; mentions: string[]; created_at: Date;
}

export async function insertComment(q: Queryable, c: {
  tenantId: string; postId: string; visibility: 'internal' | 'client'; actor: ReviewActor; body: string; mentions: string[]; at: Date;
}): Promise<CommentRow> {
  const { rows } = await q.query<CommentRow>(
    `INSERT INTO post_comments (id, tenant_id, post_id, visibility, author_user_id, review_link_id, author_name, body, mentions, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, COALESCE((SELECT COALESCE(NULLIF(name, ''), email) FROM users WHERE id = $5), $7), $8, $9, $10) RETURNING *`,
    [newId(), c.tenantId, c.postId, c.visibility, c.actor.kind === 'user' ? c.actor.userId : null, c.actor.kind === 'client' ? c.actor.linkId : null,
      c.actor.kind === 'client' ? c.actor.name : '', c.body, c.mentions, c.at]);
  return rows[0];
}

/** A post's comments, oldest first; `clientOnly`: only those a client sees (never the internal ones). */
export async function listComments(q: Queryable, postId: string, clientOnly: boolean): Promise<CommentRow[]> {
  return (await q.query<CommentRow>(
    `SELECT * FROM post_comments WHERE post_id = $1 ${clientOnly ? "AND visibility = 'client'" : ''} ORDER BY created_at, id`, [postId])).rows;
}

export interface ReviewLinkRow {
  id: string; tenant_id: string; created_by: string; post_id: string | null; profile_id: string | null; range_from: Date | null; range_to: Date | null;
  label: string; expires_at: Date; revoked_at: Date | null; created_at: Date;
}

export async function insertReviewLink(q: Queryable, l: {
  tenantId: string; createdBy: string; postId: string | null; profileId: string | null; from: Date | null; to: Date | null; label: string; token: string; expiresAt: Date; at: Date;
}): Promise<ReviewLinkRow> {
  const { rows } = await q.query<ReviewLinkRow>(
    `INSERT INTO review_links (id, tenant_id, created_by, post_id, profile_id, range_from, range_to, label, token_hash, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING id, tenant_id, created_by, post_id, profile_id, range_from, range_to, label, expires_at, revoked_at, created_at`,
    [newId(), l.tenantId, l.createdBy, l.postId, l.profileId, l.from, l.to, l.label, hashReviewToken(l.token), l.expiresAt, l.at]);
  return rows[0];
}

const LINK_COLUMNS = 'id, tenant_id, created_by, post_id, profile_id, range_from, range_to, label, expires_at, revoked_at, created_at';

export async function listReviewLinks(q: Queryable, tenantId: string): Promise<ReviewLinkRow[]> {
  return (await q.query<ReviewLinkRow>(`SELECT ${LINK_COLUMNS} FROM review_links WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC LIMIT 500`, [tenantId])).rows;
}

export async function getReviewLink(q: Queryable, tenantId: string, id: string): Promise<ReviewLinkRow | undefined> {
  return (await q.query<ReviewLinkRow>(`SELECT ${LINK_COLUMNS} FROM review_links WHERE id = $1 AND tenant_id = $2`, [id, tenantId])).rows[0];
}

export async function reviewLinkByToken(q: Queryable, token: string): Promise<ReviewLinkRow | undefined> {
  return (await q.query<ReviewLinkRow>(`SELECT ${LINK_COLUMNS} FROM review_links WHERE token_hash = $1`, [hashReviewToken(token)])).rows[0];
}

export async function revokeReviewLink(q: Queryable, tenantId: string, id: string, at: Date): Promise<void> {
  await q.query('UPDATE review_links SET revoked_at = COALESCE(revoked_at, $3) WHERE id = $1 AND tenant_id = $2', [id, tenantId, at]);
}
