/**
 * A published video's metadata (POST /v1/posts/{postId}/update-metadata;
 * docs/decisions/0060-edit-published-posts.md) on the platforms of VIDEO_METADATA_EDITS
 * (src/shared/edits.ts; YouTube's videos.update today): title, description, tags, category, privacy
 * and the made-for-kids and synthetic-media flags, through the adapter's `updateVideoMetadata`. Two
 * modes, as Late's: post mode (`postId` is a Herald post with a published target on the platform:
 * the target's stored title, description and options change with it) and direct mode (`postId` is
 * `_`, with `videoId` and `accountId`: any video of that channel, nothing stored but the log entry).
 * The fields are checked against the platform's rule table before the call (400 naming the field
 * and the rule).
 */
import { FieldErrorCollector, fieldError, validationError } from '../../core/errors.ts';
import type { PlatformId, VideoMetadataPatch } from '../../platforms/types.ts';
import { VIDEO_METADATA_EDITS, VIDEO_METADATA_PLATFORMS } from '../../shared/edits.ts';
import { PLATFORM_LABELS } from '../../shared/platforms.ts';
import { adapterContextFor } from '../accounts/adapter-context.ts';
import type { AuthContext } from '../auth/context.ts';
import { callPlatform, editorFor, publishedTarget, type Changes, type EditDeps } from './edit-common.ts';
import { recordTargetEdit } from './repository.ts';
import { normalizeTags } from './validation.ts';

/** The body of update-metadata (the Late client's UpdatePostMetadataData). */
export interface UpdateMetadataInput extends VideoMetadataPatch {
  /** One of {@link VIDEO_METADATA_PLATFORMS} (the route's schema allows no other). */
  platform: PlatformId;
  videoId?: string;
  accountId?: string;
  thumbnailUrl?: string;
  playlistId?: string;
}

/** The answer (UpdatePostMetadataResponse). */
export interface UpdateMetadataResult {
  success: boolean;
  message: string;
  videoId?: string;
  updatedFields: string[];
}

/** The post id that selects direct mode. */
export const DIRECT_MODE = '_';

/** Where each rule violation's field is in this request. */
const FIELD_OF: Record<string, string> = {
  'platformSpecificData.title': 'title', content: 'description', text: 'description', 'platformSpecificData.tags': 'tags', tags: 'tags',
  'platformSpecificData.privacyStatus': 'privacyStatus', 'platformSpecificData.madeForKids': 'madeForKids',
  'platformSpecificData.containsSyntheticMedia': 'containsSyntheticMedia',
};
const PATCH_FIELDS = ['title', 'description', 'tags', 'categoryId', 'privacyStatus', 'madeForKids', 'containsSyntheticMedia'] as const;

export function createVideoMetadata(deps: EditDeps) {
  return {
    /**
     * Updates the video's metadata with the fields given; the others are kept as the platform has them.
     * @throws 404 NOT_FOUND (post or account); 400 VALIDATION_ERROR naming the field and rule (no
     * field to change, `videoId`/`accountId` missing in direct mode, a platform rule, a field of the
     * platform's `notYet`: YouTube's thumbnailUrl or playlistId); 409 INVALID_STATE (not published); 429 RATE_LIMITED or 502 PLATFORM_ERROR.
     */
    async update(auth: AuthContext, postId: string, input: UpdateMetadataInput, requestId: string | null = null): Promise<UpdateMetadataResult> {
      const { platform } = input;
      const rule = VIDEO_METADATA_EDITS[platform];
      if (!rule) throw fieldError('platform', `must be one of ${VIDEO_METADATA_PLATFORMS.join(', ')}`);
      const label = PLATFORM_LABELS[platform];
      const errs = new FieldErrorCollector();
      for (const [field, why] of Object.entries(rule.notYet)) if ((input as unknown as Record<string, unknown>)[field] !== undefined) errs.add(field, why);
      const warnings: string[] = [];
      const patch: VideoMetadataPatch = {};
      for (const k of PATCH_FIELDS) if (input[k] !== undefined) (patch as Record<string, unknown>)[k] = input[k];
      if (patch.title !== undefined) patch.title = patch.title.trim();
      if (patch.tags !== undefined) patch.tags = normalizeTags(patch.tags, warnings);
      if (Object.keys(patch).length === 0 && errs.empty) {
        throw validationError({ body: [`give at least one field to change: ${PATCH_FIELDS.join(', ')}`] });
      }
      const direct = postId === DIRECT_MODE;
      if (direct) {
        if (!input.videoId) errs.add('videoId', 'is required when postId is "_" (direct mode)');
        if (!input.accountId) errs.add('accountId', 'is required when postId is "_" (direct mode)');
      }
      errs.throwIfAny();

      // Post mode: the published target; direct mode: the caller's account on the platform.
      const found = direct ? null : await publishedTarget(deps.db, auth, postId, platform, input.accountId);
      let accountId = found?.target.account_id;
      if (direct) {
        const acc = await deps.accounts.accessible(auth, input.accountId!.toLowerCase());
        if (acc.platform !== platform) throw fieldError('accountId', `is a ${acc.platform} account; update-metadata is for ${label} accounts`);
        accountId = acc.id;
      }
      const { adapter, account } = await editorFor(deps, auth, platform, accountId!, 'updateVideoMetadata');
      const psd = found?.target.platform_specific_data ?? {};
      const stored = found ? (found.target.custom_content ?? found.post.content) : undefined;

      // The platform's rule table, on the video as it will be (media rules are not the question here).
      const rulePsd = { ...psd, title: patch.title ?? psd.title, tags: patch.tags ?? psd.tags, privacyStatus: patch.privacyStatus, madeForKids: patch.madeForKids, containsSyntheticMedia: patch.containsSyntheticMedia };
      for (const v of adapter.validate({
        text: patch.description ?? stored ?? '', mediaItems: found?.post.media_items ?? [], threadItems: [], platformSpecificData: rulePsd,
        tags: patch.tags ?? found?.post.tags ?? [], visibility: 'public',
      })) {
        const field = FIELD_OF[v.field];
        if (field && (field !== 'description' || patch.description !== undefined) && (field !== 'tags' || patch.tags !== undefined) && (field !== 'title' || patch.title !== undefined)) {
          errs.add(field, `${v.message} [rule ${v.rule}]`);
        }
      }
      errs.throwIfAny();

      const videoId = found ? found.target.platform_post_id! : input.videoId!;
      const changes: Changes = {};
      const was: Record<string, unknown> = { ...psd, description: stored, tags: psd.tags ?? found?.post.tags, privacyStatus: psd.privacyStatus ?? psd.visibility };
      for (const [k, v] of Object.entries(patch)) changes[k] = { from: found ? was[k] ?? null : null, to: v };
      const { account: actx, ctx } = adapterContextFor(deps.accounts, account);
      const { updatedFields } = await callPlatform(deps, {
        tenantId: auth.tenantId, userId: auth.userId, account, action: 'update_metadata', postId: found?.post.id ?? null, targetId: found?.target.id ?? null,
        changes, endpoint: rule.how, requestId,
      }, () => adapter.updateVideoMetadata!(ctx, actx, videoId, patch));

      if (found) {
        const { description, ...options } = patch;
        // The target's options say the privacy as the post was made with it: `visibility` too when it had one.
        const privacy = patch.privacyStatus && psd.visibility !== undefined ? { visibility: patch.privacyStatus } : {};
        await recordTargetEdit(deps.db, found.target.id, {
          customContent: description ?? found.target.custom_content, platformSpecificData: { ...psd, ...options, ...privacy },
          platformPostId: videoId, platformPostUrl: found.target.platform_post_url ?? '', now: deps.clock(),
        });
      }
      const note = warnings.length ? ` (${warnings.join('; ')})` : '';
      return {
        success: true, message: `${label} video ${videoId} updated: ${updatedFields.join(', ')}${note}`, updatedFields,
        ...(direct ? { videoId } : {}),
      };
    },
  };
}

export type VideoMetadata = ReturnType<typeof createVideoMetadata>;
