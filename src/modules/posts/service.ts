/**
 * Posts: create, update, delete, retry, list, each in its own file, composed here.
 *
 * A post, its targets and their jobs are written in ONE transaction: a target row in
 * status `pending` with `run_at` IS the publish job (src/publishing/, decision 0001). So
 * a post is never saved without its job, and the job cannot outlive its post. Posts reach
 * the publishing pipeline only through the {@link PublishingPort} wired in src/services.ts.
 *
 * - create.ts: plan (validate, write nothing) + insert (one statement) + the create flow
 * - update.ts: editing, with the status table of docs/decisions/0004-status-table.md
 * - read.ts: one post, and the filtered list
 * - lifecycle.ts: delete and retry
 * - publish-inline.ts: publishNow's inline publish and its 201/207/202 answer
 * - recycling*.ts, recycle-job.ts: a post's recycling config and the job creating its copies (decision 0061)
 * - targets.ts: which accounts a post goes to, their platform rules and run times
 * - repository.ts: every statement on posts and post_targets outside publishing
 */
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { Db } from '../../storage/db.ts';
import type { QueueService } from '../queue/service.ts';
import type { UsageService } from '../usage/service.ts';
import { createPostCreation } from './create.ts';
import type { AccountRowCache } from '../accounts/repository.ts';
import { createPostLifecycle } from './lifecycle.ts';
import { createPublishInline } from './publish-inline.ts';
import type { PublishingPort } from './publishing-port.ts';
import { createPostReads } from './read.ts';
import { createTargetRules, type TargetRulesDeps } from './targets.ts';
import type { EnrichOptions } from '../media/lookup.ts';
import { createPostUpdate } from './update.ts';
import { createPostReview } from './review.ts';
import { createRecycler } from './recycle-job.ts';

export type { PlannedPost } from './create.ts';
export type { WriteResult } from './publish-inline.ts';
export type { AccountSource, ResolvedTarget } from './targets.ts';
export { dbAccountSource } from './targets.ts';

export function createPostsService(deps: {
  db: Db; usage: UsageService; adapters: AdapterRegistry; publisher: PublishingPort; clock: () => Date; queue: QueueService;
  /** What targets' rules read from their platform (Reddit's subreddit rules); see TargetRulesDeps. */
  ruleSettings?: TargetRulesDeps['ruleSettings'];
  /** Format and pixels of an image named by a foreign URL (src/infra/remote-media.ts), for the rule check at creation. */
  probeRemoteImage?: EnrichOptions['probeRemoteImage'];
  /** Account rows kept per process for the create route (createAccountRowCache); without it, every create reads them. */
  accountRows?: AccountRowCache;
  /** Called after posts were submitted for approval (decision 0059): the approvers' mail. */
  onSubmitted?: (tenantId: string, postIds: string[]) => void;
}) {
  const rules = createTargetRules({ adapters: deps.adapters, clock: deps.clock, ruleSettings: deps.ruleSettings });
  const publishInline = createPublishInline({ db: deps.db, publisher: deps.publisher });
  return {
    ...createPostCreation({ ...deps, rules, publishInline }),
    update: createPostUpdate({ ...deps, rules, publishInline }),
    ...createPostReads({ db: deps.db }),
    ...createPostLifecycle({ db: deps.db, publisher: deps.publisher, clock: deps.clock }),
    ...createPostReview({ queue: deps.queue, rules, clock: deps.clock }),
    /** The recycling job's pass (decision 0061): creates the recycled copies that are due; each worker runs it on a timer. */
    recycleDue: createRecycler({ db: deps.db, clock: deps.clock, publisher: deps.publisher, runAt: rules.runAt }).runDue,
    /** Tells whoever listens (the approvers' mail) that these posts were submitted for approval, once committed (bulk upload). */
    notifySubmitted: (tenantId: string, postIds: string[]) => deps.onSubmitted?.(tenantId, postIds),
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
