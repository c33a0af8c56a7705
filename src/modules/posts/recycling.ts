/**
 * Recycling on create and update (docs/decisions/0061-recycling.md): a request's `recycling` is
 * applied to the post's config (./recycling-state.ts), checked against the post's targets (excluded
 * platforms, duplicate-content windows, each variation against the platforms' text rules) and the
 * per-account limit, then written beside the post in the caller's transaction. The job that
 * creates the copies is ./recycle-job.ts.
 */
import { AppError, FieldErrorCollector } from '../../core/errors.ts';
import type { MediaRef } from '../../platforms/types.ts';
import { RECYCLE_MAX_ACTIVE_PER_ACCOUNT } from '../../shared/recycling.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  applyRecyclingInput, checkRecyclingTargets, type RecyclingChange, type RecyclingContext, type RecyclingTarget, type StoredRecycling,
} from './recycling-state.ts';
import type { RecyclingInput } from './schemas.ts';
import type { ResolvedTarget, TargetRules } from './targets.ts';

/** What the variations' text rules are checked with: the post's own fields besides its content. */
export interface RecyclingPostFields {
  /** The post's own text (a variation must differ from it where the platform refuses duplicates). */
  content: string;
  media: MediaRef[];
  tags: string[];
  hashtags: string[];
  mentions: string[];
  visibility: 'public' | 'private' | 'unlisted';
  at: Date | null;
}

/**
 * Applies and checks a request's `recycling`: the config change, then, for an enabled config, the
 * targets' platform checks (with `published`, the targets already on their platform, that an edit keeps) and (unless `rulesOff`, a draft) every variation against the text rules
 * of the targets it applies to (those without customContent), reported under
 * `recycling.contentVariations.<i>`. Adds to `errors`; writes nothing.
 */
export function planRecycling(input: RecyclingInput | null, ctx: RecyclingContext, targets: ResolvedTarget[], post: RecyclingPostFields,
  rules: TargetRules, errors: FieldErrorCollector, rulesOff = false, published: RecyclingTarget[] = []): RecyclingChange {
  const change = applyRecyclingInput(input, ctx, errors);
  if (!change.stored?.enabled) return change;
  checkRecyclingTargets(change.stored, [...targets, ...published], errors, post.content);
  const plain = targets.filter((t) => t.customContent === null);
  if (rulesOff || plain.length === 0 || input?.contentVariations === undefined) return change;
  change.stored.contentVariations.forEach((text, i) => {
    const sub = new FieldErrorCollector();
    rules.check(plain, text, post.media, post.tags, post.visibility, post.at, sub, { hashtags: post.hashtags, mentions: post.mentions });
    for (const [field, messages] of Object.entries(sub.fields)) {
      for (const m of messages) errors.add(`recycling.contentVariations.${i}`, field === 'content' ? m : `${field}: ${m}`);
    }
  });
  return change;
}

/**
 * The per-account limit (at most {@link RECYCLE_MAX_ACTIVE_PER_ACCOUNT} posts with enabled recycling per
 * account), checked in the caller's transaction under a lock per account, so that two requests
 * cannot both take the tenth place. `postId`'s own config is not counted.
 * @throws AppError VALIDATION_ERROR on `recycling` naming the account and the rule.
 */
export async function assertRecyclingLimit(q: Queryable, tenantId: string, postId: string, accountIds: string[]): Promise<void> {
  const ids = [...new Set(accountIds)].sort();
  if (ids.length === 0) return;
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('recycling:' || a)) FROM unnest($1::text[]) AS a ORDER BY a`, [ids]);
  const { rows } = await q.query<{ account_id: string; n: number }>(
    `SELECT t.account_id, count(DISTINCT p.id)::int AS n FROM posts p JOIN post_targets t ON t.post_id = p.id
      WHERE p.tenant_id = $1 AND p.id <> $2 AND p.recycling IS NOT NULL AND (p.recycling->>'enabled')::boolean
        AND t.account_id = ANY($3::char(24)[]) AND t.status <> 'cancelled'
      GROUP BY t.account_id HAVING count(DISTINCT p.id) >= $4`, [tenantId, postId, ids, RECYCLE_MAX_ACTIVE_PER_ACCOUNT]);
  if (rows.length === 0) return;
  throw new AppError('VALIDATION_ERROR', `The account ${rows[0].account_id} already has ${rows[0].n} posts with active recycling (at most ${RECYCLE_MAX_ACTIVE_PER_ACCOUNT} per account)`, {
    fields: { recycling: [`the account ${rows[0].account_id} already has ${rows[0].n} posts with active recycling: at most ${RECYCLE_MAX_ACTIVE_PER_ACCOUNT} per account; pause one (recycling: { enabled: false }) or remove it (recycling: null) [rule recycling.max_active_per_account]`] },
    accountId: rows[0].account_id, limit: RECYCLE_MAX_ACTIVE_PER_ACCOUNT,
  });
}

/** Writes a post's recycling config and next due time (in the caller's transaction). */
export async function setRecycling(q: Queryable, postId: string, stored: StoredRecycling | null, nextAt: Date | null): Promise<void> {
  await q.query('UPDATE posts SET recycling = $2, recycle_next_at = $3, updated_at = now() WHERE id = $1',
    [postId, stored === null ? null : JSON.stringify(stored), nextAt]);
}

/**
 * Applies a planned change in the caller's transaction: the limit for an enabled config (over the
 * post's target accounts), then the write.
 */
export async function writeRecycling(q: Queryable, tenantId: string, postId: string, change: RecyclingChange, accountIds: string[]): Promise<void> {
  if (change.stored?.enabled) await assertRecyclingLimit(q, tenantId, postId, accountIds);
  await setRecycling(q, postId, change.stored, change.nextAt);
}
