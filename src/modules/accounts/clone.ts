/**
 * Clone connection: `POST /v1/profiles/{profileId}/clone-connection` puts an account the caller
 * already connected under another profile without a new OAuth round
 * (docs/decisions/0037-platform-invites-and-shared-credentials.md).
 *
 * The clone shares the source's stored credential (./repository.ts `insertClone`): a token refresh,
 * a reconnect or a revocation is seen by every clone, and disconnecting one leaves the others
 * working. A platform may let the clone publish as something else with the same authorization
 * (its {@link CloneStep}, docs/decisions/0053-account-resources-contract.md: a Facebook
 * `targetPageId`, a LinkedIn `targetOrganizationId`), checked with the platform first; a clone
 * that keeps credentials of its own (another Page's token) holds them itself.
 *
 * Target fields of another platform's step are ignored, with a warning in the answer.
 *
 * Errors: 404 for a profile or account the caller cannot see; 400 naming the field for an unusable
 * source; 403 for a target the authorization cannot
 * manage; 409 when the profile already has this platform account.
 */
import { AppError } from '../../core/errors.ts';
import type { CloneStep } from '../../platforms/account-resources.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import { PLATFORM_LABELS, PLATFORMS, type PlatformId } from '../../shared/platforms.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { getAccessibleProfile } from '../profiles/service.ts';
import type { ResourceContexts } from './resource-context.ts';
import type { AccountRow, AccountsRepository } from './repository.ts';

/** The body of POST /v1/profiles/{profileId}/clone-connection: `sourceAccountId` and the platforms' target fields. */
export interface CloneConnectionInput {
  sourceAccountId: string;
  [targetField: string]: unknown;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

export function createCloneConnectionService(deps: { db: Db; accounts: AccountsRepository; adapters: AdapterRegistry; contexts: ResourceContexts }) {
  const { accounts: repo } = deps;
  const stepOf = (platform: PlatformId): CloneStep | undefined => deps.adapters.resources(platform).clone;

  /**
   * The target fields of other platforms' clone steps that the body sends, each with a warning:
   * they are ignored (Late's documented example sends the Page and the organization fields for any
   * source), and the answer says so.
   */
  function foreignFieldWarnings(source: AccountRow, b: CloneConnectionInput): string[] {
    const out: string[] = [];
    for (const platform of PLATFORMS) {
      if (platform === source.platform) continue;
      const sent = Object.keys(stepOf(platform)?.fields ?? {}).filter((f) => b[f] !== undefined);
      if (sent.length) out.push(`${sent.join(', ')} ${sent.length > 1 ? 'apply' : 'applies'} to ${PLATFORM_LABELS[platform]} accounts and ${sent.length > 1 ? 'were' : 'was'} ignored: the source is a ${PLATFORM_LABELS[source.platform as PlatformId]} account`);
    }
    return out;
  }

  return {
    /**
     * Clones `sourceAccountId` into `profileId`. Answers (200) `{ message, warnings?, connection: { _id,
     * platform, username, displayName, isActive, profileId } }`, `warnings` naming the ignored target
     * fields of other platforms, and those the source platform's step ignored.
     */
    async clone(auth: AuthContext, profileId: string, b: CloneConnectionInput) {
      const profile = await getAccessibleProfile(deps.db, auth, profileId);
      const source = await repo.accessible(auth, b.sourceAccountId);
      const warnings = foreignFieldWarnings(source, b);
      const step = stepOf(source.platform as PlatformId);
      const target = step ? await step.target(deps.contexts.contextFor(source, { authorization: true }).ctx, b) : null;
      warnings.push(...(target?.warnings ?? []));

      let settings: Record<string, unknown> = { ...source.settings };
      for (const key of target?.dropSettings ?? []) delete settings[key];
      settings = { ...settings, ...(target?.settings ?? {}) };
      const id = target?.identity;
      let row: AccountRow;
      try {
        row = await repo.insertClone(source, profile.id, {
          platformUserId: id?.platformUserId ?? source.platform_user_id,
          username: id?.name ?? source.username,
          displayName: id ? id.name : source.display_name,
          profilePicture: id ? id.profilePicture : source.profile_picture,
          settings,
          ...(target?.credentials ? { own: target.credentials } : {}),
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', `This ${source.platform} account is already connected to the profile ${profile.name}`, { platform: source.platform });
        throw err;
      }
      return {
        message: 'Connection cloned successfully',
        ...(warnings.length ? { warnings } : {}),
        connection: { _id: row.id, platform: row.platform, username: row.username, displayName: row.display_name ?? row.username, isActive: row.is_active, profileId: row.profile_id },
      };
    },
  };
}

export type CloneConnectionService = ReturnType<typeof createCloneConnectionService>;
