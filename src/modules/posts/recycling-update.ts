/**
 * PUT /v1/posts/{id} with only `recycling` in the body (decision 0061): changes the post's
 * recycling and nothing else, whatever its status, so that a published post's recycling can be
 * started, paused (`enabled: false`), changed or stopped (`null`). Its targets, time and status stay.
 */
import { AppError, FieldErrorCollector } from '../../core/errors.ts';
import type { PlatformId } from '../../platforms/types.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { lockAccessiblePost } from './access.ts';
import { viewOf, type WriteResult } from './publish-inline.ts';
import { planRecycling, writeRecycling } from './recycling.ts';
import { lockTargets, targetProfileIds } from './repository.ts';
import { assertMayPublishUnreviewed } from '../approvals/repository.ts';
import type { UpdatePostBody, RecyclingInput } from './schemas.ts';
import { dbAccountSource, type ResolvedTarget, type TargetRules } from './targets.ts';

/** True when the update body sets `recycling` and nothing else. */
export function isRecyclingOnly(body: UpdatePostBody): boolean {
  const keys = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined);
  return keys.length === 1 && keys[0] === 'recycling';
}

/**
 * Applies `recycling` to the post in one transaction: the config is checked against all of the
 * post's targets (those of a cancelled post's platforms included), the variations against the text
 * rules of the targets that are still to publish or are published (not for a draft), and the
 * per-account limit. 409 INVALID_STATE for a cancelled post (nothing to re-publish). On a profile that
 * requires approval (decision 0059), only an approver starts or changes the recycling of a post past
 * review (its copies and variations go out unreviewed); anyone who may edit the post pauses or stops it.
 * @throws 400 VALIDATION_ERROR naming `recycling.*` fields and rules; 404 for another tenant's post;
 *   403 FORBIDDEN (`reason: approval_required`) for a caller who may not approve there.
 */
export async function updateRecyclingOnly(deps: { db: Db; rules: TargetRules; clock: () => Date }, auth: AuthContext, id: string,
  input: RecyclingInput | null): Promise<WriteResult> {
  const { db, rules, clock } = deps;
  const now = clock();
  await db.tx(async (client) => {
    const post = await lockAccessiblePost(client, auth, id);
    if (post.status === 'cancelled' && input !== null) {
      throw new AppError('INVALID_STATE', 'A cancelled post is not recycled: schedule it again first', { status: post.status });
    }
    // A draft's or a waiting post's recycling is reviewed with the post; later, its copies would go out unreviewed.
    if (input !== null && input.enabled !== false && post.status !== 'draft' && post.status !== 'pending_approval') {
      await assertMayPublishUnreviewed(client, auth, await targetProfileIds(client, id),
        'recycling publishes copies of this post (and its text variations) without review, so only an approver (the owner or a member the '
        + 'profile\'s rule names) may start or change it; pausing or stopping it is open to you');
    }
    const rows = (await lockTargets(client, id)).filter((t) => t.status !== 'cancelled');
    const accounts = new Map((await dbAccountSource(client, auth.tenantId).byIds(rows.map((t) => t.account_id))).map((a) => [a.id, a]));
    const targets: ResolvedTarget[] = [];
    const gone: Array<{ platform: PlatformId; customContent: string | null }> = [];
    for (const t of rows) {
      const account = accounts.get(t.account_id);
      if (account) targets.push({ account, platform: t.platform as PlatformId, customContent: t.custom_content, platformSpecificData: t.platform_specific_data, scheduledFor: null });
      else gone.push({ platform: t.platform as PlatformId, customContent: t.custom_content });
    }
    const errors = new FieldErrorCollector();
    const at = now; // the copies go out from now on
    const change = planRecycling(input, { current: post.recycling, postAt: post.scheduled_for ?? (post.status === 'draft' ? null : now), now }, targets,
      { content: post.content, media: post.media_items, tags: post.tags, hashtags: post.hashtags ?? [], mentions: post.mentions ?? [], visibility: post.visibility, at },
      rules, errors, post.status === 'draft', gone);
    errors.throwIfAny();
    await writeRecycling(client, auth.tenantId, id, change, rows.map((t) => t.account_id));
  });
  const message = input === null ? 'Recycling removed' : input.enabled === false ? 'Recycling paused' : 'Recycling updated';
  return { statusCode: 200, body: { message, post: await viewOf(db, auth, id) } };
}
