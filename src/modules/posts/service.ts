/**
 * Posts: create, update, delete, retry, list (spec.md sections 3-5).
 *
 * A post, its targets and their jobs are written in ONE transaction: a target row in
 * status `pending` with `run_at` IS the publish job (src/publishing/). So a post is never
 * saved without its job, and the job cannot outlive its post.
 *
 * Status table (spec.md section 4, spec wins over the docs page):
 *   editable: draft, scheduled, failed, partial; deletable: draft, scheduled, failed,
 *   publishing, cancelled (published and partial posts have live content and are kept);
 *   only failed posts can be retried.
 */
import { AppError, FieldErrorCollector, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { PLANS } from '../../shared/plans.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { MediaRef, PlatformId } from '../../platforms/types.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { PublishingPort } from './publishing-port.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import type { AccountRow } from '../accounts/service.ts';
import type { UsageService } from '../usage/service.ts';
import type { QueueService } from '../queue/service.ts';
import { getAccessibleProfile } from '../profiles/service.ts';
import { mediaIdFromUrl } from '../media/lookup.ts';
import { loadPostViews, postView, recomputePostStatus, type PostRow, type PostViewT, type TargetRow } from './repository.ts';
import type { CreatePostBody, ListPostsQuery, PlatformTargetInput, UpdatePostBody } from './schemas.ts';
import {
  buildPublishRequest, checkPlatformRules, normalizeMedia, normalizeTags, parseSchedule, threadItemsOf,
} from './validation.ts';

const EDITABLE = new Set(['draft', 'scheduled', 'failed', 'partial']);
const DELETABLE = new Set(['draft', 'scheduled', 'failed', 'publishing', 'cancelled']);
/** How long publishNow may hold the request before answering 202 and leaving the rest to the worker. */
const PUBLISH_NOW_BUDGET_MS = 25_000;

export interface ResolvedTarget {
  account: AccountRow;
  platform: PlatformId;
  customContent: string | null;
  platformSpecificData: Record<string, unknown>;
}

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

type Mode = 'draft' | 'now' | 'scheduled';

/** Where target accounts come from: the database, or a preloaded list (bulk upload). */
export interface AccountSource {
  byIds(ids: string[]): Promise<AccountRow[]>;
  /** Every account of the tenant. */
  all(): Promise<AccountRow[]>;
  profileAccessible(profileId: string): Promise<boolean>;
}

/** An {@link AccountSource} reading the tenant's accounts from the database. */
export function dbAccountSource(q: Queryable, tenantId: string, auth?: AuthContext): AccountSource {
  return {
    byIds: async (ids) => (await q.query<AccountRow>('SELECT * FROM accounts WHERE tenant_id = $1 AND id = ANY($2::char(24)[])', [tenantId, ids])).rows,
    all: async () => (await q.query<AccountRow>('SELECT * FROM accounts WHERE tenant_id = $1 ORDER BY created_at, id', [tenantId])).rows,
    profileAccessible: async (profileId) => {
      const { rows } = await q.query<{ id: string }>('SELECT id FROM profiles WHERE id = $1 AND tenant_id = $2', [profileId, tenantId]);
      return rows.length > 0 && (!auth || canAccessProfile(auth, profileId));
    },
  };
}

/** A validated new post, ready to insert (planNewPost -> insertPlannedPosts). */
export interface PlannedPost {
  id: string;
  mode: Mode;
  warnings: string[];
  queueProfile: string | null;
  targets: ResolvedTarget[];
  /** Filled by insertPlannedPosts. */
  targetIds: string[];
  runAt: Date | null;
  timezone: string;
  timezoneGiven: boolean;
  preferredAt: Date | null;
  title: string | null;
  content: string;
  visibility: 'public' | 'private' | 'unlisted';
  tags: string[];
  media: MediaRef[];
  hidden: boolean;
  metadata: Record<string, unknown>;
  /** Set by insertPlannedPosts. */
  createdAt?: Date;
}

export function createPostsService(deps: {
  db: Db; usage: UsageService; adapters: AdapterRegistry; publisher: PublishingPort; clock: () => Date; mediaStorage: MediaStorage; queue: QueueService;
}) {
  const { db, usage, adapters, publisher, clock, queue } = deps;

  /**
   * A target's run_at: its post's time, except on platforms that schedule natively
   * (capability `uploadsAhead`, YouTube): a future target runs at once and the adapter hands
   * the post's scheduledFor to the platform (private + publishAt). See docs/decisions/0017-youtube.md.
   */
  function targetRunAt(platform: PlatformId, runAt: Date | null, now: Date): Date | null {
    // More than a minute ahead (a nearer time is simply published then, as on other platforms).
    if (runAt && runAt.getTime() > now.getTime() + 60_000 && adapters.get(platform)?.capabilities.uploadsAhead) return now;
    return runAt;
  }
  /** True when some target runs ahead of the post's time (see targetRunAt). */
  const uploadsAhead = (targets: ResolvedTarget[], runAt: Date | null, now: Date) => targets.some((t) => targetRunAt(t.platform, runAt, now) !== runAt);

  /**
   * Loads the accounts named by `platforms[]`, or all accessible active accounts when
   * omitted on a non-draft (`onlyProfile`: that profile's accounts only, for queued posts).
   */
  async function resolveTargets(source: AccountSource, auth: AuthContext, items: PlatformTargetInput[] | undefined, mode: Mode, errors: FieldErrorCollector, onlyProfile?: string): Promise<ResolvedTarget[]> {
    if (items === undefined) {
      if (mode === 'draft') return [];
      const rows = (await source.all()).filter((a) => a.is_active && (!onlyProfile || a.profile_id === onlyProfile));
      const accessible = rows.filter((a) => canAccessProfile(auth, a.profile_id));
      if (accessible.length === 0) errors.add('platforms', 'is required: there are no active connected accounts to publish to');
      return accessible.map((a) => ({ account: a, platform: a.platform, customContent: null, platformSpecificData: {} }));
    }
    if (items.length === 0 && mode !== 'draft') {
      errors.add('platforms', 'must name at least one { platform, accountId } (or be omitted to target all active accounts)');
      return [];
    }
    const ids = [...new Set(items.map((i) => i.accountId.toLowerCase()))];
    const rows = await source.byIds(ids);
    const byId = new Map(rows.filter((a) => canAccessProfile(auth, a.profile_id)).map((a) => [a.id, a]));
    const seen = new Set<string>();
    const out: ResolvedTarget[] = [];
    items.forEach((item, i) => {
      const id = item.accountId.toLowerCase();
      const account = byId.get(id);
      if (!account) {
        errors.add(`platforms.${i}.accountId`, 'is not a connected account of yours (see GET /v1/accounts)');
        return;
      }
      if (account.platform !== item.platform) {
        errors.add(`platforms.${i}.platform`, `does not match the account's platform (${account.platform})`);
        return;
      }
      if (seen.has(id)) {
        errors.add(`platforms.${i}.accountId`, 'appears more than once in platforms');
        return;
      }
      seen.add(id);
      if (!account.is_active && mode !== 'draft') {
        errors.add(`platforms.${i}.accountId`, `the ${account.platform} account @${account.username} is disconnected (${account.inactive_reason ?? 'reconnect it'}); reconnect it before publishing`);
        return;
      }
      out.push({
        account,
        platform: item.platform,
        customContent: item.customContent ?? null,
        platformSpecificData: (item.platformSpecificData ?? {}) as Record<string, unknown>,
      });
    });
    return out;
  }

  /** Checks every target against its platform's rules (skipped for drafts). */
  function checkTargets(targets: ResolvedTarget[], content: string, media: MediaRef[], tags: string[], visibility: 'public' | 'private' | 'unlisted', at: Date | null, errors: FieldErrorCollector) {
    targets.forEach((t, i) => {
      const thread = threadItemsOf(t.platformSpecificData, `platforms.${i}.platformSpecificData`, errors);
      const req = buildPublishRequest({
        content, customContent: t.customContent, mediaItems: media, platformSpecificData: t.platformSpecificData,
        threadItems: thread, tags, visibility, scheduledFor: at, accountSettings: t.account.settings ?? {},
      });
      if (!req.text.trim() && req.mediaItems.length === 0) {
        errors.add(t.customContent !== null ? `platforms.${i}.customContent` : 'content', `is required for ${t.platform}: give text or mediaItems`);
        return;
      }
      checkPlatformRules(adapters, t.platform, i, req, t.customContent !== null, errors);
    });
  }

  async function insertTargets(q: Queryable, auth: AuthContext, postId: string, targets: ResolvedTarget[], status: 'draft' | 'pending', runAt: Date | null, startPosition = 0): Promise<string[]> {
    if (targets.length === 0) return [];
    const ids = targets.map(() => newId());
    await q.query(
      `INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, custom_content, platform_specific_data, status, run_at)
       SELECT u.id, $1, $2, u.pos, u.account_id, u.platform, u.custom_content, u.psd, $3, u.run_at
         FROM unnest($5::char(24)[], $6::int[], $7::char(24)[], $8::text[], $9::text[], $10::jsonb[], $4::timestamptz[])
           AS u(id, pos, account_id, platform, custom_content, psd, run_at)`,
      [postId, auth.tenantId, status, targets.map((t) => (status === 'pending' ? targetRunAt(t.platform, runAt, clock()) : runAt)), ids,
        targets.map((_, i) => startPosition + i), targets.map((t) => t.account.id),
        targets.map((t) => t.platform), targets.map((t) => t.customContent), targets.map((t) => JSON.stringify(t.platformSpecificData))],
    );
    return ids;
  }

  async function viewOf(auth: AuthContext, id: string): Promise<PostViewT> {
    const [view] = await loadPostViews(db, auth.tenantId, [id]);
    if (!view) throw notFound('Post');
    return view;
  }

  /** Publishes the given targets inline and shapes the 201/207/202 answer. */
  async function publishInline(auth: AuthContext, postId: string, targetIds: string[], okMessage: string): Promise<WriteResult> {
    const finished = await publisher.publishNow(targetIds, PUBLISH_NOW_BUDGET_MS);
    const post = await viewOf(auth, postId);
    const platformResults = post.platforms.map((t) => ({
      platform: t.platform,
      accountId: typeof t.accountId === 'string' ? t.accountId : t.accountId._id,
      status: t.status,
      platformPostUrl: t.platformPostUrl,
      error: t.errorMessage,
    }));
    const unfinished = platformResults.filter((r) => r.status === 'pending' || r.status === 'publishing');
    if (!finished || unfinished.length > 0) {
      const retrying = unfinished.some((r) => r.status === 'pending');
      return {
        statusCode: 202,
        body: {
          message: retrying
            ? 'Publishing hit a temporary error on some platforms and will be retried automatically. GET /v1/posts/{postId} shows the result.'
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
  }

  /**
   * Fills size, type and ffprobe metadata (duration, dimensions, codecs) into media items
   * that are Herald's own uploads, so platform rules on sizes and durations are checked
   * before publishing. Foreign URLs are left as given.
   */
  async function enrichMedia(tenantId: string, lists: MediaRef[][]): Promise<void> {
    const items = lists.flat().map((m) => ({ m, id: mediaIdFromUrl(m.url, tenantId) })).filter((x): x is { m: MediaRef; id: string } => !!x.id);
    if (items.length === 0) return;
    const { rows } = await db.query<{ id: string; type: MediaRef['type']; mime_type: string; size: number; metadata: Record<string, unknown> }>(
      'SELECT id, type, mime_type, size, metadata FROM media_files WHERE tenant_id = $1 AND id = ANY($2::char(24)[])',
      [tenantId, [...new Set(items.map((x) => x.id))]]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const { m, id } of items) {
      const r = byId.get(id);
      if (!r) continue;
      const md = r.metadata ?? {};
      m.size = Number(r.size);
      m.mimeType = r.mime_type;
      m.type = r.type;
      if (typeof md.duration === 'number') m.durationSeconds = md.duration;
      if (typeof md.width === 'number') m.width = md.width;
      if (typeof md.height === 'number') m.height = md.height;
      if (typeof md.videoCodec === 'string') m.videoCodec = md.videoCodec;
      if (typeof md.audioCodec === 'string') m.audioCodec = md.audioCodec;
    }
  }

  /**
   * Validates a new post completely (schema-level input already checked) without writing
   * anything: mode, schedule, tags, media, targets and every platform rule.
   * @throws AppError VALIDATION_ERROR naming each field and rule; NOT_FOUND for a foreign queue profile.
   */
  async function planNewPost(auth: AuthContext, body: CreatePostBody, source: AccountSource): Promise<PlannedPost> {
    const errors = new FieldErrorCollector();
    const warnings: string[] = [];
    if (body.isDraft && body.publishNow) errors.add('publishNow', 'cannot be true together with isDraft');
    const queueProfile = body.queuedFromProfile ? body.queuedFromProfile.toLowerCase() : null;
    if (queueProfile && body.isDraft) errors.add('queuedFromProfile', 'a draft cannot be queued; omit isDraft to add the post to the queue');
    if (queueProfile && body.publishNow) errors.add('queuedFromProfile', 'cannot be combined with publishNow');
    const schedule = parseSchedule(body, errors);
    const mode: Mode = body.isDraft ? 'draft' : body.publishNow ? 'now' : schedule.at || queueProfile ? 'scheduled' : 'draft';
    if (!body.isDraft && !body.publishNow && !body.scheduledFor && !queueProfile) warnings.push('No scheduledFor or publishNow given: the post was saved as a draft');
    const tags = normalizeTags(body.tags, errors);
    const media = normalizeMedia(body.mediaItems, 'mediaItems', errors);
    await enrichMedia(auth.tenantId, [media]);
    const content = body.content ?? '';
    const visibility = body.visibility ?? 'public';
    const now = clock();
    if (queueProfile && !(await source.profileAccessible(queueProfile))) throw notFound('Profile');
    const targets = await resolveTargets(source, auth, body.platforms, mode, errors, queueProfile ?? undefined);
    if (mode !== 'draft') checkTargets(targets, content, media, tags, visibility, mode === 'now' ? now : schedule.at, errors);
    else targets.forEach((t, i) => threadItemsOf(t.platformSpecificData, `platforms.${i}.platformSpecificData`, errors));
    errors.throwIfAny();
    if (mode === 'scheduled' && !queueProfile && schedule.at!.getTime() < now.getTime() - 60_000) {
      warnings.push('scheduledFor is in the past: the post is published right away');
    }
    return {
      id: newId(), mode, warnings, queueProfile, targets, targetIds: [],
      runAt: mode === 'now' ? now : schedule.at, timezone: schedule.timezone, timezoneGiven: !!body.timezone,
      title: body.title ?? null, content, visibility, tags, media, hidden: body.hidden ?? false, metadata: (body.metadata ?? {}) as Record<string, unknown>,
      preferredAt: schedule.at,
    };
  }

  /**
   * Writes planned posts with their targets (the jobs) in the caller's transaction:
   * checks the plan's upload limit for all of them at once, takes queue slots, then one
   * multi-row INSERT for the posts and one for the targets. Returns the post ids.
   * @throws AppError PLAN_LIMIT_REACHED when the posts do not all fit the limit.
   */
  async function insertPlannedPosts(client: Queryable, auth: AuthContext, plans: PlannedPost[]): Promise<string[]> {
    const counted = plans.filter((p) => p.mode !== 'draft').length;
    if (counted > 0) await usage.assertUploadsAvailable(client, auth, counted);
    const now = clock();
    const batchTaken = new Map<string, Set<number>>();
    for (const p of plans) {
      if (!p.queueProfile) continue;
      const taken = batchTaken.get(p.queueProfile) ?? new Set<number>();
      batchTaken.set(p.queueProfile, taken);
      const slot = await queue.allocate(client, auth, p.queueProfile, p.preferredAt, undefined, taken);
      taken.add(slot.at.getTime());
      p.runAt = slot.at;
      if (!p.timezoneGiven) p.timezone = slot.timezone;
    }
    // One statement inserts the posts and their targets (the jobs): atomic on its own.
    const rows = plans.flatMap((p) => p.targets.map((t, i) => ({ p, t, i, id: newId() })));
    for (const r of rows) r.p.targetIds.push(r.id);
    for (const p of plans) p.createdAt = now;
    await client.query(
      `WITH new_posts AS (
         INSERT INTO posts (id, tenant_id, created_by, title, content, status, scheduled_for, timezone, publish_now, is_draft,
                            visibility, tags, media_items, hidden, metadata, usage_counted_at, queued_from_profile, created_at, updated_at)
         SELECT u.id, $1, $2, u.title, u.content, u.status, u.scheduled_for, u.timezone, u.publish_now, u.is_draft,
                u.visibility, ARRAY(SELECT jsonb_array_elements_text(u.tags)), u.media_items, u.hidden, u.metadata, u.counted_at, u.queued, $18, $18
           FROM unnest($3::char(24)[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[], $9::boolean[], $10::boolean[],
                       $11::text[], $12::jsonb[], $13::jsonb[], $14::boolean[], $15::jsonb[], $16::timestamptz[], $17::char(24)[])
             AS u(id, title, content, status, scheduled_for, timezone, publish_now, is_draft, visibility, tags, media_items, hidden, metadata, counted_at, queued)
         RETURNING id)
       INSERT INTO post_targets (id, post_id, tenant_id, position, account_id, platform, custom_content, platform_specific_data, status, run_at, updated_at)
       SELECT u.id, u.post_id, $1, u.pos, u.account_id, u.platform, u.custom_content, u.psd, u.status, u.run_at, $18
         FROM unnest($19::char(24)[], $20::char(24)[], $21::int[], $22::char(24)[], $23::text[], $24::text[], $25::jsonb[], $26::text[], $27::timestamptz[])
           AS u(id, post_id, pos, account_id, platform, custom_content, psd, status, run_at)
        WHERE (SELECT count(*) FROM new_posts) = $28`,
      [auth.tenantId, auth.userId,
        plans.map((p) => p.id), plans.map((p) => p.title), plans.map((p) => p.content),
        plans.map((p) => (p.mode === 'draft' ? 'draft' : 'scheduled')), plans.map((p) => p.runAt), plans.map((p) => p.timezone),
        plans.map((p) => p.mode === 'now'), plans.map((p) => p.mode === 'draft'), plans.map((p) => p.visibility),
        plans.map((p) => JSON.stringify(p.tags)), plans.map((p) => JSON.stringify(p.media)), plans.map((p) => p.hidden),
        plans.map((p) => JSON.stringify(p.metadata)), plans.map((p) => (p.mode === 'draft' ? null : now)), plans.map((p) => p.queueProfile), now,
        rows.map((r) => r.id), rows.map((r) => r.p.id), rows.map((r) => r.i), rows.map((r) => r.t.account.id),
        rows.map((r) => r.t.platform), rows.map((r) => r.t.customContent), rows.map((r) => JSON.stringify(r.t.platformSpecificData)),
        rows.map((r) => (r.p.mode === 'draft' ? 'draft' : 'pending')), rows.map((r) => (r.p.mode === 'draft' ? null : targetRunAt(r.t.platform, r.p.runAt, now))), plans.length],
    );
    return plans.map((p) => p.id);
  }

  /** The API view of a just-inserted planned post, built from what was written (no read back). */
  function plannedView(auth: AuthContext, p: PlannedPost): PostViewT {
    const at = p.createdAt ?? clock();
    const row: PostRow = {
      id: p.id, tenant_id: auth.tenantId, created_by: auth.userId, title: p.title, content: p.content,
      status: p.mode === 'draft' ? 'draft' : 'scheduled', scheduled_for: p.runAt, timezone: p.timezone, publish_now: p.mode === 'now',
      is_draft: p.mode === 'draft', visibility: p.visibility, tags: p.tags, media_items: p.media, queued_from_profile: p.queueProfile,
      hidden: p.hidden, metadata: p.metadata, usage_counted_at: p.mode === 'draft' ? null : at, published_at: null, created_at: at, updated_at: at,
    };
    return postView(row, p.targets.map((t, i) => ({
      id: p.targetIds[i], post_id: p.id, tenant_id: auth.tenantId, position: i, account_id: t.account.id, platform: t.platform,
      custom_content: t.customContent, platform_specific_data: t.platformSpecificData, status: p.mode === 'draft' ? 'draft' : 'pending',
      run_at: p.mode === 'draft' ? null : p.runAt, attempts: 0, locked_by: null, locked_until: null, platform_post_id: null,
      platform_post_url: null, published_at: null, error_message: null, error_category: null, result: null, updated_at: at,
      acc_username: t.account.username, acc_display_name: t.account.display_name, acc_is_active: t.account.is_active,
    })));
  }

  async function lockPost(q: Queryable, auth: AuthContext, id: string): Promise<PostRow> {
    const { rows } = await q.query<PostRow>('SELECT * FROM posts WHERE id = $1 AND tenant_id = $2 FOR UPDATE', [id, auth.tenantId]);
    if (!rows[0]) throw notFound('Post');
    await assertPostAccess(q, auth, rows[0]);
    return rows[0];
  }

  /** Team members scoped to profiles see posts they created or that target their profiles. */
  async function assertPostAccess(q: Queryable, auth: AuthContext, post: PostRow): Promise<void> {
    if (auth.profileAccess === 'all' || post.created_by === auth.userId) return;
    const { rows } = await q.query<{ profile_id: string }>(
      'SELECT a.profile_id FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = $1', [post.id]);
    if (!rows.some((r) => auth.profileIds.includes(r.profile_id))) throw notFound('Post');
  }

  return {
    /**
     * Creates a post. Mode: isDraft -> draft; publishNow -> published inline (201 all,
     * 207 some failed, 202 still running); scheduledFor -> scheduled; none of these -> draft.
     * `idempotency` stores the key in the same transaction.
     * @throws 400 VALIDATION_ERROR naming fields; 403 PLAN_LIMIT_REACHED.
     */
    async create(auth: AuthContext, body: CreatePostBody, idempotency?: { key: string; hash: string }): Promise<WriteResult & { postId: string }> {
      const plan = await planNewPost(auth, body, dbAccountSource(db, auth.tenantId, auth));
      const needsTx = !!idempotency || !!plan.queueProfile || (plan.mode !== 'draft' && PLANS[auth.plan].uploads !== -1);
      const [postId] = needsTx ? await db.tx(async (client) => {
        const ids = await insertPlannedPosts(client, auth, [plan]);
        if (idempotency) {
          const { rowCount } = await client.query(
            `INSERT INTO idempotency_keys (tenant_id, key, request_hash, post_id) VALUES ($1, $2, $3, $4)
             ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, post_id = EXCLUDED.post_id,
               status_code = NULL, response_body = NULL, created_at = now()
             WHERE idempotency_keys.created_at < now() - interval '24 hours'`,
            [auth.tenantId, idempotency.key, idempotency.hash, plan.id],
          );
          if (!rowCount) throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is already being processed');
        }
        return ids;
      }) : await insertPlannedPosts(db, auth, [plan]); // one atomic statement: no explicit transaction needed
      const { mode, warnings } = plan;
      if (mode === 'now') {
        const r = await publishInline(auth, postId, plan.targetIds, 'Post published successfully');
        if (warnings.length) r.body.warnings = warnings;
        return { ...r, postId };
      }
      if (mode === 'scheduled') publisher.notifyDue(plan.runAt!);
      const ahead = mode === 'scheduled' && uploadsAhead(plan.targets, plan.runAt, clock());
      if (ahead) publisher.notifyDue(clock());
      const post = plannedView(auth, plan);
      return {
        postId,
        statusCode: 201,
        body: {
          message: (mode === 'draft' ? 'Draft saved successfully' : plan.queueProfile ? 'Post added to the queue' : 'Post scheduled successfully')
            + (ahead ? '. YouTube video uploaded immediately for processing time.' : ''),
          post,
          ...(warnings.length ? { warnings } : {}),
        },
      };
    },

    planNewPost,
    insertPlannedPosts,

    async get(auth: AuthContext, id: string) {
      const post = await viewOf(auth, id);
      if (auth.profileAccess !== 'all') {
        const { rows } = await db.query<PostRow>('SELECT * FROM posts WHERE id = $1', [id]);
        await assertPostAccess(db, auth, rows[0]);
      }
      return { post };
    },

    async list(auth: AuthContext, q: ListPostsQuery) {
      const page = q.page ?? 1;
      const limit = Math.min(q.limit ?? 10, 100);
      const where: string[] = ['p.tenant_id = $1'];
      const args: unknown[] = [auth.tenantId];
      const arg = (v: unknown) => { args.push(v); return `$${args.length}`; };
      if (!q.includeHidden) where.push('NOT p.hidden');
      if (q.status) where.push(`p.status = ${arg(q.status)}`);
      if (q.createdBy) where.push(`p.created_by = ${arg(q.createdBy.toLowerCase())}`);
      if (q.platform) where.push(`EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = p.id AND t.platform = ${arg(q.platform)})`);
      if (q.profileId) {
        await getAccessibleProfile(db, auth, q.profileId.toLowerCase());
        where.push(`(p.queued_from_profile = ${arg(q.profileId.toLowerCase())} OR EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = p.id AND a.profile_id = $${args.length}))`);
      }
      if (auth.profileAccess !== 'all') {
        where.push(`(p.created_by = ${arg(auth.userId)} OR EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = p.id AND a.profile_id = ANY(${arg(auth.profileIds)}::char(24)[])))`);
      }
      const bound = (v: string | undefined, field: string, endOfDay: boolean) => {
        if (!v) return null;
        const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z`) : new Date(v);
        // Years outside 1..9999 are valid JS dates but out of PostgreSQL's timestamptz range (a 500 otherwise).
        if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) throw new AppError('VALIDATION_ERROR', `Invalid ${field}`, { fields: { [field]: ['must be an ISO 8601 date or date-time (years 1 to 9999)'] } });
        return d;
      };
      const from = bound(q.dateFrom, 'dateFrom', false);
      const to = bound(q.dateTo, 'dateTo', true);
      if (from) where.push(`COALESCE(p.scheduled_for, p.created_at) >= ${arg(from)}`);
      if (to) where.push(`COALESCE(p.scheduled_for, p.created_at) <= ${arg(to)}`);
      const cond = where.join(' AND ');
      const [{ rows: idRows }, { rows: countRows }] = await Promise.all([
        db.query<{ id: string }>(`SELECT p.id FROM posts p WHERE ${cond} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit} OFFSET ${(page - 1) * limit}`, args),
        db.query<{ n: number }>(`SELECT count(*)::int AS n FROM posts p WHERE ${cond}`, args),
      ]);
      const posts = await loadPostViews(db, auth.tenantId, idRows.map((r) => r.id));
      const total = countRows[0].n;
      return { posts, pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
    },

    /**
     * Updates an editable post (draft, scheduled, failed, partial). Published targets of a
     * partial post are kept; other targets follow the post's new time. A failed or partial
     * post is queued again only when the body gives scheduledFor or publishNow.
     * @throws 409 INVALID_STATE for other statuses or while a target is publishing.
     */
    async update(auth: AuthContext, id: string, body: UpdatePostBody): Promise<WriteResult> {
      const errors = new FieldErrorCollector();
      const now = clock();
      const outcome = await db.tx(async (client) => {
        const post = await lockPost(client, auth, id);
        if (!EDITABLE.has(post.status)) {
          throw new AppError('INVALID_STATE', `Posts with status "${post.status}" cannot be edited (editable: draft, scheduled, failed, partial)`, { status: post.status });
        }
        const { rows: oldTargets } = await client.query<TargetRow>('SELECT * FROM post_targets WHERE post_id = $1 ORDER BY position FOR UPDATE', [id]);
        if (oldTargets.some((t) => t.status === 'publishing')) {
          throw new AppError('INVALID_STATE', 'The post is being published right now; try again when it has finished', { status: 'publishing' });
        }
        // queuedFromProfile: an id moves a draft or scheduled post into that queue; null takes it out (keeping its time).
        const queueProfile = body.queuedFromProfile ? body.queuedFromProfile.toLowerCase() : null;
        if (queueProfile && post.status !== 'draft' && post.status !== 'scheduled') {
          errors.add('queuedFromProfile', `only draft and scheduled posts can be moved into the queue (this post is "${post.status}")`);
        }
        if (queueProfile && (body.isDraft || body.publishNow)) errors.add('queuedFromProfile', 'cannot be combined with isDraft or publishNow');
        const tzInput = body.timezone !== undefined ? body.timezone : post.timezone;
        const schedule = body.scheduledFor !== undefined
          ? parseSchedule({ scheduledFor: body.scheduledFor, timezone: tzInput }, errors)
          : parseSchedule({ scheduledFor: null, timezone: tzInput }, errors);
        const newAt = body.scheduledFor !== undefined ? schedule.at : post.scheduled_for;
        const wantsDraft = body.isDraft ?? (post.is_draft && !body.scheduledFor && !body.publishNow && !queueProfile);
        if (body.isDraft && body.publishNow) errors.add('publishNow', 'cannot be true together with isDraft');
        if (wantsDraft && post.status !== 'draft' && oldTargets.some((t) => t.status === 'published')) {
          errors.add('isDraft', 'a post with published targets cannot become a draft');
        }
        const mode: Mode = wantsDraft ? 'draft' : body.publishNow ? 'now' : 'scheduled';
        if (mode === 'scheduled' && !newAt && !queueProfile) errors.add('scheduledFor', 'is required to schedule a draft (or set publishNow: true or queuedFromProfile)');
        const requeue = mode !== 'draft' && (post.status === 'draft' || post.status === 'scheduled' || body.scheduledFor !== undefined || body.publishNow === true || !!queueProfile);
        const tags = body.tags !== undefined ? normalizeTags(body.tags, errors) : post.tags;
        const media = body.mediaItems !== undefined ? normalizeMedia(body.mediaItems, 'mediaItems', errors) : post.media_items;
        if (body.mediaItems !== undefined) await enrichMedia(auth.tenantId, [media]);
        const content = body.content !== undefined ? (body.content ?? '') : post.content;
        const visibility = body.visibility ?? post.visibility;
        const published = oldTargets.filter((t) => t.status === 'published');
        let targets: ResolvedTarget[];
        if (body.platforms !== undefined) {
          targets = await resolveTargets(dbAccountSource(client, auth.tenantId), auth, body.platforms, mode, errors);
          targets = targets.filter((t) => !published.some((p) => p.account_id === t.account.id));
        } else {
          const keep = oldTargets.filter((t) => t.status !== 'published');
          const { rows: accounts } = await client.query<AccountRow>('SELECT * FROM accounts WHERE id = ANY($1::char(24)[])', [keep.map((t) => t.account_id)]);
          const byId = new Map(accounts.map((a) => [a.id, a]));
          targets = [];
          for (const t of keep) {
            const account = byId.get(t.account_id);
            if (!account) {
              if (mode !== 'draft') errors.add('platforms', `the ${t.platform} account ${t.account_id} was disconnected; give platforms again`);
              continue;
            }
            targets.push({ account, platform: t.platform as PlatformId, customContent: t.custom_content, platformSpecificData: t.platform_specific_data });
          }
        }
        if (mode !== 'draft') checkTargets(targets, content, media, tags, visibility, mode === 'now' ? now : newAt, errors);
        errors.throwIfAny();

        const countsNow = mode !== 'draft' && !post.usage_counted_at;
        if (countsNow) await usage.assertUploadsAvailable(client, auth);
        let runAt = mode === 'now' ? now : newAt;
        let timezone = schedule.timezone;
        let queuedFrom = body.queuedFromProfile === null ? null : post.queued_from_profile;
        if (queueProfile) {
          const slot = await queue.allocate(client, auth, queueProfile, body.scheduledFor !== undefined ? newAt : null, id);
          runAt = slot.at;
          if (body.timezone === undefined) timezone = slot.timezone;
          queuedFrom = queueProfile;
        } else if (mode === 'draft' || body.scheduledFor !== undefined || body.publishNow) {
          // A new explicit time (or a draft) leaves the queue unless queuedFromProfile is sent again.
          if (body.queuedFromProfile === undefined && (body.scheduledFor !== undefined || body.publishNow)) queuedFrom = null;
        }
        await client.query(
          `UPDATE posts SET title = $2, content = $3, scheduled_for = $4, timezone = $5, publish_now = $6, is_draft = $7,
                  visibility = $8, tags = $9, media_items = $10, hidden = $11, metadata = $12,
                  usage_counted_at = COALESCE(usage_counted_at, $13), status = $14, queued_from_profile = $15, updated_at = now()
            WHERE id = $1`,
          [id, body.title !== undefined ? body.title : post.title, content, runAt, timezone,
            mode === 'now', mode === 'draft', visibility, tags, JSON.stringify(media), body.hidden ?? post.hidden,
            JSON.stringify(body.metadata ?? post.metadata), countsNow ? now : null,
            mode === 'draft' ? 'draft' : requeue ? 'scheduled' : post.status, queuedFrom],
        );
        let newTargetIds: string[] = [];
        const replaceTargets = body.platforms !== undefined || requeue || mode === 'draft';
        if (replaceTargets) {
          await client.query(`DELETE FROM post_targets WHERE post_id = $1 AND status <> 'published'`, [id]);
          const status = mode === 'draft' ? 'draft' : requeue ? 'pending' : 'failed';
          newTargetIds = await insertTargets(client, auth, id, targets, status === 'failed' ? 'pending' : status, requeue ? runAt : null, published.length + 1000);
          if (!requeue && mode !== 'draft') {
            // Edited failed/partial post without a new time: targets stay failed until retried.
            await client.query(`UPDATE post_targets SET status = 'failed', run_at = NULL, error_message = 'Edited; use retry or give scheduledFor to publish' WHERE id = ANY($1::char(24)[])`, [newTargetIds]);
          }
          await client.query(
            `UPDATE post_targets t SET position = s.rn - 1 FROM (
               SELECT id, row_number() OVER (ORDER BY position) AS rn FROM post_targets WHERE post_id = $1) s
              WHERE t.id = s.id`, [id]);
        }
        if (mode !== 'draft') await recomputePostStatus(client, id);
        return { mode, newTargetIds, runAt, ahead: mode === 'scheduled' && newTargetIds.length > 0 && uploadsAhead(targets, runAt, now) };
      });
      if (outcome.mode === 'now') return publishInline(auth, id, outcome.newTargetIds, 'Post updated and published successfully');
      if (outcome.runAt && outcome.mode === 'scheduled') publisher.notifyDue(outcome.runAt);
      if (outcome.ahead) publisher.notifyDue(clock()); // uploadsAhead targets (YouTube) run at once
      return { statusCode: 200, body: { message: 'Post updated successfully', post: await viewOf(auth, id) } };
    },

    /** @throws 409 INVALID_STATE for published and partial posts. Refunds the post's usage. */
    async remove(auth: AuthContext, id: string) {
      await db.tx(async (client) => {
        const post = await lockPost(client, auth, id);
        if (!DELETABLE.has(post.status)) {
          throw new AppError('INVALID_STATE', post.status === 'published'
            ? 'Published posts cannot be deleted'
            : `Posts with status "${post.status}" cannot be deleted: some targets are already published`, { status: post.status });
        }
        await client.query('DELETE FROM posts WHERE id = $1', [id]);
      });
      return { message: 'Post deleted successfully' };
    },

    /** Re-queues the failed targets of a failed post for immediate publishing. @throws 409 unless status is failed. */
    async retry(auth: AuthContext, id: string) {
      await db.tx(async (client) => {
        const post = await lockPost(client, auth, id);
        if (post.status !== 'failed') {
          throw new AppError('INVALID_STATE', `Only failed posts can be retried (this post is "${post.status}")`, { status: post.status });
        }
        await client.query(
          `UPDATE post_targets SET status = 'pending', run_at = now(), attempts = 0, error_message = NULL, error_category = NULL,
                  locked_by = NULL, locked_until = NULL, updated_at = now()
            WHERE post_id = $1 AND status = 'failed'`, [id]);
        await client.query(`UPDATE posts SET status = 'scheduled', updated_at = now() WHERE id = $1`, [id]);
      });
      publisher.notifyDue(clock());
      return { message: 'Post queued for retry', post: await viewOf(auth, id) };
    },
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
