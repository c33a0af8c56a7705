/** Reading posts: one post, and the filtered, paginated list. */
import { AppError, notFound } from '../../core/errors.ts';
import type { Db } from '../../storage/db.ts';
import { canAccessProfile, postCreatorScope, type AuthContext } from '../auth/context.ts';
import { getAccessibleProfile } from '../profiles/service.ts';
import { assertPostAccess } from './access.ts';
import { viewOf } from './publish-inline.ts';
import { getPostRow, listPostPage, platformPostIdsOf } from './repository.ts';
import type { ListPostsQuery } from './schemas.ts';

/** A dateFrom/dateTo bound: a date (whole day, UTC) or a date-time. @throws 400 VALIDATION_ERROR naming the field. */
function bound(v: string | undefined, field: string, endOfDay: boolean): Date | null {
  if (!v) return null;
  const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z`) : new Date(v);
  // Years outside 1..9999 are valid JS dates but out of PostgreSQL's timestamptz range (a 500 otherwise).
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) throw new AppError('VALIDATION_ERROR', `Invalid ${field}`, { fields: { [field]: ['must be an ISO 8601 date or date-time (years 1 to 9999)'] } });
  return d;
}

export function createPostReads(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** @throws 404 NOT_FOUND (also for a post outside a team member's profiles). */
    async get(auth: AuthContext, id: string) {
      const post = await viewOf(db, auth, id);
      if (auth.profileAccess !== 'all') await assertPostAccess(db, auth, (await getPostRow(db, id))!);
      return { post };
    },

    /**
     * One post of the tenant, whoever asks: for work on the tenant's behalf after the right to the
     * post was checked otherwise (a client review link that shows it, decision 0059). @throws 404 NOT_FOUND.
     */
    async getForTenant(tenantId: string, id: string) {
      return { post: await viewOf(db, { tenantId }, id) };
    },

    /** The tenant's posts, newest first, filtered; `limit` at most 100. */
    async list(auth: AuthContext, q: ListPostsQuery) {
      const page = q.page ?? 1;
      const limit = Math.min(q.limit ?? 10, 100);
      const profileId = q.profileId ? q.profileId.toLowerCase() : undefined;
      // A profile the caller may not see is refused before any query; whether the tenant has it is asked only
      // for an empty page (a row of the page proves it: post_profiles joins posts of this tenant only).
      if (profileId && !canAccessProfile(auth, profileId)) throw notFound('Profile');
      const from = bound(q.dateFrom, 'dateFrom', false);
      const to = bound(q.dateTo, 'dateTo', true);
      const { posts, total } = await listPostPage(db, {
        tenantId: auth.tenantId, includeHidden: q.includeHidden, status: q.status, createdBy: q.createdBy?.toLowerCase(), platform: q.platform,
        profileId, scope: auth.profileAccess !== 'all' ? { userId: postCreatorScope(auth), profileIds: auth.profileIds } : undefined, from, to,
        search: q.search?.trim() || undefined, sortBy: q.sortBy,
      }, limit, (page - 1) * limit);
      if (profileId && posts.length === 0) await getAccessibleProfile(db, auth, profileId);
      return { posts, pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
    },

    /** The platform ids of the caller's posts on `platform` (published targets and their threads' items). */
    async platformPostIds(auth: AuthContext, platform: string): Promise<string[]> {
      return platformPostIdsOf(db, { ...auth, userId: postCreatorScope(auth) }, platform);
    },
  };
}
