/**
 * The MCP tools of /mcp as data: each one a /v1 operation (method and path), the capability it
 * needs, the fields it fixes and its annotations. Pure, so that the docs page lists the same
 * tools the server serves; src/modules/mcp/tools.ts builds them from their routes' schemas
 * (docs/decisions/0047-mcp-server.md).
 */
import { PLATFORMS } from './platforms.ts';
import { PLATFORM_RULES } from './platform-summary.ts';

/**
 * What a caller may do through MCP, on top of the route's permission. An API key holds all four
 * (its permissions decide); an OAuth grant holds the ones the user chose on the consent page.
 */
export const CAPABILITIES = ['read', 'drafts', 'publish', 'delete'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * What each capability allows, in the words the consent page shows next to its checkbox and the
 * docs' capability table repeats (the tools of each are listed from {@link TOOL_SPECS}).
 */
export const CAPABILITY_LABELS: Record<Capability, string> = {
  read: 'Read profiles, accounts, posts and their logs, the media library, queues, usage and analytics',
  drafts: 'Create drafts, upload media, comment and submit drafts for approval (nothing is published)',
  publish: 'Schedule and publish posts, retry failed ones, edit published posts and YouTube videos\' details',
  delete: 'Delete posts and unpublish them from the platforms',
};

/** A tool's definition: its route, the capability it needs, and what it fixes. */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The route's path as registered (Fastify parameters). */
  url: string;
  capability: Capability;
  /** Body or query fields the tool sets itself (left out of its input schema). */
  fixed?: Record<string, unknown>;
  /** Body fields left out of the input schema (and refused if sent). */
  omit?: string[];
  /** Fields the tool needs though the route does not (at least one of them). */
  requireOneOf?: string[];
  /** Takes an `idempotencyKey` argument, sent as the route's `Idempotency-Key` header. */
  idempotent?: boolean;
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

/** The time rule every tool that takes `scheduledFor` repeats. */
const TIME_RULE = 'Times: `scheduledFor` is either a local time "YYYY-MM-DDTHH:mm" together with `timezone` (an IANA zone such as "Europe/Paris"), '
  + 'or an ISO 8601 UTC time ending in "Z" (then `timezone` only labels it).';
/** Each platform's text limit, from the one platform table (src/shared/platform-summary.ts). */
const TEXT_LIMITS = PLATFORMS.map((id) => `${PLATFORM_RULES[id].label} (\`${id}\`) ${PLATFORM_RULES[id].maxText} ${PLATFORM_RULES[id].unit}`).join(', ');
const RULES_HINT = `Each platform has its own rules: text limits ${TEXT_LIMITS}; media counts and kinds, video length and titles differ too. `
  + 'Read the resource herald://rules for every rule, or call validate_post first: a post that breaks one is refused with the rule named in details.fields.';
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** Every tool, in the order tools/list answers them. */
export const TOOL_SPECS: readonly ToolSpec[] = [
  { name: 'list_profiles', title: 'List profiles', method: 'GET', url: '/v1/profiles', capability: 'read', annotations: READ,
    description: 'The profiles (brands or clients) you can use; posts and accounts belong to one profile.' },
  { name: 'list_accounts', title: 'List connected accounts', method: 'GET', url: '/v1/accounts', capability: 'read', annotations: READ,
    description: 'The connected social accounts, optionally of one profile. Use an account\'s _id and platform in a post\'s `platforms`.' },
  { name: 'get_accounts_health', title: 'Account health', method: 'GET', url: '/v1/accounts/health', capability: 'read', annotations: READ,
    description: 'Health of every connected account: token validity, whether it needs reconnecting, whether it can post, its latest publish result.' },
  { name: 'validate_post', title: 'Validate a post', method: 'POST', url: '/v1/tools/validate/post', capability: 'read', annotations: READ,
    description: `Runs every check of creating a post (schedule, time zone, accounts, media, each platform's rules) and saves nothing. ${RULES_HINT} ${TIME_RULE}` },
  { name: 'create_draft', title: 'Create a draft', method: 'POST', url: '/v1/posts', capability: 'drafts', fixed: { isDraft: true }, omit: ['publishNow', 'isDraft'],
    idempotent: true, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    description: `Saves a draft post: nothing is published or scheduled (a scheduledFor is kept as the planned time). ${RULES_HINT} ${TIME_RULE}` },
  { name: 'schedule_post', title: 'Schedule a post', method: 'POST', url: '/v1/posts', capability: 'publish', fixed: { isDraft: false }, omit: ['publishNow', 'isDraft'],
    requireOneOf: ['scheduledFor', 'queuedFromProfile'], idempotent: true,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    description: 'Schedules a post: it is published at `scheduledFor`, or at the profile\'s next free queue slot with `queuedFromProfile` '
      + '(its default queue, or the named queue `queueId` from get_queue_slots with all: "true"; see get_next_queue_slot). '
      + `${RULES_HINT} ${TIME_RULE}` },
  { name: 'publish_post_now', title: 'Publish a post now', method: 'POST', url: '/v1/posts', capability: 'publish', fixed: { publishNow: true, isDraft: false },
    omit: ['publishNow', 'isDraft', 'scheduledFor', 'queuedFromProfile', 'queueId'], idempotent: true,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    description: `Publishes a post on its platforms at once. ${RULES_HINT}` },
  { name: 'list_posts', title: 'List posts', method: 'GET', url: '/v1/posts', capability: 'read', annotations: READ,
    description: 'Posts, newest first, paged; filter by status, platform, profile and scheduled date range (dateFrom/dateTo, ISO 8601).' },
  { name: 'get_post', title: 'Get a post', method: 'GET', url: '/v1/posts/:postId', capability: 'read', annotations: READ,
    description: 'A post with its targets (one per account: status, platform post id and URL, errors).' },
  { name: 'get_post_logs', title: 'A post\'s publishing log', method: 'GET', url: '/v1/posts/:postId/logs', capability: 'read', annotations: READ,
    description: 'Every publishing step of a post on each platform (attempts, platform answers, errors).' },
  { name: 'retry_post', title: 'Retry a failed post', method: 'POST', url: '/v1/posts/:postId/retry', capability: 'publish', omit: ['accountId', 'platform'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    description: 'Publishes the failed targets of a failed or partial post again.' },
  { name: 'retry_post_target', title: 'Retry one failed target of a post', method: 'POST', url: '/v1/posts/:postId/retry', capability: 'publish',
    requireOneOf: ['accountId', 'platform'], annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    description: 'Publishes one failed target of a failed or partial post again: the one of `accountId` (or the failed ones on `platform`); '
      + 'the post\'s other failed targets stay failed. A target that is not failed is refused with the field named in details.fields.' },
  { name: 'unpublish_post', title: 'Unpublish a post', method: 'POST', url: '/v1/posts/:postId/unpublish', capability: 'delete',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    description: 'Deletes a published post from its platforms (those that allow it) and cancels the targets not published yet; `platform` limits it to one.' },
  { name: 'edit_published_post', title: 'Edit a published post', method: 'POST', url: '/v1/posts/:postId/edit', capability: 'publish', idempotent: true,
    // Destructive: the new text replaces the live one on the platform (the old text is not kept there).
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    description: 'Changes the text of a published post on one platform through the platform\'s own edit call (Mastodon, Discord, Telegram, YouTube, '
      + 'Pinterest, LinkedIn, Facebook Pages, Reddit self posts, Google Business Profile); other platforms answer 400 saying why. '
      + 'Send the whole new text; it is checked against the platform\'s rules first. Posts not published yet are changed by editing the post instead.' },
  { name: 'update_youtube_metadata', title: 'Update a YouTube video\'s metadata', method: 'POST', url: '/v1/posts/:postId/update-metadata', capability: 'publish', idempotent: true,
    // Destructive: the new title, description, tags or privacy replace the live video's.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    description: 'Changes the title, description, tags, category or privacy of a published YouTube video; fields left out stay. '
      + 'postId "_" with videoId and accountId updates any video of the channel.' },
  { name: 'delete_post', title: 'Delete a post', method: 'DELETE', url: '/v1/posts/:postId', capability: 'delete',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    description: 'Deletes a post that is not published (a draft, a scheduled or a failed one) from Herald.' },
  { name: 'list_pending_approvals', title: 'List posts waiting for approval', method: 'GET', url: '/v1/posts', capability: 'read',
    fixed: { status: 'pending_approval' }, annotations: READ,
    description: 'Posts waiting for approval (status pending_approval), newest first, paged; filter by profile, platform and date range. '
      + 'Approve one with approve_post or send it back with request_post_changes (docs: Approvals).' },
  { name: 'get_post_approval', title: 'A post\'s review', method: 'GET', url: '/v1/posts/:postId/approval', capability: 'read', annotations: READ,
    description: 'The review of a post: its state (none, pending, approved, changes_requested), whether you may approve it, and every step (who, when, comment).' },
  { name: 'submit_post_for_approval', title: 'Submit a draft for approval', method: 'POST', url: '/v1/posts/:postId/submit', capability: 'drafts',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    description: 'Submits a draft (for example one sent back with changes requested) for review: it becomes pending_approval with the time, queue '
      + 'or publishNow it has, and is published only once an approver approves it.' },
  { name: 'approve_post', title: 'Approve a post', method: 'POST', url: '/v1/posts/:postId/approve', capability: 'publish',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    description: 'Approves a post waiting for approval, with an optional comment: it is published at the time or queue slot it was submitted with '
      + '(the next free slot when that time has passed; `moved` says so). Needs an API key of someone who may approve every profile of the post: '
      + 'an OAuth connection never approves (it is refused with 403).' },
  { name: 'request_post_changes', title: 'Request changes on a post', method: 'POST', url: '/v1/posts/:postId/request-changes', capability: 'publish',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    description: 'Sends a post waiting for approval back to its author as a draft, with a required comment saying what to change. '
      + 'Needs the same right as approve_post (an OAuth connection is refused with 403).' },
  { name: 'comment_on_post', title: 'Comment on a post', method: 'POST', url: '/v1/posts/:postId/comments', capability: 'drafts',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    description: 'Adds an internal note to a post (never shown to clients). Write @name or @email of a team member in the text to mention them: '
      + 'they are told by mail and in the post.commented webhook event.' },
  { name: 'list_media', title: 'List uploaded media', method: 'GET', url: '/v1/media', capability: 'read', annotations: READ,
    description: 'The media library: uploaded files, newest first; each file\'s url can be used in a post\'s mediaItems as it is.' },
  { name: 'upload_media_from_url', title: 'Upload media from a URL', method: 'POST', url: '/v1/media/from-url', capability: 'drafts',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    description: 'Downloads the file at a public http(s) URL into the media library (images, GIFs, videos, PDFs up to 5GB; the type is checked on the bytes). '
      + 'Answers `files[0].url`, usable in a post\'s mediaItems as it is.' },
  { name: 'get_queue_slots', title: 'Queue schedule', method: 'GET', url: '/v1/queue/slots', capability: 'read', annotations: READ,
    description: 'A profile\'s queue (its default queue, or the named queue `queueId`): time zone, weekly slots and next slots. '
      + 'With all: "true", every queue of the profile (`queues`, each `_id` usable as `queueId`).' },
  { name: 'get_next_queue_slot', title: 'Next free queue slot', method: 'GET', url: '/v1/queue/next-slot', capability: 'read', annotations: READ,
    description: 'The next free slot of a profile\'s queue (its default queue, or the named queue `queueId`; occupied times skipped).' },
  { name: 'get_usage', title: 'Plan and usage', method: 'GET', url: '/v1/usage-stats', capability: 'read', annotations: READ,
    description: 'The plan, its limits and the usage in the current billing period.' },
  { name: 'get_analytics', title: 'Post analytics', method: 'GET', url: '/v1/analytics', capability: 'read', annotations: READ,
    description: 'Metrics of one post (postId) or of the published posts (needs the Analytics add-on; 30 requests per hour).' },
];
