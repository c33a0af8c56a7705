/**
 * publishNow: publishes a post's targets inside the request, within a time budget, and
 * shapes the answer (201 all published, 207 some failed, 202 still running).
 */
import { notFound } from '../../core/errors.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import type { PublishingPort } from './publishing-port.ts';
import { loadPostViews, type PostViewT } from './repository.ts';

/** How long publishNow may hold the request before answering 202 and leaving the rest to the worker. */
export const PUBLISH_NOW_BUDGET_MS = 25_000;

export interface WriteResult {
  statusCode: 200 | 201 | 202 | 207;
  body: {
    message: string;
    post: PostViewT;
    platformResults?: Array<{ platform: string; accountId: string; status: string; platformPostUrl: string | null; error: string | null }>;
    error?: string;
    warnings?: string[];
  };
}

export type PublishInline = (auth: AuthContext, postId: string, targetIds: string[], okMessage: string) => Promise<WriteResult>;

/** The API view of one of the tenant's posts. @throws 404 NOT_FOUND. */
export async function viewOf(db: Db, auth: Pick<AuthContext, 'tenantId'>, id: string): Promise<PostViewT> {
  const [view] = await loadPostViews(db, auth.tenantId, [id]);
  if (!view) throw notFound('Post');
  return view;
}

export function createPublishInline(deps: { db: Db; publisher: PublishingPort }): PublishInline {
  return async (auth, postId, targetIds, okMessage) => {
    const finished = await deps.publisher.publishNow(targetIds, PUBLISH_NOW_BUDGET_MS);
    const post = await viewOf(deps.db, auth, postId);
    const platformResults = post.platforms.map((t) => ({
      platform: t.platform,
      accountId: typeof t.accountId === 'string' ? t.accountId : t.accountId._id,
      status: t.status,
      platformPostUrl: t.platformPostUrl,
      error: t.errorMessage,
    }));
    // A pending target with the platform's id is made there but not live yet (under the platform's
    // review, still processing, or going live at its time); one without it will be sent again.
    const pending = post.platforms.filter((t) => t.status === 'pending');
    if (!finished || pending.length > 0 || post.platforms.some((t) => t.status === 'publishing')) {
      const notLiveYet = pending.some((t) => !!t.platformPostId);
      const retrying = pending.some((t) => !t.platformPostId);
      return {
        statusCode: 202,
        body: {
          message: retrying
            ? 'Publishing hit a temporary error on some platforms and will be retried automatically. GET /v1/posts/{postId} shows the result.'
            : notLiveYet
              ? 'Published on the platform but not live yet (it is reviewing or processing the post, or it goes live at its time); Herald checks again until it is. GET /v1/posts/{postId} shows the result.'
              : 'Publishing started; it continues in the background. GET /v1/posts/{postId} shows the result.',
          post, platformResults,
        },
      };
    }
    const failed = platformResults.filter((r) => r.status === 'failed');
    if (failed.length > 0) {
      return {
        statusCode: 207,
        body: {
          message: failed.length === platformResults.length ? 'Publishing failed on every platform' : 'Published to some platforms; others failed',
          post, platformResults, error: failed.map((f) => `${f.platform}: ${f.error}`).join('; '),
        },
      };
    }
    return { statusCode: 201, body: { message: okMessage, post, platformResults } };
  };
}
