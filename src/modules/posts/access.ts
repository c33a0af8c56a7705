/** Which posts a user may see and change: the tenant's, and for team members scoped to profiles, theirs. */
import { notFound } from '../../core/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import { postCreatorScope, type AuthContext } from '../auth/context.ts';
import { lockPost, targetProfileIds, type PostRow } from './repository.ts';

/** Team members scoped to profiles see posts they created or that target their profiles (an OAuth grant: only the latter). @throws 404 NOT_FOUND. */
export async function assertPostAccess(q: Queryable, auth: AuthContext, post: PostRow): Promise<void> {
  if (auth.profileAccess === 'all' || post.created_by === postCreatorScope(auth)) return;
  const profiles = await targetProfileIds(q, post.id);
  if (!profiles.some((p) => auth.profileIds.includes(p))) throw notFound('Post');
}

/** The post, locked FOR UPDATE in the caller's transaction, if the user may change it. @throws 404 NOT_FOUND. */
export async function lockAccessiblePost(q: Queryable, auth: AuthContext, id: string): Promise<PostRow> {
  const post = await lockPost(q, auth.tenantId, id);
  if (!post) throw notFound('Post');
  await assertPostAccess(q, auth, post);
  return post;
}
