/**
 * What editing a published post (./edit.ts) and updating a YouTube video's metadata
 * (./video-metadata.ts) share (docs/decisions/0060-edit-published-posts.md): finding the published
 * target the request names, the account and its adapter, running the platform call with its
 * publishing-log entry (who, what changed, the platform's answer), and turning the platform's
 * refusal into the API's error. Platform calls run outside any transaction; the target is written
 * only after the platform answered success, so a failed request changes nothing stored.
 */
import { AppError, fieldError } from '../../core/errors.ts';
import { AdapterError, editRefusal, type PlatformAdapter, type PlatformId } from '../../platforms/types.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { Db } from '../../storage/db.ts';
import type { AccountRow, AccountsRepository } from '../accounts/repository.ts';
import type { AuthContext } from '../auth/context.ts';
import type { NewLogEntry } from '../logs/service.ts';
import { assertMayPublishUnreviewed } from '../approvals/repository.ts';
import { lockAccessiblePost } from './access.ts';
import type { PostRow, TargetRow } from './repository.ts';

export interface EditDeps {
  db: Db;
  adapters: AdapterRegistry;
  accounts: AccountsRepository;
  clock: () => Date;
  log: (e: NewLogEntry) => Promise<void>;
}

/** A field's value before and after an edit, as the log keeps it. */
export type Changes = Record<string, { from: unknown; to: unknown }>;

interface EditableTarget extends TargetRow {
  removed_from_platform_at: Date | null;
}

/**
 * The post and its published target on `platform` (the one of `accountId` when given, else the
 * first). @throws 404 NOT_FOUND (not the caller's post); 400 naming `platform` or `accountId` when
 * the post has no such target; 409 INVALID_STATE when the target is not published (or was unpublished).
 */
export async function publishedTarget(db: Db, auth: AuthContext, postId: string, platform: PlatformId, accountId?: string): Promise<{ post: PostRow; target: EditableTarget }> {
  const id = postId.toLowerCase();
  const { post, targets } = await db.tx(async (client) => {
    const row = await lockAccessiblePost(client, auth, id);
    const { rows } = await client.query<EditableTarget>('SELECT * FROM post_targets WHERE post_id = $1 AND platform = $2 ORDER BY position', [id, platform]);
    return { post: row, targets: rows };
  });
  if (targets.length === 0) throw fieldError('platform', `the post has no ${platform} target`);
  const target = accountId ? targets.find((t) => t.account_id === accountId.toLowerCase()) : targets[0];
  if (!target) throw fieldError('accountId', `the post has no ${platform} target for account ${accountId}`);
  if (target.removed_from_platform_at || target.status === 'cancelled') {
    throw new AppError('INVALID_STATE', `The ${platform} post was taken back (unpublished); there is nothing to edit`, { status: target.status });
  }
  if (target.status !== 'published' || !target.platform_post_id) {
    throw new AppError('INVALID_STATE', `Only published posts are edited on the platform; the ${platform} target is ${target.status}. Change a post that is not published yet with PUT /v1/posts/{postId}`, { status: target.status });
  }
  return { post, target };
}

/**
 * The adapter that edits on `platform` and the target's account, checked before any call.
 * On a profile that requires approval (decision 0059), only an approver changes what is live there.
 * @throws 400 naming `platform` when the platform (or Herald) cannot edit there; 409 INVALID_STATE
 * when the account is gone or is of the other mode than the server (sandbox); 403 FORBIDDEN
 * (`reason: approval_required`) for a caller who may not approve on the account's profile.
 */
export async function editorFor(deps: EditDeps, auth: AuthContext, platform: PlatformId, accountId: string, method: 'editPublished' | 'updateVideoMetadata'): Promise<{ adapter: PlatformAdapter; account: AccountRow }> {
  const account = (await deps.accounts.listForTenant(auth.tenantId, null)).find((a) => a.id === accountId);
  if (account) {
    await assertMayPublishUnreviewed(deps.db, auth, [account.profile_id],
      'an edit of a published post goes out unreviewed, so only an approver (the owner or a member the profile\'s rule names) may make it');
  }
  const refusal = editRefusal(platform);
  if (refusal) throw fieldError('platform', refusal);
  const adapter = deps.adapters.get(platform);
  if (!adapter?.[method]) throw fieldError('platform', `editing ${platform} posts is not available on this server`);
  if (!account) throw new AppError('INVALID_STATE', `The ${platform} account of this post was disconnected; reconnect it to edit the post, or edit it on ${platform}`);
  if ((account.settings?.sandbox === true) !== (deps.adapters.sandbox === true)) {
    throw new AppError('INVALID_STATE', deps.adapters.sandbox
      ? `Sandbox mode is on: this ${platform} account is a real one; restart Herald without HERALD_SANDBOX to edit its posts`
      : `This ${platform} account is a sandbox (simulator) account and sandbox mode is off`);
  }
  return { adapter, account };
}

/** What a log entry of an edit says about the call. */
export interface EditCall {
  tenantId: string;
  userId: string;
  account: AccountRow;
  action: 'edit' | 'update_metadata';
  postId: string | null;
  targetId: string | null;
  changes: Changes;
  /** The platform call, for the log when the platform did not name one. */
  endpoint: string;
  requestId: string | null;
}

/**
 * Runs the platform call and writes its log entry (success or the platform's answer). A
 * `disconnected` answer marks the account for reconnecting.
 * @throws AppError 429 RATE_LIMITED, or 502 PLATFORM_ERROR with the platform's message and kind.
 */
export async function callPlatform<T>(deps: EditDeps, c: EditCall, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const platform = c.account.platform;
  let err: AdapterError | null = null;
  let out: T | undefined;
  try {
    out = await fn();
  } catch (e) {
    err = e instanceof AdapterError ? e : new AdapterError('transient', (e as Error).message);
    if (err.kind === 'disconnected') await deps.accounts.markNeedsReconnect(c.account.id, err.message).catch(() => {});
  }
  await deps.log({
    tenantId: c.tenantId, accountId: c.account.id, platform, action: c.action, outcome: err ? 'failed' : 'success',
    postId: c.postId, targetId: c.targetId, error: err ? `${platform} refused the edit: ${err.message}` : null,
    errorCategory: err ? (err.kind === 'rejected' ? 'platform_rejected' : err.kind === 'rate_limited' ? 'platform_rate_limit' : 'platform_error') : null,
    httpStatus: err?.opts.status ?? null, endpoint: err?.opts.endpoint ?? c.endpoint, responseExcerpt: err?.opts.excerpt ?? null,
    durationMs: Date.now() - started, workerId: 'api', requestId: c.requestId, actorId: c.userId, changes: c.changes,
  }).catch(() => {});
  if (!err) return out as T;
  const details = { platform, kind: err.kind, ...(err.opts.status ? { platformStatus: err.opts.status } : {}), ...(err.opts.platformCode ? { platformCode: err.opts.platformCode } : {}) };
  if (err.kind === 'rate_limited') {
    throw new AppError('RATE_LIMITED', `${platform} is rate limiting this account; try the edit again later: ${err.message}`, details,
      err.opts.retryAfterMs ? { retryAfter: Math.ceil(err.opts.retryAfterMs / 1000) } : undefined);
  }
  throw new AppError('PLATFORM_ERROR', `${platform} refused the edit: ${err.message}`, details);
}
