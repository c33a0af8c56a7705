/**
 * Runs the platforms' account resources (docs/decisions/0053-account-resources-contract.md)
 * without naming a platform: every operation a platform declares, on the caller's account, and the
 * rule settings a post's check reads from the platform (a subreddit's own rules).
 */
import type { AccountResources, ResourceInput, ResourceOperation } from '../../platforms/account-resources.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { PLATFORMS, type PlatformId } from '../../shared/platforms.ts';
import type { AuthContext } from '../auth/context.ts';
import type { AccountRow } from '../accounts/repository.ts';
import type { ResourceContexts } from '../accounts/resource-context.ts';
import { toAccountView } from '../accounts/service.ts';

/** An operation with the platform that declares it. */
export interface PlatformOperation {
  platform: PlatformId;
  operation: ResourceOperation;
}

export function createAccountResourcesService(deps: { adapters: AdapterRegistry; contexts: ResourceContexts }) {
  const resourcesOf = (platform: PlatformId): AccountResources => deps.adapters.resources(platform);

  return {
    /** Every platform's operations, in platform order. */
    operations(): PlatformOperation[] {
      return PLATFORMS.flatMap((platform) => (resourcesOf(platform).operations ?? []).map((operation) => ({ platform, operation })));
    },

    /**
     * Runs `operation` of `platform` on the caller's account `accountId` (absent, for an operation
     * whose account is optional: the caller's oldest connected account of the platform) with the validated input.
     * Answers the operation's fields, followed by `account` (the account view after the change)
     * when the operation answers it.
     * @throws what {@link ResourceOperation.check} throws (before the account is loaded); 404 for an
     *   account the caller cannot see; 400 naming accountId for another platform's or (unless
     *   allowed) a disconnected account; what the operation throws.
     */
    async run(auth: AuthContext, platform: PlatformId, operation: ResourceOperation, accountId: string | undefined, input: ResourceInput): Promise<Record<string, unknown>> {
      operation.check?.(input);
      const opened = await deps.contexts.open(auth, accountId, platform, { inactiveAllowed: operation.inactiveAllowed, authorization: operation.authorization });
      const out = await operation.run(opened.ctx, input);
      return operation.answersAccount ? { ...out, account: toAccountView(opened.row()) } : out;
    },

    /** The platforms whose posts are checked with settings read from the platform. */
    ruleSettingsPlatforms(): PlatformId[] {
      return PLATFORMS.filter((p) => resourcesOf(p).ruleSettings !== undefined);
    },

    /**
     * The settings a post to `row` with `platformSpecificData` is checked with, read from the
     * platform (undefined when there are none or they cannot be read in time). Never throws.
     */
    async ruleSettings(row: AccountRow, platformSpecificData: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
      const source = resourcesOf(row.platform as PlatformId).ruleSettings;
      if (!source) return undefined;
      try {
        return await source.read(deps.contexts.contextFor(row).ctx, platformSpecificData);
      } catch {
        return undefined;
      }
    },
  };
}

export type AccountResourcesService = ReturnType<typeof createAccountResourcesService>;
