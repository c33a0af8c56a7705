/**
 * Deleting and retrying posts (status table: docs/decisions/0004-status-table.md).
 * Deletable: draft, scheduled, failed, publishing, cancelled (published and partial posts
 * have live content and are kept, as is a post being published again with some targets live);
 * failed and partial posts can be retried: only their failed targets are published again (all of
 * them, or the one named by account or platform).
 */
import { AppError, fieldError } from '../../core/errors.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { lockAccessiblePost } from './access.ts';
import { viewOf } from './publish-inline.ts';
import type { PublishingPort } from './publishing-port.ts';
import { deletePost, hasPublishedTarget, lockTargets, requeueFailedTargets, targetProfileIds } from './repository.ts';
import { assertMayPublishUnreviewed, lastReviewStep } from '../approvals/repository.ts';

const DELETABLE = new Set(['draft', 'pending_approval', 'scheduled', 'failed', 'publishing', 'cancelled']);

export function createPostLifecycle(deps: { db: Db; publisher: PublishingPort; clock: () => Date }) {
  const { db } = deps;
  return {
    /** @throws 409 INVALID_STATE for published and partial posts. Refunds the post's usage. */
    async remove(auth: AuthContext, id: string) {
      await db.tx(async (client) => {
        const post = await lockAccessiblePost(client, auth, id);
        if (!DELETABLE.has(post.status) || (post.status === 'publishing' && await hasPublishedTarget(client, id))) {
          throw new AppError('INVALID_STATE', post.status === 'published'
            ? 'Published posts cannot be deleted'
            : `Posts with status "${post.status}" cannot be deleted: some targets are already published`, { status: post.status });
        }
        await deletePost(client, id);
      });
      return { message: 'Post deleted successfully' };
    },

    /**
     * Re-queues the failed targets of a failed or partial post for immediate publishing; the
     * published targets of a partial post are left as they are (never published twice).
     * `only` (the route's optional body) narrows it to the target of one account and/or the
     * targets of one platform; the others stay as they are (a failed one can be retried later,
     * once the post is failed or partial again).
     * On a profile that requires approval (decision 0059), a caller who may not approve there retries
     * only a post whose text is the approved one (its last review step is an approval).
     * @throws 409 INVALID_STATE unless the post is failed or partial with a failed target;
     *   403 FORBIDDEN (`reason: approval_required`) for a retry that would publish unreviewed text;
     *   400 VALIDATION_ERROR naming `accountId` or `platform` when no target of the post
     *   matches it, or none that matches is failed.
     */
    async retry(auth: AuthContext, id: string, only: { accountId?: string; platform?: string } = {}) {
      const accountId = only.accountId?.toLowerCase();
      const narrowed = accountId !== undefined || only.platform !== undefined;
      await db.tx(async (client) => {
        const post = await lockAccessiblePost(client, auth, id);
        if (post.status !== 'failed' && post.status !== 'partial') {
          throw new AppError('INVALID_STATE', `Only failed or partially published posts can be retried (this post is "${post.status}")`, { status: post.status });
        }
        await assertMayPublishUnreviewed(client, auth, await targetProfileIds(client, id),
          'this post\'s text was not approved as it stands, so only an approver (the owner or a member the profile\'s rule names) may retry it; '
          + 'or give it a new time (PUT /v1/posts/{postId} with scheduledFor or publishNow), which sends it for review',
          async () => await lastReviewStep(client, id) === 'approved');
        let targetIds: string[] | undefined;
        if (narrowed) {
          const targets = await lockTargets(client, id);
          const field = accountId !== undefined ? 'accountId' : 'platform';
          const named = accountId !== undefined ? `account ${accountId}${only.platform ? ` on ${only.platform}` : ''}` : `platform ${only.platform}`;
          const matching = targets.filter((t) => (accountId === undefined || t.account_id === accountId) && (only.platform === undefined || t.platform === only.platform));
          if (matching.length === 0) throw fieldError(field, `is not a target of this post (no ${named})`);
          const failed = matching.filter((t) => t.status === 'failed');
          if (failed.length === 0) {
            throw fieldError(field, `names a target that is not failed (${named} is ${[...new Set(matching.map((t) => t.status))].join(', ')}); only failed targets can be retried`);
          }
          targetIds = failed.map((t) => t.id);
        }
        if (await requeueFailedTargets(client, id, targetIds ? { targetIds } : undefined) === 0) {
          throw new AppError('INVALID_STATE', 'This post has no failed platform to retry (its unpublished targets were cancelled)', { status: post.status });
        }
      });
      deps.publisher.notifyDue(deps.clock());
      return { message: narrowed ? 'Target queued for retry' : 'Post queued for retry', post: await viewOf(db, auth, id) };
    },
  };
}
