/**
 * Approvals (docs/decisions/0059-approvals.md): a profile's approval rule, submitting, approving
 * and requesting changes, the review history, comments on posts (internal notes and the client's),
 * client review links (signed by an unguessable token, expiring, revocable; only its hash is
 * stored) and the mail they send. The post's own writes are the posts module's (./review.ts there).
 */
import type { RateLimitState } from '../../route-kit/rate-limit-headers.ts';
import { randomBytes } from 'node:crypto';
import { AppError, fieldError, notFound } from '../../core/errors.ts';
import type { Mailer } from '../../infra/mailer.ts';
import { formatInstantIn, localizeInstants } from '../../shared/instants.ts';
import { platformPreviewOf } from '../../shared/platform-preview.ts';
import type { Db, Queryable } from '../../storage/db.ts';
import { countHit } from '../../storage/rate-limit-counters.ts';
import { canAccessProfile, type AuthContext } from '../auth/context.ts';
import { assertPostAccess, lockAccessiblePost } from '../posts/access.ts';
import type { PublishingPort } from '../posts/publishing-port.ts';
import { getPostRow, lockPost, targetProfileIds, type PostRow } from '../posts/repository.ts';
import type { PostsService } from '../posts/service.ts';
import { getAccessibleProfile, setProfileApprovalRule } from '../profiles/service.ts';
import { enqueueReviewEvent } from '../webhooks/outbox.ts';
import {
  approvalRules, getReviewLink, insertComment, insertReviewLink, listComments, listReviewEvents, listReviewLinks, mayApprove,
  recordReviewEvent, reviewLinkByToken, revokeReviewLink, type ApprovalRuleRow, type CommentRow, type ReviewActor, type ReviewEventRow, type ReviewLinkRow,
} from './repository.ts';
import { parseMentions, teamMembers } from './mentions.ts';

export type ReviewState = 'none' | 'pending' | 'approved' | 'changes_requested';

const DAY_MS = 86_400_000;
/** Requests a client address may make to the review API a minute (a page load is one, each action one). */
export const REVIEW_API_PER_MINUTE = 120;

/** The 429 of a client address over {@link REVIEW_API_PER_MINUTE}. */
export const reviewRateLimited = () => new AppError('RATE_LIMITED', 'Too many requests to review links from your address; try again in a minute', { window: '1 minute' });

function eventView(e: ReviewEventRow) {
  return {
    _id: e.id, kind: e.kind, actor: { type: e.review_link_id ? 'client' as const : 'user' as const, userId: e.actor_user_id, name: e.actor_name },
    comment: e.comment, details: e.details, createdAt: e.created_at.toISOString(),
  };
}

function commentView(c: CommentRow) {
  return {
    _id: c.id, visibility: c.visibility, author: { type: c.review_link_id ? 'client' as const : 'user' as const, userId: c.author_user_id, name: c.author_name },
    body: c.body, mentions: c.mentions.map((m) => m.trim()), createdAt: c.created_at.toISOString(),
  };
}

function linkView(l: ReviewLinkRow, now: Date) {
  return {
    _id: l.id, kind: l.post_id ? 'post' as const : 'batch' as const, postId: l.post_id, profileId: l.profile_id,
    from: l.range_from?.toISOString() ?? null, to: l.range_to?.toISOString() ?? null, label: l.label,
    expiresAt: l.expires_at.toISOString(), revokedAt: l.revoked_at?.toISOString() ?? null, createdBy: l.created_by,
    active: !l.revoked_at && l.expires_at > now, createdAt: l.created_at.toISOString(),
  };
}

/** The state of a post's review, from its status and its last decisive step. */
function stateOf(post: Pick<PostRow, 'status'>, events: ReviewEventRow[]): ReviewState {
  if (post.status === 'pending_approval') return 'pending';
  const last = [...events].reverse().find((e) => e.kind === 'approved' || e.kind === 'changes_requested');
  if (!last) return 'none';
  return last.kind === 'approved' ? 'approved' : 'changes_requested';
}

/** The options a preview draws (title, thread replies, first comment, subreddit), and nothing else of the target's settings. */
function previewData(d: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof d.title === 'string') out.title = d.title;
  if (typeof d.firstComment === 'string') out.firstComment = d.firstComment;
  if (typeof d.subreddit === 'string') out.subreddit = d.subreddit;
  if (Array.isArray(d.threadItems)) out.threadItems = (d.threadItems as Array<{ content?: unknown }>).map((i) => ({ content: typeof i?.content === 'string' ? i.content : '' }));
  return out;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function createApprovalsService(deps: {
  db: Db; posts: PostsService; publisher: PublishingPort; clock: () => Date; publicUrl: string; mailer: Mailer | null;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { db, posts, publisher, clock, mailer } = deps;
  const base = deps.publicUrl.replace(/\/+$/, '');

  function send(to: string[], subject: string, text: string) {
    if (!mailer) return;
    for (const address of new Set(to.filter(Boolean))) {
      mailer.send({ to: address, subject, text, html: `<p>${esc(text).replace(/\n/g, '<br>')}</p>` })
        .catch((err: Error) => deps.log?.warn({ err: err.message }, 'approvals: a mail could not be sent'));
    }
  }

  async function emailsOf(q: Queryable, userIds: string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const { rows } = await q.query<{ email: string }>('SELECT email FROM users WHERE id = ANY($1::char(24)[])', [userIds]);
    return rows.map((r) => r.email);
  }

  /** The approvers of a post (the tenant's owner and the members its profiles' rules name) as email addresses. */
  async function approverEmails(tenantId: string, postId: string): Promise<string[]> {
    const rules = await approvalRules(db, tenantId, await targetProfileIds(db, postId));
    return emailsOf(db, [tenantId, ...rules.flatMap((r) => r.approver_ids)]);
  }

  const postLink = (postId: string) => `${base}/dashboard/posts/${postId}`;

  /** Checks the caller may approve every profile of the post. @throws 403 FORBIDDEN naming the profile. */
  function assertApprover(auth: AuthContext, rules: ApprovalRuleRow[]) {
    for (const r of rules) {
      if (!mayApprove(auth, r)) throw new AppError('FORBIDDEN', `You may not approve posts of the profile "${r.name}": ask its owner or an approver it names`, { profileId: r.id, reason: 'not_an_approver' });
    }
  }

  /**
   * Approve or request changes, by a user (`auth`: their access to the post and approver's right are
   * checked) or a review link's client (no `auth`: the link's tenant and post were checked by the caller,
   * and the post is locked within `tenantId` only). The approved post takes its slot for the tenant.
   */
  async function decide(tenantId: string, postId: string, actor: ReviewActor, decision: 'approved' | 'changes_requested', comment: string | null, auth?: AuthContext) {
    const now = clock();
    const outcome = await db.tx(async (client) => {
      const post = auth ? await lockAccessiblePost(client, auth, postId) : await lockPost(client, tenantId, postId);
      if (!post) throw notFound('Post');
      const rules = await approvalRules(client, tenantId, await targetProfileIds(client, postId));
      if (auth) assertApprover(auth, rules);
      else if (rules.some((r) => !r.client_approval)) throw new AppError('FORBIDDEN', 'The client may not approve posts of this profile', { reason: 'client_approval_off' });
      if (post.status !== 'pending_approval') {
        throw new AppError('INVALID_STATE', `Only posts waiting for approval can be ${decision === 'approved' ? 'approved' : 'sent back'} (this post is "${post.status}")`, { status: post.status });
      }
      let details: Record<string, unknown> = {};
      let release: Awaited<ReturnType<PostsService['releaseApproved']>> | null = null;
      if (decision === 'approved') {
        release = await posts.releaseApproved(client, { tenantId }, post);
        details = { scheduledFor: release.runAt.toISOString(), moved: release.moved, ...(release.note ? { note: release.note } : {}) };
      } else {
        await posts.returnForChanges(client, post);
      }
      const eventId = await recordReviewEvent(client, { tenantId, postId, kind: decision, actor, comment, details, at: now });
      await enqueueReviewEvent(client, postId, decision === 'approved' ? 'post.approved' : 'post.changes_requested', eventId, {
        review: { kind: decision, by: actor.kind === 'user' ? actor.userId : null, client: actor.kind === 'client' ? { name: actor.name, reviewLinkId: actor.linkId } : null,
          at: now.toISOString(), comment, ...details },
      });
      return { post, release, details };
    });
    if (outcome.release) publisher.notifyDue(outcome.release.runAt);
    const who = actor.kind === 'user' ? 'A team member' : `${actor.name || 'The client'} (review link)`;
    const [submitter] = await emailsOf(db, [outcome.post.created_by]);
    if (submitter) {
      // Times as the post's own time zone shows them (the API's messages write UTC instants).
      const local = (text: string) => localizeInstants(text, (at) => formatInstantIn(at, outcome.post.timezone));
      send([submitter], decision === 'approved' ? 'Your post was approved' : 'Changes were requested on your post',
        `${who} ${decision === 'approved' ? 'approved' : 'requested changes on'} your post:\n\n${outcome.post.content.slice(0, 280)}\n\n`
        + (comment ? `Comment: ${comment}\n\n` : '') + (outcome.release?.note ? `${local(outcome.release.note)}\n\n` : '')
        + (outcome.release ? `It publishes at ${local(outcome.release.runAt.toISOString())}.\n\n` : 'Edit it and submit it again.\n\n') + postLink(postId));
    }
    const view = auth ? await posts.get(auth, postId) : await posts.getForTenant(tenantId, postId);
    return {
      message: decision === 'approved'
        ? (outcome.release?.note ?? `Post approved: it publishes at ${outcome.release!.runAt.toISOString()}`)
        : 'Changes requested: the post is a draft again until its author submits it',
      post: view.post,
      ...(outcome.release ? { scheduledFor: outcome.release.runAt.toISOString(), moved: outcome.release.moved } : {}),
    };
  }

  /** The posts a review link shows (the post, or the profile's reviewed posts in its range), ids only. */
  async function linkPostIds(link: ReviewLinkRow): Promise<string[]> {
    if (link.post_id) return [link.post_id];
    const { rows } = await db.query<{ id: string }>(
      `SELECT p.id FROM posts p
        WHERE p.tenant_id = $1 AND p.scheduled_for >= $3 AND p.scheduled_for < $4
          AND EXISTS (SELECT 1 FROM post_targets t JOIN accounts a ON a.id = t.account_id WHERE t.post_id = p.id AND a.profile_id = $2)
          AND (p.status = 'pending_approval' OR EXISTS (SELECT 1 FROM post_review_events e WHERE e.post_id = p.id))
        ORDER BY p.scheduled_for, p.id LIMIT 200`, [link.tenant_id, link.profile_id, link.range_from, link.range_to]);
    return rows.map((r) => r.id);
  }

  /** The live link of a token. @throws 404 NOT_FOUND for an unknown, expired or revoked one (the same answer). */
  async function liveLink(token: string): Promise<ReviewLinkRow> {
    const link = token.length >= 20 && token.length <= 200 ? await reviewLinkByToken(db, token) : undefined;
    if (!link || link.revoked_at || link.expires_at <= clock()) {
      throw new AppError('NOT_FOUND', 'This review link is unknown, expired or revoked: ask for a new one', { reason: 'review_link_invalid' });
    }
    return link;
  }

  /** A post the link shows, or 404 (any other post, of this tenant or another, looks the same). */
  async function linkPost(link: ReviewLinkRow, postId: string): Promise<string> {
    if (!/^[0-9a-f]{24}$/.test(postId) || !(await linkPostIds(link)).includes(postId)) throw notFound('Post');
    return postId;
  }

  /** What a client sees of a post: text, media, time, platforms as they will look, the decisions and the client-visible comments. */
  async function clientPostView(tenantId: string, postId: string) {
    const { post } = await posts.getForTenant(tenantId, postId);
    const row = (await getPostRow(db, postId))!;
    const events = await listReviewEvents(db, postId);
    return {
      _id: post._id, title: post.title, content: post.content, scheduledFor: post.scheduledFor, timezone: post.timezone,
      status: post.status, review: { state: stateOf(row, events) },
      mediaItems: post.mediaItems.map((m) => ({ url: String((m as { url?: unknown }).url ?? ''), type: String((m as { type?: unknown }).type ?? 'image') })),
      platforms: post.platforms.map((t) => {
        const acc = (t as { accountId?: unknown }).accountId as { username?: string; displayName?: string } | string | undefined;
        return {
          platform: t.platform, username: typeof acc === 'object' ? acc?.username ?? '' : '', displayName: typeof acc === 'object' ? acc?.displayName ?? '' : '',
          content: (t as { customContent?: string | null }).customContent ?? post.content, preview: platformPreviewOf(t.platform),
          data: previewData(t.platformSpecificData),
        };
      }),
      decisions: events.filter((e) => e.kind === 'approved' || e.kind === 'changes_requested')
        .map((e) => ({ kind: e.kind, name: e.actor_name, comment: e.comment, createdAt: e.created_at.toISOString() })),
      comments: (await listComments(db, postId, true)).map((c) => ({ _id: c.id, name: c.author_name, fromClient: !!c.review_link_id, body: c.body, createdAt: c.created_at.toISOString() })),
    };
  }

  const service = {
    /** Mail to the approvers of freshly submitted posts (after their transaction committed). */
    notifySubmitted(tenantId: string, postIds: string[]) {
      if (!mailer) return;
      void (async () => {
        for (const id of postIds) {
          const post = await getPostRow(db, id);
          if (!post) continue;
          send(await approverEmails(tenantId, id), 'A post waits for your review',
            `A post was submitted for approval:\n\n${post.content.slice(0, 280)}\n\nReview it: ${postLink(id)}`);
        }
      })().catch((err: Error) => deps.log?.warn({ err: err.message }, 'approvals: review request mail failed'));
    },

    async getRule(auth: AuthContext, profileId: string) {
      await getAccessibleProfile(db, auth, profileId);
      const [r] = await approvalRules(db, auth.tenantId, [profileId]);
      return { rule: { profileId, required: r.approval_required, approverIds: r.approver_ids, clientApproval: r.client_approval, canApprove: mayApprove(auth, r) } };
    },

    /** Owner only. @throws 403 for members; 400 naming approverIds for a user not in the team. */
    async setRule(auth: AuthContext, profileId: string, input: { required: boolean; approverIds?: string[]; clientApproval?: boolean }) {
      await getAccessibleProfile(db, auth, profileId);
      if (!auth.isRoot) throw new AppError('FORBIDDEN', 'Only the account owner can change a profile\'s approval rule');
      const ids = [...new Set((input.approverIds ?? []).map((i) => i.toLowerCase()))];
      if (ids.length) {
        const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE tenant_id = $1 AND id = ANY($2::char(24)[])', [auth.tenantId, ids]);
        const known = new Set(rows.map((r) => r.id));
        const unknown = ids.filter((i) => !known.has(i));
        if (unknown.length) throw fieldError('approverIds', `are not users of your team: ${unknown.join(', ')}`);
      }
      await setProfileApprovalRule(db, auth.tenantId, profileId, { required: input.required, approverIds: ids, clientApproval: input.clientApproval ?? false });
      return { message: 'Approval rule saved', ...(await service.getRule(auth, profileId)) };
    },

    /** Submits a draft (or a post sent back for changes) for review, with the time and queue it has. */
    async submit(auth: AuthContext, postId: string) {
      const post = await db.tx(async (client) => lockAccessiblePost(client, auth, postId));
      if (post.status !== 'draft') throw new AppError('INVALID_STATE', `Only drafts can be submitted for review (this post is "${post.status}")`, { status: post.status });
      const r = await posts.update(auth, postId, {
        isDraft: false,
        ...(post.publish_now ? { publishNow: true } : {}),
        ...(post.queued_from_profile ? { queuedFromProfile: post.queued_from_profile.trim(), ...(post.queue_id ? { queueId: post.queue_id.trim() } : {}) } : {}),
      }, { submit: true });
      return r.body;
    },

    approve: (auth: AuthContext, postId: string, comment: string | null) =>
      decide(auth.tenantId, postId, { kind: 'user', userId: auth.userId }, 'approved', comment, auth),
    requestChanges: (auth: AuthContext, postId: string, comment: string) =>
      decide(auth.tenantId, postId, { kind: 'user', userId: auth.userId }, 'changes_requested', comment, auth),

    /** The review of a post: its state, every step, and whether the caller may decide. */
    async review(auth: AuthContext, postId: string) {
      const post = await getPostRow(db, postId);
      if (!post || post.tenant_id !== auth.tenantId) throw notFound('Post');
      await assertPostAccess(db, auth, post);
      const events = await listReviewEvents(db, postId);
      const rules = await approvalRules(db, auth.tenantId, await targetProfileIds(db, postId));
      return {
        approval: {
          postId, status: post.status, state: stateOf(post, events), canApprove: rules.length > 0 && rules.every((r) => mayApprove(auth, r)),
          required: rules.some((r) => r.approval_required), events: events.map(eventView),
        },
      };
    },

    async comments(auth: AuthContext, postId: string) {
      const post = await getPostRow(db, postId);
      if (!post || post.tenant_id !== auth.tenantId) throw notFound('Post');
      await assertPostAccess(db, auth, post);
      return { comments: (await listComments(db, postId, false)).map(commentView) };
    },

    /**
     * An internal note (team only). Its mentions, the members named by `@name` in the text (./mentions.ts)
     * and the user ids in `mentions`, are told by mail and in the post.commented event.
     * @throws 400 naming `mentions` for an id that is not a user of the team.
     */
    async addComment(auth: AuthContext, postId: string, input: { body: string; mentions?: string[] }) {
      const now = clock();
      const given = [...new Set((input.mentions ?? []).map((m) => m.toLowerCase()))];
      let mentions = given;
      const comment = await db.tx(async (client) => {
        await lockAccessiblePost(client, auth, postId);
        const team = await teamMembers(client, auth.tenantId);
        if (given.some((id) => !team.some((m) => m.id === id))) throw fieldError('mentions', 'must name users of your team (see GET /v1/users)');
        mentions = [...new Set([...given, ...parseMentions(input.body, team)])];
        const c = await insertComment(client, { tenantId: auth.tenantId, postId, visibility: 'internal', actor: { kind: 'user', userId: auth.userId }, body: input.body, mentions, at: now });
        await enqueueReviewEvent(client, postId, 'post.commented', c.id, { comment: { ...commentView(c) } });
        return c;
      });
      if (mentions.length) {
        send(await emailsOf(db, mentions.filter((m) => m !== auth.userId)), `${comment.author_name} mentioned you on a post`,
          `${comment.author_name} wrote:\n\n${comment.body}\n\n${postLink(postId)}`);
      }
      return { message: 'Comment added', comment: commentView(comment) };
    },

    // ---- review links ----

    /**
     * A client review link for one post or a batch (a profile's posts in [from, to)). The caller
     * must be an approver of the profiles, and their rule must let the client approve.
     * The token is in the answer only: the link stores its SHA-256.
     */
    async createLink(auth: AuthContext, input: { postId?: string; profileId?: string; from?: string; to?: string; label?: string; expiresInDays?: number }) {
      const now = clock();
      let profileIds: string[];
      let postId: string | null = null;
      let profileId: string | null = null;
      let from: Date | null = null;
      let to: Date | null = null;
      if (input.postId) {
        if (input.profileId || input.from || input.to) throw fieldError('postId', 'give either postId or profileId with from and to');
        const post = await getPostRow(db, input.postId.toLowerCase());
        if (!post || post.tenant_id !== auth.tenantId) throw notFound('Post');
        await assertPostAccess(db, auth, post);
        postId = post.id;
        profileIds = await targetProfileIds(db, post.id);
      } else {
        if (!input.profileId || !input.from || !input.to) throw fieldError('profileId', 'give postId, or profileId with from and to (a batch)');
        profileId = input.profileId.toLowerCase();
        await getAccessibleProfile(db, auth, profileId);
        from = new Date(input.from);
        to = new Date(input.to);
        if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || to <= from) throw fieldError('to', 'must be a time after from');
        if (to.getTime() - from.getTime() > 62 * DAY_MS) throw fieldError('to', 'a batch covers at most 62 days');
        profileIds = [profileId];
      }
      const rules = await approvalRules(db, auth.tenantId, profileIds);
      assertApprover(auth, rules);
      const off = rules.find((r) => !r.client_approval);
      if (off) throw new AppError('FORBIDDEN', `The profile "${off.name}" does not let the client approve: turn on client approval in its approval rule first`, { profileId: off.id, reason: 'client_approval_off' });
      const token = randomBytes(32).toString('base64url');
      const link = await insertReviewLink(db, {
        tenantId: auth.tenantId, createdBy: auth.userId, postId, profileId, from, to, label: input.label ?? '', token,
        expiresAt: new Date(now.getTime() + (input.expiresInDays ?? 7) * DAY_MS), at: now,
      });
      return { message: 'Review link created', reviewLink: linkView(link, now), token, url: `${base}/review/${token}` };
    },

    async listLinks(auth: AuthContext) {
      const now = clock();
      const rows = await listReviewLinks(db, auth.tenantId);
      const visible: ReviewLinkRow[] = [];
      for (const l of rows) {
        if (auth.profileAccess === 'all') { visible.push(l); continue; }
        const profiles = l.profile_id ? [l.profile_id] : l.post_id ? await targetProfileIds(db, l.post_id) : [];
        if (profiles.some((p) => canAccessProfile(auth, p))) visible.push(l);
      }
      return { reviewLinks: visible.map((l) => linkView(l, now)) };
    },

    async revokeLink(auth: AuthContext, id: string) {
      const link = await getReviewLink(db, auth.tenantId, id);
      if (!link) throw notFound('Review link');
      const profiles = link.profile_id ? [link.profile_id] : link.post_id ? await targetProfileIds(db, link.post_id) : [];
      if (!profiles.some((p) => canAccessProfile(auth, p))) throw notFound('Review link');
      assertApprover(auth, await approvalRules(db, auth.tenantId, profiles));
      await revokeReviewLink(db, auth.tenantId, id, clock());
      return { message: 'Review link revoked: it stops working at once' };
    },

    // ---- the client's side (no login: the token is the credential) ----

    /**
     * Counts a review-API request from `ip` and returns the limit's state (policy "review", for the
     * answer's rate-limit fields) and whether it is over: the caller answers 429 RATE_LIMITED then
     * ({@link reviewRateLimited}); at most {@link REVIEW_API_PER_MINUTE} a minute.
     */
    async throttle(ip: string): Promise<RateLimitState & { over: boolean }> {
      const nowMs = clock().getTime();
      const hit = await countHit(db, `review-api:ip:${ip}`, 60_000, nowMs);
      return {
        policy: 'review', limit: REVIEW_API_PER_MINUTE, windowSeconds: 60, remaining: REVIEW_API_PER_MINUTE - hit.count,
        resetAt: Math.ceil((hit.windowStart.getTime() + 60_000) / 1000), nowMs, over: hit.count > REVIEW_API_PER_MINUTE,
      };
    },

    async clientView(token: string) {
      const link = await liveLink(token);
      const ids = await linkPostIds(link);
      // The profile the link is about: the batch's, or the post's first.
      const profileId = link.profile_id ?? (await targetProfileIds(db, ids[0] ?? ''))[0] ?? null;
      const profileName = profileId
        ? (await db.query<{ name: string }>('SELECT name FROM profiles WHERE id = $1 AND tenant_id = $2', [profileId, link.tenant_id])).rows[0]?.name ?? ''
        : '';
      const [{ client_approval: clientApproval } = { client_approval: false }] = await approvalRules(db, link.tenant_id,
        link.profile_id ? [link.profile_id] : await targetProfileIds(db, ids[0] ?? ''));
      return {
        link: { kind: link.post_id ? 'post' as const : 'batch' as const, label: link.label, profileName, from: link.range_from?.toISOString() ?? null,
          to: link.range_to?.toISOString() ?? null, expiresAt: link.expires_at.toISOString(), canApprove: clientApproval },
        posts: await Promise.all(ids.map((id) => clientPostView(link.tenant_id, id))),
      };
    },

    async clientDecide(token: string, postId: string, decision: 'approved' | 'changes_requested', input: { name?: string; comment?: string }) {
      const link = await liveLink(token);
      await linkPost(link, postId);
      const r = await decide(link.tenant_id, postId, { kind: 'client', linkId: link.id, name: (input.name ?? '').trim() || 'Client' }, decision, input.comment?.trim() || null);
      return { message: r.message, post: await clientPostView(link.tenant_id, postId) };
    },

    async clientComment(token: string, postId: string, input: { name?: string; body: string }) {
      const link = await liveLink(token);
      await linkPost(link, postId);
      const now = clock();
      const actor: ReviewActor = { kind: 'client', linkId: link.id, name: (input.name ?? '').trim() || 'Client' };
      await db.tx(async (client) => {
        const c = await insertComment(client, { tenantId: link.tenant_id, postId, visibility: 'client', actor, body: input.body, mentions: [], at: now });
        await enqueueReviewEvent(client, postId, 'post.commented', c.id, { comment: commentView(c) });
      });
      const post = await getPostRow(db, postId);
      if (post) send(await emailsOf(db, [post.created_by]), 'The client commented on a post', `${actor.name} wrote:\n\n${input.body}\n\n${postLink(postId)}`);
      return { message: 'Comment added', post: await clientPostView(link.tenant_id, postId) };
    },
  };
  return service;
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
