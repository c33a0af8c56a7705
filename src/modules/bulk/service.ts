/**
 * Bulk CSV upload (POST /v1/posts/bulk-upload): parse with csv-parse (quoted fields,
 * embedded newlines, BOM, CRLF), validate every row with the same rules as
 * POST /v1/posts, then create all valid rows in one transaction with multi-row INSERTs.
 * A failed row creates nothing; valid rows are created even when others fail. Plan
 * limits apply per row, in file order. `dryRun` validates (limits included) and creates
 * nothing.
 */
import { parse } from 'csv-parse/sync';
import { AppError } from '../../core/errors.ts';
import { isId } from '../../core/ids.ts';
import { PLANS } from '../../shared/plans.ts';
import type { Db } from '../../storage/db.ts';
import type { PlatformId } from '../../platforms/types.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import type { AccountRow } from '../accounts/service.ts';
import { listTenantAccounts } from '../accounts/repository.ts';
import type { PostsService, PlannedPost, AccountSource } from '../posts/service.ts';
import type { CreatePostBody } from '../posts/schemas.ts';
import type { PublishingPort } from '../posts/publishing-port.ts';
import type { UsageService } from '../usage/service.ts';
import { KNOWN_COLUMNS, parseRow, type RowError } from './csv-rows.ts';
import { BULK_REQUIRED_COLUMNS } from '../../shared/bulk-columns.ts';

export const MAX_ROWS = 5000;
const ADVISORY_ROWS = 500;

export interface RowResult {
  rowIndex: number;
  ok: boolean;
  createdPostId: string | null;
  /** The row's error codes, as documented (e.g. `profiles_missing`). */
  errors: string[];
  /** The same errors in full: code, message and the CSV column when there is one. */
  errorDetails: RowError[];
}

export interface BulkResult {
  statusCode: 200 | 207 | 400;
  body: { total: number; valid: number; invalid: number; dryRun: boolean; results: RowResult[]; warnings: string[] };
}

/** Maps a POST /v1/posts field path to the CSV column it came from. */
function columnOf(field: string, platforms: PlatformId[]): string {
  if (field === 'content') return 'post_content';
  if (field === 'scheduledFor') return 'schedule_time';
  if (field === 'timezone') return 'tz';
  if (field.startsWith('mediaItems')) return 'media_urls';
  if (field.startsWith('tags')) return 'tags';
  if (field.startsWith('queuedFromProfile')) return 'use_queue';
  const m = /^platforms\.(\d+)\.(customContent|platformSpecificData\.threadItems)?/.exec(field);
  if (m) {
    const p = platforms[Number(m[1])] ?? 'platform';
    if (m[2] === 'customContent') return `custom_content_${p}`;
    if (m[2]) return `${p}_thread_items`;
    return 'platforms';
  }
  return field;
}

/** Thrown (400) when the file itself cannot be used. */
function unusable(message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, { fields: { file: [message] } });
}

export function createBulkService(deps: { db: Db; posts: PostsService; usage: UsageService; publisher: PublishingPort; clock: () => Date }) {
  const { db, posts, usage } = deps;

  return {
    /**
     * Validates and (unless `dryRun`) creates the posts of a CSV file.
     * @throws AppError VALIDATION_ERROR (400) when the file is not usable CSV, lacks the
     *   required columns, is empty or has more than 5,000 rows.
     */
    async upload(auth: AuthContext, csv: Buffer, dryRun: boolean): Promise<BulkResult> {
      let records: Record<string, string>[];
      let header: string[] = [];
      try {
        records = parse(csv, {
          bom: true,
          columns: (h: string[]) => (header = h.map((x) => String(x).trim().toLowerCase())),
          skip_empty_lines: true,
          relax_column_count: true,
        }) as Record<string, string>[];
      } catch (err) {
        throw unusable(`The file is not valid CSV: ${(err as Error).message}`);
      }
      const missing = BULK_REQUIRED_COLUMNS.filter((c) => !header.includes(c));
      if (header.length === 0) throw unusable('The file is empty: it needs a header row and at least one post row');
      if (missing.length > 0) throw unusable(`Missing required column(s): ${missing.join(', ')}`);
      if (records.length === 0) throw unusable('The file has a header but no post rows');
      if (records.length > MAX_ROWS) throw unusable(`The file has ${records.length} rows; at most ${MAX_ROWS} are accepted per upload`);

      const warnings: string[] = [];
      const unknown = header.filter((h) => h && !KNOWN_COLUMNS.has(h));
      if (unknown.length) warnings.push(`Ignored unknown column(s): ${unknown.join(', ')}`);
      if (records.length > ADVISORY_ROWS) warnings.push(`Large upload (${records.length} rows): consider files of ${ADVISORY_ROWS} rows or fewer`);

      // Everything the rows refer to, loaded once.
      const [{ rows: profiles }, accounts, { rows: queues }] = await Promise.all([
        db.query<{ id: string; name: string }>('SELECT id, name FROM profiles WHERE tenant_id = $1', [auth.tenantId]),
        listTenantAccounts(db, auth.tenantId),
        db.query<{ profile_id: string; active: boolean }>('SELECT profile_id, active FROM queue_schedules WHERE tenant_id = $1', [auth.tenantId]),
      ]);
      const visibleProfiles = profiles.filter((p) => canAccessProfile(auth, p.id));
      const byProfileId = new Map(visibleProfiles.map((p) => [p.id, p]));
      const byProfileName = new Map(visibleProfiles.map((p) => [p.name, p]));
      const accountsById = new Map(accounts.map((a) => [a.id, a]));
      const queueActive = new Map(queues.map((q) => [q.profile_id, q.active]));
      const source: AccountSource = {
        byIds: async (ids) => ids.map((id) => accountsById.get(id)).filter((a): a is AccountRow => !!a),
        all: async () => accounts,
        profileAccessible: async (id) => byProfileId.has(id),
      };

      const results: RowResult[] = [];
      const plans: Array<{ result: RowResult; plan: PlannedPost }> = [];
      let publishNowRows = 0;
      for (const [i, rec] of records.entries()) {
        const result: RowResult = { rowIndex: i + 1, ok: false, createdPostId: null, errors: [], errorDetails: [] };
        results.push(result);
        const parsed = parseRow(rec);
        if (!parsed.ok) {
          result.errorDetails = parsed.errors;
          continue;
        }
        const row = parsed.row;
        const profileIds: string[] = [];
        for (const ref of row.profileRefs) {
          const p = (isId(ref) ? byProfileId.get(ref.toLowerCase()) : undefined) ?? byProfileName.get(ref);
          if (!p) result.errorDetails.push({ code: 'profile_not_found', message: `no profile with id or exact name "${ref}"`, column: 'profiles' });
          else if (!profileIds.includes(p.id)) profileIds.push(p.id);
        }
        if (row.timing.kind === 'queue' && profileIds.length === 1) {
          const active = queueActive.get(profileIds[0]);
          if (active === undefined) result.errorDetails.push({ code: 'queue_missing', message: 'this profile has no queue schedule (PUT /v1/queue/slots)', column: 'use_queue' });
          else if (!active) result.errorDetails.push({ code: 'queue_inactive', message: 'the queue of this profile is inactive', column: 'use_queue' });
        }
        const targets: NonNullable<CreatePostBody['platforms']> = [];
        for (const profileId of profileIds) {
          for (const platform of row.platforms) {
            const matching = accounts.filter((a) => a.profile_id === profileId && a.platform === platform && (a.is_active || row.timing.kind === 'draft'));
            if (matching.length === 0) {
              result.errorDetails.push({ code: 'account_missing', message: `profile "${byProfileId.get(profileId)!.name}" has no active ${platform} account`, column: 'platforms' });
              continue;
            }
            for (const a of matching) {
              targets.push({
                platform, accountId: a.id,
                ...(row.customContent[platform] ? { customContent: row.customContent[platform] } : {}),
                ...(row.platformSpecificData[platform] ? { platformSpecificData: row.platformSpecificData[platform] } : {}),
              });
            }
          }
        }
        if (result.errorDetails.length > 0) continue;
        const body: CreatePostBody = {
          content: row.content,
          ...(row.title ? { title: row.title } : {}),
          mediaItems: row.mediaUrls.map((url) => ({ url })),
          tags: row.tags,
          ...(row.visibility ? { visibility: row.visibility } : {}),
          platforms: targets,
          ...(row.timing.kind === 'schedule' ? { scheduledFor: row.timing.scheduledFor, timezone: row.timing.timezone } : {}),
          ...(row.timing.kind === 'now' ? { publishNow: true } : {}),
          ...(row.timing.kind === 'draft' ? { isDraft: true } : {}),
          ...(row.timing.kind === 'queue' ? { queuedFromProfile: profileIds[0] } : {}),
        };
        try {
          const plan = await posts.planNewPost(auth, body, source);
          plans.push({ result, plan });
          for (const w of plan.warnings) warnings.push(`row ${i + 1}: ${w}`);
          if (row.timing.kind === 'now') publishNowRows++;
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          const fields = (err.details?.fields ?? {}) as Record<string, string[]>;
          const entries = Object.entries(fields);
          if (entries.length === 0) result.errorDetails.push({ code: err.code.toLowerCase(), message: err.message });
          for (const [field, messages] of entries) {
            const column = columnOf(field, targets.map((t) => t.platform));
            for (const m of messages) result.errorDetails.push({ code: `${column}_invalid`, message: `${column}: ${m}`, column });
          }
        }
      }

      // Plan limits, per row in file order, then one insert for every valid row.
      await db.tx(async (client) => {
        let remaining = await usage.remainingUploads(client, auth);
        const plan = PLANS[auth.plan];
        const accepted: PlannedPost[] = [];
        for (const { result, plan: p } of plans) {
          if (p.mode !== 'draft') {
            if (remaining <= 0) {
              const per = auth.billingPeriod === 'yearly' ? 'year' : 'month';
              result.errorDetails.push({
                code: 'post_limit_reached',
                message: `Post limit reached. Your ${plan.name} plan allows ${plan.uploads} posts per ${per}. You have used ${plan.uploads}.`,
              });
              continue;
            }
            remaining--;
          }
          accepted.push(p);
          result.ok = true;
        }
        if (dryRun || accepted.length === 0) return;
        await posts.insertPlannedPosts(client, auth, accepted);
        for (const { result, plan: p } of plans) if (result.ok) result.createdPostId = p.id;
      });
      if (!dryRun && plans.some((p) => p.result.ok && p.plan.mode !== 'draft')) deps.publisher.notifyDue(deps.clock());
      // Rows held for approval (decision 0059): their approvers are mailed.
      const submitted = dryRun ? [] : plans.filter((p) => p.result.ok && p.plan.review).map((p) => p.plan.id);
      if (submitted.length) posts.notifySubmitted(auth.tenantId, submitted);
      if (publishNowRows > 0) warnings.push(`${publishNowRows} publish_now row(s) are published by the worker right after the upload`);

      for (const r of results) r.errors = r.errorDetails.map((e) => e.code);
      const valid = results.filter((r) => r.ok).length;
      const invalid = results.length - valid;
      return {
        statusCode: invalid === 0 ? 200 : valid > 0 ? 207 : 400,
        body: { total: results.length, valid, invalid, dryRun, results, warnings },
      };
    },
  };
}

export type BulkService = ReturnType<typeof createBulkService>;
