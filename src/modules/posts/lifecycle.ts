/**
 * Deleting and retrying posts (status table: docs/decisions/0004-status-table.md).
 * Deletable: draft, scheduled, failed, publishing, cancelled (published and partial posts
 * have live content and are kept, as is a post being published again with some targets live);
 * failed and partial posts can be retried: only their failed targets are published again.
 */
import { AppError } from '../../core/errors.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { lockAccessiblePost } from './access.ts';
import { viewOf } from './publish-inline.ts';
import type { PublishingPort } from './publishing-port.ts';
import { deletePost, hasPublishedTarget, requeueFailedTargets } from './repository.ts';

const DELETABLE = new Set(['draft', 'scheduled', 'failed', 'publishing', 'cancelled']);

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
     * @throws 409 INVALID_STATE unless the post is failed or partial with a failed target.
     */
    async retry(auth: AuthContext, id: string) {
      await db.tx(async (client) => {
        const post = await lockAccessiblePost(client, auth, id);
        if (post.status !== 'failed' && post.status !== 'partial') {
          throw new AppError('INVALID_STATE', `Only failed or partially published posts can be retried (this post is "${post.status}")`, { status: post.status });
        }
        if (await requeueFailedTargets(client, id) === 0) {
          throw new AppError('INVALID_STATE', 'This post has no failed platform to retry (its unpublished targets were cancelled)', { status: post.status });
        }
      });
      deps.publisher.notifyDue(deps.clock());
      return { message: 'Post queued for retry', post: await viewOf(db, auth, id) };
    },
  };
}
