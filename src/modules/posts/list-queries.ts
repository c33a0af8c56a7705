/**
 * The post list (filters, orders, pages and the exact total from the counters) and the other
 * queries over many posts. Reads only.
 */
import { prepared, unseen, type PreparedStatement, type Queryable } from '../../storage/db.ts';
import type { PostSort } from './schemas.ts';
import { P_COLUMNS, TARGETS_JSON, viewWithTargets, type PostViewT, type PostWithTargets } from './views.ts';

/** Filters of the post list; all optional but the tenant. */
export interface PostFilters {
  tenantId: string;
  includeHidden?: boolean;
  status?: string;
  createdBy?: string;
  platform?: string;
  profileId?: string;
  /** Team member scoped to profiles: only posts they created or that target these profiles. */
  scope?: { userId: string; profileIds: readonly string[] };
  from?: Date | null;
  to?: Date | null;
  /** Text the content contains (case-insensitive). */
  search?: string;
  /** The order (default created-desc). */
  sortBy?: PostSort;
}

/** ORDER BY of each list order; every one ends with the id, so pages never overlap. */
const LIST_ORDER: Record<PostSort, string> = {
  'created-desc': 'p.created_at DESC, p.id DESC',
  'created-asc': 'p.created_at ASC, p.id ASC',
  'scheduled-desc': 'p.scheduled_for DESC NULLS LAST, p.id DESC',
  'scheduled-asc': 'p.scheduled_for ASC NULLS LAST, p.id ASC',
  status: 'p.status ASC, p.scheduled_for DESC NULLS LAST, p.id DESC',
  platform: '(SELECT min(t.platform) FROM post_targets t WHERE t.post_id = p.id) ASC NULLS LAST, p.scheduled_for DESC NULLS LAST, p.id DESC',
};

/**
 * The ids of the posts of the profiles `profileMatch` selects (an SQL comparison applied to
 * `profile_id`, e.g. `= $3`): `post_profiles` (migrations/0040_post_profiles.sql) holds a row per post
 * and profile while the post has a target on one of the profile's accounts or is queued from it.
 */
const postsOfProfiles = (profileMatch: string) => `SELECT pp.post_id FROM post_profiles pp WHERE pp.profile_id ${profileMatch}`;

/**
 * The list orders a profile's page reads from `post_profiles`' own indexes (the row copies the post's
 * created_at and scheduled_for): the same order as LIST_ORDER's, on the copies.
 */
const PROFILE_ORDER: Partial<Record<PostSort, string>> = {
  'created-desc': 'pp.created_at DESC, pp.post_id DESC',
  'created-asc': 'pp.created_at ASC, pp.post_id ASC',
  'scheduled-desc': 'pp.scheduled_for DESC NULLS LAST, pp.post_id DESC',
  'scheduled-asc': 'pp.scheduled_for ASC NULLS LAST, pp.post_id ASC',
};

/** A LIKE pattern matching `text` anywhere (its %, _ and \ taken literally). */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * One page of the tenant's posts (views with their targets), newest first, and the exact
 * total matching the filters.
 *
 * Without filters other than `status` and `includeHidden`, the total is the sum of the
 * tenant's `post_counters` rows (migrations/0012_post_counters.sql: kept by triggers on `posts` in the
 * writing transaction, one row per writing backend), read in the same statement (so from the same snapshot)
 * as the page: no rows are counted (docs/decisions/0034-post-counters.md). With `profileId` and
 * `includeHidden` only, it is the sum of the profile's `profile_post_counters` rows, kept alike
 * (migrations/0040_post_profiles.sql, docs/decisions/0072-post-profiles.md). Other filters count the
 * matching rows.
 */
export async function listPostPage(q: Queryable, f: PostFilters, limit: number, offset: number): Promise<{ posts: PostViewT[]; total: number }> {
  const args: unknown[] = [f.tenantId];
  if (f.status) args.push(f.status);
  if (f.createdBy) args.push(f.createdBy);
  if (f.platform) args.push(f.platform);
  if (f.profileId) args.push(f.profileId);
  if (f.scope) args.push(f.scope.userId, f.scope.profileIds);
  if (f.from) args.push(f.from);
  if (f.to) args.push(f.to);
  if (f.search) args.push(containsPattern(f.search));
  const st = listStatements(f, limit, offset === 0);
  const pageArgs = offset === 0 ? args : [...args, offset];
  if (st.countedTotal) {
    // The total rides along on every row; a page past the end has none and asks for it alone.
    const { rows } = await q.query<PostWithTargets & { total: number }>(st.page, pageArgs);
    const total = rows[0]?.total ?? (offset === 0 ? 0 : (await q.query<{ total: number }>(st.countedTotal, args)).rows[0].total);
    return { posts: rows.map(viewWithTargets), total };
  }
  const [{ rows }, { rows: countRows }] = await Promise.all([
    q.query<PostWithTargets>(st.page, pageArgs),
    q.query<{ n: number }>(st.count!, args),
  ]);
  return { posts: rows.map(viewWithTargets), total: countRows[0].n };
}

interface ListStatements {
  /** $1 tenant, then the filters' values in PostFilters order, then the offset unless it is 0. */
  page: PreparedStatement;
  /** With counters: the total alone (the page's parameters but the offset). */
  countedTotal: PreparedStatement | null;
  /** Without counters: count(*) ($1 tenant, then the filters' values). */
  count: PreparedStatement | null;
}

const listStatementCache = new Map<string, ListStatements>();

/**
 * The prepared statements of one combination of filters and page size. The page size and a
 * first page's offset are written into the text: with `LIMIT $n` PostgreSQL's generic plan
 * assumes a tenth of the rows, so it re-plans the statement on every call (custom plans),
 * which costs more than running it. With literals it keeps one generic plan per connection.
 * Later pages take the offset as a parameter (and are planned per call). At most 100 page
 * sizes (`limit` is clamped) per combination of filters.
 */
function listStatements(f: PostFilters, limit: number, firstPage: boolean): ListStatements {
  const filters = [!f.includeHidden && 'visible', f.status && 'status', f.createdBy && 'creator', f.platform && 'platform', f.profileId && 'profile',
    f.scope && 'scope', f.from && 'from', f.to && 'to', f.search && 'search'].filter(Boolean).join('.') || 'all';
  const order = f.sortBy ?? 'created-desc';
  const key = `${filters}.${order}.${limit}${firstPage ? '' : '.offset'}`;
  const cached = listStatementCache.get(key);
  if (cached) return cached;
  // A profile's posts are read from its side (post_profiles: a row per post and profile, kept by triggers
  // in the writing transaction), in list order from that table's own indexes where the order allows,
  // so a page stops after its rows instead of gathering and sorting every post of the profile
  // (docs/decisions/0072-post-profiles.md).
  const profileOrder = f.profileId ? PROFILE_ORDER[order] : undefined;
  // The exact total without counting rows: the tenant's counters (status and hidden only), or a
  // profile's (profile and hidden only; migrations/0040_post_profiles.sql).
  const others = f.createdBy || f.platform || f.scope || f.from || f.to || f.search;
  const tenantCounted = !others && !f.profileId;
  const profileCounted = !others && !!f.profileId && !f.status;
  const counted = tenantCounted || profileCounted;
  // A profile's page filtered by nothing but what post_profiles holds or reaches without the post's row
  // (hidden, the date range on its copies of the sort keys, the platform of a target) reads post_profiles
  // alone up to the page, and posts for the page's rows only; so does its total when the counters do not
  // give it. Through a join to posts, a deep page skipped its OFFSET (page 1,000 of a 31,524-post profile:
  // 30 ms of PostgreSQL per request) and a month's total read every post of the profile (186 ms).
  // The profile must be the tenant's (a one-time check; post_profiles has no tenant in its index), so another
  // tenant's profile is an empty page at once; posts are joined on the tenant all the same.
  const profileSide = !!profileOrder && !f.status && !f.createdBy && !f.scope && !f.search;
  // The profile (and on a profile-side page the tenant and the offset) are values the planner does not see
  // (unseen): with plain parameters the custom plan for a big profile of a big tenant looked cheaper than the
  // generic one, so PostgreSQL planned the statement on every call (0.33-0.46 ms against 0.18 ms of execution
  // at a million posts; docs/decisions/0073-generic-plans-for-hot-statements.md).
  let n = 2;
  const ppWhere: string[] = []; // conditions on post_profiles (and what it reaches by post id) alone
  const where: string[] = [profileSide ? `p.tenant_id = ${unseen('$1::char(24)')}` : 'p.tenant_id = $1'];
  const [side, onSide, postId] = profileSide ? ['pp', ppWhere, 'pp.post_id'] : ['p', where, 'p.id'];
  if (!f.includeHidden) onSide.push(`NOT ${side}.hidden`);
  if (f.status) where.push(`p.status = $${n++}`);
  if (f.createdBy) where.push(`p.created_by = $${n++}`);
  if (f.platform) onSide.push(`EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = ${postId} AND t.platform = $${n++})`);
  let profileParam = 0;
  if (f.profileId) {
    profileParam = n++;
    if (!profileOrder) where.push(`p.id IN (${postsOfProfiles(`= $${profileParam}`)})`);
    else ppWhere.push(`pp.profile_id = ${unseen(`$${profileParam}::char(24)`)}`);
    if (profileSide) ppWhere.push(`EXISTS (SELECT 1 FROM profiles pr WHERE pr.id = $${profileParam} AND pr.tenant_id = $1)`);
  }
  if (f.scope) {
    where.push(`(p.created_by = $${n} OR p.id IN (${postsOfProfiles(`= ANY($${n + 1}::char(24)[])`)}))`);
    n += 2;
  }
  // The post's time is COALESCE(scheduled_for, created_at) (a draft has no scheduled_for), written as two
  // disjoint ranges so that each has an index. Where post_profiles is read, on its copies
  // (post_profiles_scheduled_idx and post_profiles_created_idx start with the profile), so only the range's
  // rows of the profile are joined to their posts (a profile's upcoming scheduled posts, the queue editor's
  // list, read every post of the profile). Otherwise on the post: posts_tenant_scheduled_idx, carrying
  // created_at and `hidden`, and posts_tenant_drafts_idx (migrations/0042_posts_list_indexes_carry_range.sql).
  // On a profile's side one OR condition; otherwise two branches of a UNION ALL, so that each is a range
  // scan of its index (as one OR, PostgreSQL read a heap page per post of the tenant's range).
  let rangeParts: [string, string] | null = null;
  if (f.from || f.to) {
    const [lo, hi] = [f.from ? `$${n++}` : null, f.to ? `$${n++}` : null];
    const range = (col: string) => [lo && `${col} >= ${lo}`, hi && `${col} <= ${hi}`].filter(Boolean).join(' AND ');
    const on = profileOrder ? 'pp' : 'p';
    const parts: [string, string] = [range(`${on}.scheduled_for`), `${on}.scheduled_for IS NULL AND ${range(`${on}.created_at`)}`];
    if (profileSide) ppWhere.push(`((${parts[0]}) OR (${parts[1]}))`);
    else rangeParts = parts;
  }
  if (f.search) where.push(`p.content ILIKE $${n++} ESCAPE '\\'`);
  const cond = [...ppWhere, ...where].join(' AND ');
  const from = profileOrder ? 'post_profiles pp JOIN posts p ON p.id = pp.post_id' : 'posts p';
  const orderBy = profileOrder ?? LIST_ORDER[order];
  const counterSum = tenantCounted
    ? `(SELECT COALESCE(sum(c.n), 0)::int FROM post_counters c WHERE c.tenant_id = $1${f.includeHidden ? '' : ' AND NOT c.hidden'}${f.status ? ' AND c.status = $2' : ''})`
    : `(SELECT COALESCE(sum(c.n), 0)::int FROM profile_post_counters c WHERE c.tenant_id = $1 AND c.profile_id = $${profileParam}${f.includeHidden ? '' : ' AND NOT c.hidden'})`;
  const views = `${P_COLUMNS}, ${TARGETS_JSON} AS targets${counted ? `, ${counterSum} AS total` : ''}`;
  const limitSql = `LIMIT ${Math.trunc(limit)}${firstPage ? '' : ` OFFSET ${profileSide ? unseen(`$${n}::int`) : `$${n}`}`}`;
  // A later page takes its ids first, then the views of those rows only: in one SELECT, PostgreSQL
  // built the targets of every row the OFFSET skipped (page 500 of a million posts built 5,000 of
  // them: 110 ms instead of 4). So does a profile's page in an order post_profiles has no index for,
  // and a scoped member's. A first page read in list order stops after its rows either way and stays
  // one pass. A profile-side page takes its ids from post_profiles alone.
  //
  // With a date range the page is taken from the range's rows (found by the two indexes), sorted:
  // PostgreSQL would otherwise walk the tenant's posts newest first, expecting the range's rows
  // spread evenly over them, and a month a year back meant reading half a million rows to find 50.
  const ranged = !!(f.from || f.to);
  const onePass = firstPage && !ranged && !f.scope && (!f.profileId || !!profileOrder);
  const ppCond = ppWhere.join(' AND ');
  // The range's rows: one branch per index, each with every other condition.
  const rangeRows = (cols: string) => rangeParts!.map((part) => `SELECT ${cols} FROM ${from} WHERE ${cond} AND ${part}`).join(' UNION ALL ');
  const ids = profileSide
    ? `SELECT pp.post_id AS id FROM ${ranged ? `(SELECT pp.post_id, pp.scheduled_for, pp.created_at FROM post_profiles pp WHERE ${ppCond} OFFSET 0) pp` : `post_profiles pp WHERE ${ppCond}`}
          ORDER BY ${orderBy} ${limitSql}`
    : ranged
      ? `SELECT p.id FROM (${rangeRows(`p.id, p.created_at, p.scheduled_for${order === 'status' ? ', p.status' : ''}`)} OFFSET 0) p
          ORDER BY ${LIST_ORDER[order]} ${limitSql}`
      : `SELECT p.id FROM ${from} WHERE ${cond} ORDER BY ${orderBy} ${limitSql}`;
  const page = onePass
    ? `SELECT ${views} FROM ${from} WHERE ${cond} ORDER BY ${orderBy} ${limitSql}`
    : `WITH page AS (${ids})
       SELECT ${views} FROM page JOIN posts p ON p.id = page.id${profileSide ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${LIST_ORDER[order]}`;
  const countRows = profileSide ? `post_profiles pp WHERE ${ppCond}` : rangeParts ? `(${rangeRows('1')}) r` : `${from} WHERE ${cond}`;
  const st: ListStatements = {
    page: prepared(`posts.page.${key}`, page),
    countedTotal: counted ? prepared(`posts.total.${filters}`, `SELECT ${counterSum} AS total`) : null,
    count: counted ? null : prepared(`posts.count.${filters}${profileOrder ? '.by-profile' : ''}`, `SELECT count(*)::int AS n FROM ${countRows}`),
  };
  listStatementCache.set(key, st);
  return st;
}

/**
 * The platform ids of the posts a user may see on `platform`: each published target's id and the
 * items of its thread (`result.thread`). Scoped team members get those of the posts they created
 * or that target their profiles (./access.ts). For the sandbox's simulator state
 * (src/modules/sandbox/routes.ts), which shows a caller only their own posts.
 */
export async function platformPostIdsOf(q: Queryable, auth: { tenantId: string; userId: string; profileAccess: string; profileIds: readonly string[] }, platform: string): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT DISTINCT x.id FROM post_targets t
       JOIN posts p ON p.id = t.post_id
       CROSS JOIN LATERAL (
         SELECT t.platform_post_id AS id
         UNION ALL
         SELECT e->>'platformPostId' FROM jsonb_array_elements(CASE WHEN jsonb_typeof(t.result->'thread') = 'array' THEN t.result->'thread' ELSE '[]'::jsonb END) e) x
      WHERE t.tenant_id = $1 AND t.platform = $2 AND x.id IS NOT NULL
        AND ($3 OR p.created_by = $4 OR EXISTS (SELECT 1 FROM accounts a WHERE a.id = t.account_id AND a.profile_id = ANY($5::char(24)[])))`,
    [auth.tenantId, platform, auth.profileAccess === 'all', auth.userId, auth.profileIds]);
  return rows.map((r) => r.id);
}
