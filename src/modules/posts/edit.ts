/**
 * Editing a published post's text on its platform (POST /v1/posts/{postId}/edit;
 * docs/decisions/0060-edit-published-posts.md). The new text is checked against the platform's
 * rule table first (the adapter's `validate`, as at publish time: 400 naming `content` and the
 * rule); platforms without an edit endpoint answer 400 naming `platform` and why
 * ({@link PUBLISHED_EDITS}). Then the platform is called (./edit-common.ts logs it), and only
 * after its success the target's stored text, id and URL change.
 */
import { FieldErrorCollector, fieldError } from '../../core/errors.ts';
import { PUBLISHED_EDITS, type PlatformId, type ThreadItem } from '../../platforms/types.ts';
import { adapterContextFor } from '../accounts/adapter-context.ts';
import type { AuthContext } from '../auth/context.ts';
import { callPlatform, editorFor, publishedTarget, type EditDeps } from './edit-common.ts';
import { recordTargetEdit } from './repository.ts';
import { buildPublishRequest, threadItemsOf } from './validation.ts';

/** The body of POST /v1/posts/{postId}/edit (the Late client's EditPostData). */
export interface EditPostInput {
  platform: PlatformId;
  content: string;
  accountId?: string;
}

/** The answer (the Late client's EditPostResponse): the platform's id and URL after the edit. */
export interface EditPostResult {
  success: boolean;
  id: string;
  url: string;
  message: string;
}

/** Rule violations of the text: the root's text is `content` in the request. */
const TEXT_FIELDS = new Set(['content', 'text', 'threadItems.0.content']);

export function createPostEdits(deps: EditDeps) {
  const { db, clock } = deps;
  return {
    /**
     * Changes the text of the post's published target on `input.platform` (the root of a thread).
     * `requestId`: the API request's id, kept on the log entry.
     * @throws 404 NOT_FOUND; 400 VALIDATION_ERROR naming `platform` (cannot edit there), `accountId`
     * or `content` (a platform rule, named); 409 INVALID_STATE (not published, account gone);
     * 429 RATE_LIMITED or 502 PLATFORM_ERROR (the platform's answer).
     */
    async edit(auth: AuthContext, postId: string, input: EditPostInput, requestId: string | null = null): Promise<EditPostResult> {
      const text = input.content;
      if (!text.trim()) throw fieldError('content', 'must not be empty: give the new text of the post');
      const { post, target } = await publishedTarget(db, auth, postId, input.platform, input.accountId);
      const { adapter, account } = await editorFor(deps, auth, input.platform, target.account_id, 'editPublished');

      // The post as published, and as it will be with the new text: the same media, options and thread.
      const errs = new FieldErrorCollector();
      const psd = target.platform_specific_data ?? {};
      const thread = threadItemsOf(psd, 'platformSpecificData', errs);
      const base = {
        content: post.content, mediaItems: post.media_items, tags: post.tags, visibility: post.visibility, scheduledFor: null,
        accountSettings: account.settings ?? {},
      };
      const before = buildPublishRequest({
        ...base, customContent: target.custom_content, platformSpecificData: psd, threadItems: thread,
        platform: input.platform, hashtags: post.hashtags ?? [], mentions: post.mentions ?? [],
      });
      const editedThread: ThreadItem[] = thread.length > 0 ? [{ ...thread[0], content: text }, ...thread.slice(1)] : [];
      const editedPsd = thread.length > 0 ? { ...psd, threadItems: editedThread } : psd;
      const after = buildPublishRequest({ ...base, customContent: thread.length > 0 ? target.custom_content : text, platformSpecificData: editedPsd, threadItems: editedThread });
      for (const v of [...adapter.validate(after), ...(adapter.checkEdit?.(before, after) ?? [])]) {
        if (TEXT_FIELDS.has(v.field)) errs.add('content', `${v.message} [rule ${v.rule}]`);
      }
      errs.throwIfAny();
      const url = target.platform_post_url ?? '';
      if (before.text === after.text) {
        return { success: true, id: target.platform_post_id!, url, message: `The ${input.platform} post already has this text; nothing was sent` };
      }

      const { account: actx, ctx } = adapterContextFor(deps.accounts, account);
      const threadIds = (target.result?.thread ?? []).map((t) => t.platformPostId);
      const result = await callPlatform(deps, {
        tenantId: auth.tenantId, userId: auth.userId, account, action: 'edit', postId: post.id, targetId: target.id,
        changes: { content: { from: before.text, to: after.text } }, endpoint: PUBLISHED_EDITS[input.platform].how, requestId,
      }, () => adapter.editPublished!(ctx, actx, {
        text: after.text, post: { platformPostId: target.platform_post_id!, threadIds, platformPostUrl: url },
        mediaItems: after.mediaItems, platformSpecificData: psd,
      }));
      await recordTargetEdit(db, target.id, {
        customContent: thread.length > 0 ? target.custom_content : text, platformSpecificData: editedPsd,
        platformPostId: result.platformPostId, platformPostUrl: result.platformPostUrl || url, now: clock(),
      });
      return { success: true, id: result.platformPostId, url: result.platformPostUrl || url, message: `Post edited on ${input.platform}` };
    },
  };
}

export type PostEdits = ReturnType<typeof createPostEdits>;
