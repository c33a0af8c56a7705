/**
 * Validation tools: check a post without saving it, and measure a text on every platform.
 * `validatePost` runs the create route's own pipeline (posts' planNewPost: schedule, tags,
 * media, accounts, every platform rule) and the duplicate check, writing nothing.
 */
import { AppError } from '../../core/errors.ts';
import { PLATFORM_CAPABILITIES } from '../../shared/capabilities.ts';
import { PLATFORMS, type PlatformId } from '../../shared/platforms.ts';
import { checkMediaUrl, type MediaCheckDeps } from './media-check.ts';
import { textLength, weightedLength } from '../../shared/rules/weighted-length.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { heldClaim } from '../posts/duplicates.ts';
import { dbAccountSource, type PostsService } from '../posts/service.ts';
import type { QueueService } from '../queue/service.ts';
import type { ValidatePostBody } from './schemas.ts';

/** Per-platform length of `text`: count in the platform's unit, its limit, and X's weighted length. */
export function measureText(text: string) {
  const platforms: Record<string, { count: number; limit: number; valid: boolean; unit: string; remaining: number }> = {};
  for (const p of PLATFORMS) {
    const caps = PLATFORM_CAPABILITIES[p];
    const count = textLength(caps, text);
    platforms[p] = { count, limit: caps.maxTextLength, valid: count <= caps.maxTextLength, unit: caps.textUnit, remaining: caps.maxTextLength - count };
  }
  return { text, platforms, weightedLength: weightedLength(text) };
}

export function createToolsService(deps: { db: Db; posts: PostsService; queue: QueueService; media: MediaCheckDeps }) {
  const { db, posts, queue } = deps;
  return {
    /** See {@link checkMediaUrl}: the URL's media checked against `platforms` (default: each platform judged, none deciding `valid`). */
    validateMedia: (url: string, platforms?: PlatformId[]) => checkMediaUrl(url, platforms, PLATFORMS, deps.media),

    /**
     * Validates a post as POST /v1/posts would, without saving it. A post without `scheduledFor`
     * or a queue is checked as if published now; `isDraft` is ignored (drafts skip the rules).
     * A queued post's queue is checked as the create route takes its slot (the queue exists, is
     * active and has a free slot), in a transaction that writes nothing.
     * Answers `valid: false` with the errors by field and platform; throws only for a profile
     * the caller cannot see (404).
     */
    async validatePost(auth: AuthContext, body: ValidatePostBody) {
      const asPublished = { ...body, isDraft: false, publishNow: body.publishNow ?? (!body.scheduledFor && !body.queuedFromProfile) };
      const platformOf = (field: string) => {
        const i = /^platforms\.(\d+)\./.exec(field)?.[1];
        return i !== undefined ? body.platforms?.[Number(i)]?.platform : undefined;
      };
      try {
        const plan = await posts.planNewPost(auth, asPublished, dbAccountSource(db, auth.tenantId, auth));
        if (plan.queueProfile) {
          const ref = { profileId: plan.queueProfile, queueId: plan.queueId };
          try {
            await db.tx((client) => queue.allocate(client, auth, ref, { preferred: plan.preferredAt }));
          } catch (err) {
            // The create route answers 404 for a queueId that is not one of the profile's queues; here it is a problem of the post.
            if (!(err instanceof AppError) || err.code !== 'NOT_FOUND' || err.details?.field !== 'queueId') throw err;
            throw new AppError('VALIDATION_ERROR', 'Invalid queueId', { fields: { queueId: ['is not one of the queues of queuedFromProfile (GET /v1/queue/slots?all=true)'] } });
          }
        }
        const held = await heldClaim(db, plan.claims);
        const warnings = plan.warnings.map((warning) => ({ warning }));
        if (held) {
          const error = 'the same content was posted to this account within 24 hours; send allowDuplicate: true to post it again';
          const i = plan.targets.findIndex((t) => t.account.id === held.accountId);
          const field = `platforms.${i}.accountId`;
          return {
            valid: false, message: 'The post would be refused as a duplicate', errors: [{ platform: plan.targets[i]?.platform, field, error }],
            warnings, fields: { [field]: [error] }, duplicateOf: { accountId: held.accountId, existingPostId: held.postId },
          };
        }
        return { valid: true, message: 'The post passes every check', errors: [], warnings, fields: {} };
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'VALIDATION_ERROR') throw err;
        const fields = (err.details?.fields ?? {}) as Record<string, string[]>;
        const errors = Object.entries(fields).flatMap(([field, messages]) => messages.map((error) => ({ platform: platformOf(field), field, error })));
        return { valid: false, message: err.message, errors, warnings: [], fields };
      }
    },

    measureText,
  };
}

export type ToolsService = ReturnType<typeof createToolsService>;
