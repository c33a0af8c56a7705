/**
 * Clone connection: `POST /v1/profiles/{profileId}/clone-connection` puts an account the caller
 * already connected under another profile without a new OAuth round
 * (docs/decisions/0037-platform-invites-and-shared-credentials.md).
 *
 * The clone shares the source's stored credential (./repository.ts `insertClone`): a token refresh,
 * a reconnect or a revocation is seen by every clone, and disconnecting one leaves the others
 * working. Optionally the clone publishes elsewhere with the same authorization, checked with
 * the platform first:
 * - Facebook `targetPageId`: a Page the stored user token administers (tasks include MANAGE,
 *   https://developers.facebook.com/docs/pages-api/overview); the clone keeps that
 *   Page's own token (so it holds its own credential).
 * - LinkedIn `targetOrganizationId`/`targetOrganizationUrn` (or `targetAccountType: 'personal'`):
 *   an organization the member is an approved ADMINISTRATOR of
 *   (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role).
 *
 * Errors: 404 for a profile or account the caller cannot see; 400 naming the field for target
 * fields of another platform or an unusable source; 403 for a Page or organization the
 * authorization cannot manage; 409 when the profile already has this platform account.
 */
import { AppError, fieldError } from '../../core/errors.ts';
import { listFacebookPages } from '../../platforms/facebook/pages.ts';
import { linkedinAdminOrganizations, ORGANIZATION_URN } from '../../platforms/linkedin/organizations.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { Db } from '../../storage/db.ts';
import type { AuthContext } from '../auth/context.ts';
import { getAccessibleProfile } from '../profiles/service.ts';
import { apiErrorFrom, needsReconnect, type AuthorizationWording } from './platform-errors.ts';
import type { PlatformSessions } from './platform-session.ts';
import type { AccountRow, AccountsRepository } from './repository.ts';

/** The body of POST /v1/profiles/{profileId}/clone-connection. */
export interface CloneConnectionInput {
  sourceAccountId: string;
  targetPageId?: string;
  targetPageName?: string;
  targetPageAccessToken?: string;
  targetOrganizationId?: string;
  targetOrganizationUrn?: string;
  targetOrganizationName?: string;
  targetAccountType?: 'personal' | 'organization';
}

const FACEBOOK: AuthorizationWording = { platform: 'facebook', refused: (msg) => `Facebook refused the stored authorization (${msg}); reconnect the source account` };
const LINKEDIN: AuthorizationWording = { platform: 'linkedin', refused: (msg) => `LinkedIn refused the stored authorization (${msg}); reconnect the source account` };

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

export function createCloneConnectionService(deps: { db: Db; accounts: AccountsRepository; adapters: AdapterRegistry; sessions: PlatformSessions }) {
  const { accounts: repo } = deps;

  /** The Facebook clone's Page, its name and its own token, checked with Facebook. */
  async function facebookTarget(source: AccountRow, pageId: string) {
    const creds = repo.credentialsOf(source);
    if (typeof creds.userAccessToken !== 'string') throw fieldError('targetPageId', 'the source Facebook account holds no user authorization to read its pages; reconnect it first');
    const { app } = deps.adapters.oauth('facebook');
    let pages;
    try {
      pages = await listFacebookPages(app, creds.userAccessToken);
    } catch (err) {
      if (needsReconnect(err, FACEBOOK)) await repo.markNeedsReconnect(source.id, `${(err as Error).message}; reconnect the account`);
      throw apiErrorFrom(err, 'Facebook', FACEBOOK);
    }
    const page = pages.find((p) => p.id === pageId); // administered pages only (tasks include MANAGE)
    if (!page || !page.access_token) {
      throw new AppError('FORBIDDEN', `The Facebook user of this account does not manage the page ${pageId} (its tasks must include MANAGE: admin rights)`, { platform: 'facebook', field: 'targetPageId' });
    }
    return page as typeof page & { access_token: string };
  }

  /** The LinkedIn organization the clone publishes as, checked with LinkedIn. */
  async function linkedinTarget(source: AccountRow, b: CloneConnectionInput) {
    let id = b.targetOrganizationId?.trim();
    if (b.targetOrganizationUrn) {
      const m = ORGANIZATION_URN.exec(b.targetOrganizationUrn.trim());
      if (!m) throw fieldError('targetOrganizationUrn', 'must be urn:li:organization:<numeric id>');
      if (id && id !== m[1]) throw fieldError('targetOrganizationId', `does not match targetOrganizationUrn (${m[1]})`);
      id = m[1];
    }
    if (!id) throw fieldError('targetOrganizationId', 'is required for targetAccountType organization (or give targetOrganizationUrn)');
    if (!/^\d+$/.test(id)) throw fieldError('targetOrganizationId', 'must be the numeric company id');
    const orgs = await deps.sessions.sessionFor(source, 'linkedin', 'LinkedIn', LINKEDIN).call((token, app) => linkedinAdminOrganizations(app, token));
    const org = orgs.find((o) => o.id === id);
    if (!org) throw new AppError('FORBIDDEN', `The LinkedIn member of this account is not an approved administrator of urn:li:organization:${id}`, { platform: 'linkedin', field: 'targetOrganizationId' });
    return org;
  }

  return {
    /**
     * Clones `sourceAccountId` into `profileId`. Answers `{ message, connection: { _id, platform,
     * username, displayName, isActive, profileId } }`.
     */
    async clone(auth: AuthContext, profileId: string, b: CloneConnectionInput) {
      const profile = await getAccessibleProfile(deps.db, auth, profileId);
      const source = await repo.accessible(auth, b.sourceAccountId);
      const pageFields = b.targetPageId ?? b.targetPageName ?? b.targetPageAccessToken;
      const orgFields = b.targetOrganizationId ?? b.targetOrganizationUrn ?? b.targetOrganizationName ?? b.targetAccountType;
      if (pageFields !== undefined && source.platform !== 'facebook') throw fieldError('targetPageId', `applies to Facebook accounts; the source is a ${source.platform} account`);
      if (orgFields !== undefined && source.platform !== 'linkedin') throw fieldError('targetOrganizationId', `applies to LinkedIn accounts; the source is a ${source.platform} account`);
      if (pageFields !== undefined && !b.targetPageId) throw fieldError('targetPageId', 'is required with targetPageName or targetPageAccessToken');

      const base = {
        platformUserId: source.platform_user_id, username: source.username, displayName: source.display_name, profilePicture: source.profile_picture,
        settings: { ...source.settings } as Record<string, unknown>,
      };
      let clone: Parameters<typeof repo.insertClone>[2] = base;
      if (source.platform === 'facebook' && b.targetPageId && b.targetPageId !== source.platform_user_id) {
        const page = await facebookTarget(source, b.targetPageId);
        const creds = repo.credentialsOf(source);
        clone = {
          platformUserId: page.id, username: page.name, displayName: page.name, profilePicture: page.picture?.data?.url ?? null,
          settings: { ...base.settings, selectedPageId: page.id, selectedPageName: page.name },
          own: { ...creds, accessToken: page.access_token },
        };
      } else if (source.platform === 'linkedin' && b.targetAccountType === 'personal') {
        const { selectedOrganization: _org, ...rest } = base.settings;
        clone = { ...base, settings: { ...rest, accountType: 'personal' } };
      } else if (source.platform === 'linkedin' && orgFields !== undefined) {
        const org = await linkedinTarget(source, b);
        clone = { ...base, settings: { ...base.settings, accountType: 'organization', selectedOrganization: org } };
      }

      let row: AccountRow;
      try {
        row = await repo.insertClone(source, profile.id, clone);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', `This ${source.platform} account is already connected to the profile ${profile.name}`, { platform: source.platform });
        throw err;
      }
      return {
        message: 'Connection cloned successfully',
        connection: { _id: row.id, platform: row.platform, username: row.username, displayName: row.display_name ?? row.username, isActive: row.is_active, profileId: row.profile_id },
      };
    },
  };
}

export type CloneConnectionService = ReturnType<typeof createCloneConnectionService>;
