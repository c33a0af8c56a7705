/**
 * Taking a post back (POST /v1/posts/{postId}/unpublish; docs/decisions/0039): deletes each
 * published target from its platform where the platform allows it ({@link UNPUBLISH}), cancels
 * targets not published yet, and records on each target what happened (removed_from_platform_at,
 * or unpublish_error naming why not). The post becomes `cancelled` when nothing of it is left
 * live, else `partial`. Idempotent: a target already taken back is not called again. Each
 * platform call is a publishing-log entry (action `unpublish`). The post's duplicate claims are
 * released, so its content can be posted again.
 *
 * Platform calls run outside any transaction; the targets are then written in one.
 */
import { AppError } from '../../core/errors.ts';
import { AdapterError, UNPUBLISH, type PlatformId } from '../../platforms/types.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { Db } from '../../storage/db.ts';
import { adapterContextFor } from '../accounts/adapter-context.ts';
import type { AccountRow, AccountsRepository } from '../accounts/repository.ts';
import type { AuthContext } from '../auth/context.ts';
import type { NewLogEntry } from '../logs/service.ts';
import { lockAccessiblePost } from './access.ts';
import { releaseClaims } from './duplicates.ts';
import { viewOf } from './publish-inline.ts';
import { cancelTakenBackTarget, recordUnpublishError, setStatusAfterUnpublish, type TargetRow } from './repository.ts';
import { enqueuePostEvent } from '../webhooks/outbox.ts';

/** What unpublish did to one target. */
export type UnpublishOutcome = 'deleted' | 'already_removed' | 'cancelled' | 'not_supported' | 'failed';

interface UnpublishTarget extends TargetRow {
  removed_from_platform_at: Date | null;
}

export function createPostUnpublish(deps: {
  db: Db; adapters: AdapterRegistry; accounts: AccountsRepository; clock: () => Date; log: (e: NewLogEntry) => Promise<void>;
}) {
  const { db, adapters, accounts, clock } = deps;

  /** Calls the platform for one published target; never throws. */
  async function takeBack(target: UnpublishTarget, account: AccountRow | undefined, tenantId: string, requestId: string | null): Promise<{ outcome: UnpublishOutcome; error?: string }> {
    const platform = target.platform as PlatformId;
    const rule = UNPUBLISH[platform];
    const adapter = adapters.get(platform);
    if (!rule?.supported) {
      return { outcome: 'not_supported', error: `${platform} posts cannot be deleted by Herald: ${rule?.how ?? 'no delete endpoint'}. Delete it on ${platform} itself.` };
    }
    if (!adapter?.unpublish) return { outcome: 'not_supported', error: `Deleting ${platform} posts is not available on this server. Delete it on ${platform} itself.` };
    if (!account) return { outcome: 'failed', error: 'The account was disconnected; reconnect it to delete the post, or delete it on the platform' };
    const started = Date.now();
    const { account: actx, ctx } = adapterContextFor(accounts, account);
    const thread = (target.result as { thread?: Array<{ platformPostId: string }> } | null)?.thread ?? [];
    let out: { outcome: UnpublishOutcome; error?: string };
    let err: AdapterError | null = null;
    try {
      await adapter.unpublish(ctx, actx, { platformPostId: target.platform_post_id!, threadIds: thread.map((t) => t.platformPostId) });
      out = { outcome: 'deleted' };
    } catch (e) {
      err = e instanceof AdapterError ? e : new AdapterError('transient', (e as Error).message);
      if (err.kind === 'disconnected') await accounts.markNeedsReconnect(account.id, err.message);
      out = { outcome: 'failed', error: `${platform} refused the delete: ${err.message}` };
    }
    await deps.log({
      tenantId, accountId: target.account_id, platform, action: 'unpublish', outcome: out.outcome === 'deleted' ? 'success' : 'failed',
      postId: target.post_id, targetId: target.id, error: out.error ?? null, errorCategory: err ? (err.kind === 'rejected' ? 'platform_rejected' : err.kind === 'rate_limited' ? 'platform_rate_limit' : 'platform_error') : null,
      httpStatus: err?.opts.status ?? null, endpoint: err?.opts.endpoint ?? rule.how, responseExcerpt: err?.opts.excerpt ?? null,
      durationMs: Date.now() - started, workerId: 'api', requestId,
    }).catch(() => {});
    return out;
  }

  return {
    /**
     * Unpublishes the post (only the targets of `platform` when given). Answers the post and
     * one result per target concerned. `requestId`: the API request's id, kept on its log entries.
     * @throws 404 NOT_FOUND; 409 INVALID_STATE while a target is being published.
     */
    async unpublish(auth: AuthContext, postId: string, platform?: PlatformId, requestId: string | null = null) {
      const id = postId.toLowerCase();
      const targets = await db.tx(async (client) => {
        await lockAccessiblePost(client, auth, id);
        const { rows } = await client.query<UnpublishTarget>('SELECT * FROM post_targets WHERE post_id = $1 ORDER BY position FOR UPDATE', [id]);
        return rows.filter((t) => !platform || t.platform === platform);
      });
      if (targets.some((t) => t.status === 'publishing')) {
        throw new AppError('INVALID_STATE', 'The post is being published right now; unpublish it once publishing has finished', { status: 'publishing' });
      }
      const rows = await accounts.listForTenant(auth.tenantId, null);
      const byId = new Map(rows.map((a) => [a.id, a]));
      const results = await Promise.all(targets.map(async (t) => {
        if (t.removed_from_platform_at) return { t, outcome: 'already_removed' as const };
        if (t.status === 'published' && t.platform_post_id) return { t, ...(await takeBack(t, byId.get(t.account_id), auth.tenantId, requestId)) };
        if (t.status === 'cancelled') return { t, outcome: 'already_removed' as const };
        return { t, outcome: 'cancelled' as const };
      }));
      const now = clock();
      await db.tx(async (client) => {
        for (const r of results) {
          if (r.outcome === 'deleted' || r.outcome === 'cancelled') await cancelTakenBackTarget(client, r.t.id, r.outcome === 'deleted', now);
          else if (r.outcome === 'not_supported' || r.outcome === 'failed') await recordUnpublishError(client, r.t.id, 'error' in r ? r.error ?? null : null, now);
        }
        // Nothing live left: cancelled; something still live (a platform without delete, or a refused delete): partial.
        await setStatusAfterUnpublish(client, id, now);
        await releaseClaims(client, id);
        // The post.cancelled webhook event, in the same transaction (outbox, decision 0038).
        await enqueuePostEvent(client, id, 'post.cancelled', { whenStatus: 'cancelled' });
      });
      const kept = results.filter((r) => r.outcome === 'not_supported' || r.outcome === 'failed');
      return {
        success: kept.length === 0,
        message: kept.length === 0 ? 'Post unpublished' : `Post unpublished except on ${kept.map((r) => r.t.platform).join(', ')}: see results`,
        post: await viewOf(db, auth, id),
        results: results.map((r) => ({
          platform: r.t.platform, accountId: r.t.account_id, targetId: r.t.id, outcome: r.outcome,
          ...('error' in r && r.error ? { error: r.error } : {}),
        })),
      };
    },
  };
}

export type PostUnpublish = ReturnType<typeof createPostUnpublish>;
