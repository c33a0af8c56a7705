/**
 * The service container: every service built once from the process's dependencies.
 * Routes and jobs receive it; nothing here listens on a port or handles signals.
 */
import type { Config, OAuthPlatform } from './config.ts';
import type { Db } from './storage/db.ts';
import { SecretBox } from './core/crypto.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createUsersService } from './modules/users/service.ts';
import { createApiKeysService } from './modules/api-keys/service.ts';
import { createProfilesService } from './modules/profiles/service.ts';
import { createAccountsService } from './modules/accounts/service.ts';
import { createAccountRowCache, createAccountsRepository } from './modules/accounts/repository.ts';
import { createCloneConnectionService } from './modules/accounts/clone.ts';
import { createResourceContexts } from './modules/accounts/resource-context.ts';
import { createAccountResourcesService } from './modules/account-resources/service.ts';
import { createAccountGroupsRepository } from './modules/account-groups/repository.ts';
import { createAccountGroupsService } from './modules/account-groups/service.ts';
import { createSelectionStore } from './modules/connect/selection.ts';
import { createChooseService } from './modules/connect/choose-service.ts';
import { createUsageService } from './modules/usage/service.ts';
import { createPostsService } from './modules/posts/service.ts';
import { createMediaService } from './modules/media/service.ts';
import { createPresignedUploads } from './modules/media/presign.ts';
import { createIdempotencyService } from './modules/posts/idempotency.ts';
import { createSessionsService } from './modules/sessions/service.ts';
import { createInvitesService } from './modules/invites/service.ts';
import { createBillingService } from './modules/billing/service.ts';
import { createQueueService } from './modules/queue/service.ts';
import { createAnalyticsService } from './modules/analytics/service.ts';
import { createLogsService } from './modules/logs/service.ts';
import { createPublishingLog } from './publishing/log-entries.ts';
import { createPasswordResetService } from './modules/password-reset/service.ts';
import { createMailer } from './infra/mailer.ts';
import { createPostUnpublish } from './modules/posts/unpublish.ts';
import { createPostEdits } from './modules/posts/edit.ts';
import { createVideoMetadata } from './modules/posts/video-metadata.ts';
import { createAccountHealthService } from './modules/account-health/service.ts';
import { createToolsService } from './modules/tools/service.ts';
import { createBulkService } from './modules/bulk/service.ts';
import { createOAuthConnectService } from './modules/connect/oauth-service.ts';
import { createPlatformInvitesRepository } from './modules/platform-invites/repository.ts';
import { createPlatformInvitesService } from './modules/platform-invites/service.ts';
import { createPublisher, type PublisherDeps } from './publishing/publisher.ts';
import { createAdapterRegistry, type AdapterRegistry } from './platforms/registry.ts';
import { createMediaStorage, mediaUrlPrefixes, type MediaStorage } from './storage/media-storage.ts';
import { createDiskSpaceMonitor } from './storage/disk-space.ts';
import type { Sandbox } from './sandbox/index.ts';
import path from 'node:path';
import { createRemoteImageProber } from './infra/remote-media.ts';
import { createVideoClipsService } from './modules/video-clips/service.ts';
import { createWebhooksService } from './modules/webhooks/service.ts';
import { createDelegatedAuth } from './modules/mcp/delegated-auth.ts';
import { createOAuthServerService } from './modules/oauth-server/service.ts';
import { createDocsAiService } from './modules/docs-ai/service.ts';
import { createApprovalsService } from './modules/approvals/service.ts';
import { createFeedsService } from './modules/feeds/service.ts';
import { createFeedsRepository } from './modules/feeds/repository.ts';

export interface ServiceDeps {
  config: Config;
  db: Db;
  /** AES-256-GCM key (hex) for platform credentials. */
  secretKeyHex: string;
  /** Clock, replaceable in tests. */
  clock?: () => Date;
  adapters?: AdapterRegistry;
  mediaStorage?: MediaStorage;
  /** Identifies this process in job locks and attempt rows. */
  processId?: string;
  /** Sandbox mode's running simulators: the configuration and registry then point at them. */
  sandbox?: Sandbox | null;
  /** Process log (pino) for the publisher's warnings: refused finishes, duplicates, database retries. */
  log?: PublisherDeps['log'];
}

export function createServices(deps: ServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  const { db } = deps;
  const sandbox = deps.sandbox ?? null;
  const config = sandbox ? sandbox.configure(deps.config) : deps.config;
  const secrets = new SecretBox(deps.secretKeyHex);
  const publicUrl = config.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  // The disk uploads are written to: staged bytes always, media files too on local storage (GET /health, decision 0044).
  const diskSpace = createDiskSpaceMonitor({
    dirs: [path.join(config.dataDir, 'uploads'), ...(config.storage.kind === 'local' ? [path.join(config.dataDir, 'media')] : [])],
    minFreeBytes: config.mediaMinFreeBytes,
  });
  const mediaStorage = deps.mediaStorage ?? createMediaStorage(config, publicUrl, diskSpace);
  // Sandbox: the simulators that download media by URL may fetch Herald's own media (on loopback), nothing else private.
  sandbox?.trustHeraldMedia({ urlPrefixes: mediaUrlPrefixes(config, publicUrl), allowPrivate: config.allowPrivateUrls });
  const adapters = deps.adapters ?? (sandbox ? sandbox.adapterRegistry(config) : createAdapterRegistry(config));
  const processId = deps.processId ?? `api-${process.pid}`;

  const auth = createAuthService(db, clock);
  const users = createUsersService(db);
  const apiKeys = createApiKeysService(db, clock, { onRevoke: (keyId) => auth.forgetKey(keyId) });
  const usage = createUsageService(db, clock);
  const profiles = createProfilesService(db, usage);
  const accountsRepository = createAccountsRepository(db, secrets);
  const accounts = createAccountsService({ db, accounts: accountsRepository, adapters, users });
  // Each platform's account resources (Pages, organizations, boards, subreddits...), run without naming a platform (decision 0053).
  const resourceContexts = createResourceContexts({ accounts: accountsRepository, adapters });
  const accountResources = createAccountResourcesService({ adapters, contexts: resourceContexts });
  const accountGroups = createAccountGroupsService({ groups: createAccountGroupsRepository(db), accounts: accountsRepository });
  const cloneConnection = createCloneConnectionService({ db, accounts: accountsRepository, adapters, contexts: resourceContexts });
  const selections = createSelectionStore({ db, secrets, clock });
  // The choice after OAuth (a Facebook Page, a LinkedIn author) for any platform's choose step (decision 0051).
  const choose = createChooseService({ selections, accounts, repository: accountsRepository, adapters, profiles });
  const media = createMediaService({
    db, storage: mediaStorage, clock, stagingDir: path.join(config.dataDir, 'uploads'), publicUrl,
    uploadTokenTtlSeconds: config.uploadTokenTtlSeconds, ffprobePath: config.ffprobePath, diskSpace,
    allowPrivateUrls: config.allowPrivateUrls,
  });
  // Presigned uploads and temporary files (decision 0066), through the media service's one way in.
  const presign = createPresignedUploads({ db, storage: mediaStorage, clock, stagingDir: path.join(config.dataDir, 'uploads'), publicUrl, media });
  const publisher = createPublisher({ db, accounts: accountsRepository, adapters, mediaStorage, config, clock, workerId: processId, log: deps.log });
  const queue = createQueueService(db, clock, adapters);
  const posts = createPostsService({
    db, usage, adapters, publisher, clock, queue,
    // Settings read from the platform a post is checked with when it is created or edited (a subreddit's own rules).
    ruleSettings: { platforms: accountResources.ruleSettingsPlatforms(), read: (t) => accountResources.ruleSettings(t.account, t.platformSpecificData) },
    // An image named by URL is probed (first 256 KB, remembered per URL) so pixel and format rules are checked when the post is created.
    probeRemoteImage: createRemoteImageProber({ allowPrivate: config.allowPrivateUrls }),
    // Creates read their accounts from here and check in their insert that none changed (one statement per create).
    accountRows: createAccountRowCache(),
    // Posts submitted for approval: their approvers are mailed (decision 0059).
    onSubmitted: (tenantId, postIds) => approvals.notifySubmitted(tenantId, postIds),
  });
  const idempotency = createIdempotencyService(db, clock);
  const bulk = createBulkService({ db, posts, usage, publisher, clock });
  const platformInvites = createPlatformInvitesService({
    repository: createPlatformInvitesRepository(db, secrets), clock, publicUrl, users, profiles,
    // An OAuth platform needs its app configured; the other connect shapes (instance-oauth registers its app per instance) need nothing here.
    connectable: (platform) => { if (adapters.connectShape(platform).kind === 'oauth') adapters.oauth(platform as OAuthPlatform); },
  });
  const oauthConnect = createOAuthConnectService({
    db, config, adapters, accounts, selections, secrets, publicUrl, clock, inviteUse: (inviteId) => platformInvites.useWithin(inviteId),
  });
  const sessions = createSessionsService(db, clock);
  // Password reset by email: on only with an SMTP server (HERALD_SMTP_*).
  const mailer = config.smtp ? createMailer(config.smtp) : null;
  const passwordReset = createPasswordResetService({ db, sessions, users, mailer, publicUrl, clock, log: deps.log });
  // Approvals (decision 0059): review rules, decisions, comments, client review links, their mail.
  const approvals = createApprovalsService({ db, posts, publisher, clock, publicUrl, mailer, log: deps.log });
  const invites = createInvitesService({ db, clock, users, publicUrl });
  const billing = createBillingService({ db, config: config.stripe, users, publicUrl, clock });
  const analytics = createAnalyticsService({
    db, clock, adapters, secrets, accounts: accountsRepository, addons: (tenantId) => users.addons(tenantId),
    tenantsWithAddon: () => users.tenantsWithAddon('analytics'),
  });
  const videoClips = createVideoClipsService({
    db, storage: mediaStorage, clock, config: config.clips, workRoot: path.join(config.dataDir, 'clips-work'),
    allowPrivateUrls: config.allowPrivateUrls, addons: (tenantId) => users.addons(tenantId),
  });

  const logs = createLogsService({ db, clock });
  // The publishing log's entries outside a publish run (unpublish here, token refresh in the worker) and its retention.
  const publishingLog = createPublishingLog(db);
  const unpublish = createPostUnpublish({ db, adapters, accounts: accountsRepository, clock, log: (e) => publishingLog.write(e) });
  // Editing published posts and YouTube metadata (decision 0060), logged like unpublish.
  const editDeps = { db, adapters, accounts: accountsRepository, clock, log: (e: Parameters<typeof publishingLog.write>[0]) => publishingLog.write(e) };
  const postEdits = createPostEdits(editDeps);
  const videoMetadata = createVideoMetadata(editDeps);
  const accountHealth = createAccountHealthService({ accounts: accountsRepository, adapters, logs, clock });
  const tools = createToolsService({ db, posts, queue, media: { allowPrivateUrls: config.allowPrivateUrls, ffprobePath: config.ffprobePath, readOwn: (url, maxBytes) => mediaStorage.readByUrl(url, maxBytes) } });
  const webhooks = createWebhooksService({ db, secrets, config: config.webhooks, workerId: processId, staleMs: config.workerStaleMs });

  // MCP tool calls reach their /v1 routes in-process as the /mcp caller (docs/decisions/0047-mcp-server.md).
  const delegatedAuth = createDelegatedAuth();
  // Herald as the OAuth authorization server of /mcp (docs/decisions/0049-oauth-for-mcp.md).
  const oauthServer = createOAuthServerService({ db, clock, resource: `${publicUrl.replace(/\/+$/, '')}/mcp`, issuer: publicUrl.replace(/\/+$/, '') });

  // RSS to queue (decision 0065): followed feeds, checked by the worker's poller (src/modules/feeds/poller.ts).
  const feeds = createFeedsService({
    db, repository: createFeedsRepository(db), posts, publisher, clock, allowPrivateUrls: config.allowPrivateUrls, workerId: processId,
  });

  // Answers on the docs page from the configured OpenAI-compatible endpoint (the app gives it its OpenAPI document).
  const docsAi = createDocsAiService({ config });

  return {
    delegatedAuth, oauthServer, docsAi, approvals, feeds,
    logs, publishingLog, tools, accountHealth, unpublish, postEdits, videoMetadata, webhooks, passwordReset,
    platformInvites, selections, cloneConnection,
    config, db, clock, secrets, adapters, mediaStorage, diskSpace, publicUrl, sandbox,
    auth, users, apiKeys, usage, profiles, accounts, accountsRepository, accountResources, accountGroups, choose, media, presign, publisher, posts, idempotency, sessions, queue, bulk, oauthConnect, analytics, videoClips, invites, billing,
  };
}

export type Services = ReturnType<typeof createServices>;
