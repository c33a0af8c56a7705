/**
 * Facebook's account resources (docs/decisions/0053-account-resources-contract.md): the Page an
 * account publishes to, listed and switched with the user token kept beside the Page token
 * (`GET|PUT /v1/accounts/{accountId}/facebook-page`), and a clone of the connection that publishes
 * to another administered Page (`targetPageId`). Only Pages the user administers (tasks include
 * MANAGE, https://developers.facebook.com/docs/pages-api/overview) are offered or used.
 */
import { Type } from 'typebox';
import { AppError, fieldError } from '../../core/errors.ts';
import type { AccountResources, ResourceContext } from '../account-resources.ts';
import { administeredPage, isFacebookPageAdmin, listFacebookPageRoles, type FacebookPage } from './pages.ts';

/** Every Page the account's Facebook user has a role on (read with the stored user token). @throws AppError 400 when none is stored. */
async function pagesOf(ctx: ResourceContext, why: string, field?: string): Promise<FacebookPage[]> {
  const userToken = ctx.account.credentials.userAccessToken;
  if (typeof userToken !== 'string') {
    const message = `This Facebook account has no user authorization stored; connect Facebook again to ${why}`;
    throw field ? fieldError(field, message) : new AppError('BAD_REQUEST', message, { platform: 'facebook' });
  }
  return ctx.guard(() => listFacebookPageRoles(ctx.app, userToken));
}

const PageView = Type.Object({ id: Type.String(), name: Type.String(), category: Type.String(), picture: Type.Union([Type.String(), Type.Null()]) });

export const facebookResources: AccountResources = {
  operations: [
    {
      method: 'GET', path: '/accounts/:accountId/facebook-page', permission: 'accounts:read', tag: 'Accounts',
      summary: 'List the Facebook pages an account can switch to, and its current page',
      description: 'Read from Facebook with the stored user authorization: pages whose tasks include MANAGE. No tokens are returned.',
      response: Type.Object({ selectedPageId: Type.String(), pages: Type.Array(PageView) }),
      errors: [502], inactiveAllowed: true, authorization: true,
      async run(ctx) {
        const pages = await pagesOf(ctx, 'switch pages');
        return {
          selectedPageId: ctx.account.platformUserId,
          pages: pages.filter(isFacebookPageAdmin).map((p) => ({ id: p.id, name: p.name, category: p.category ?? '', picture: p.picture?.data?.url ?? null })),
        };
      },
    },
    {
      method: 'PUT', path: '/accounts/:accountId/facebook-page', permission: 'accounts:write', tag: 'Accounts',
      summary: 'Switch the Facebook page an account publishes to',
      description: 'The page must be one the connected user administers, its tasks including MANAGE (403 saying so otherwise).',
      body: Type.Object({ selectedPageId: Type.String({ minLength: 1, maxLength: 40 }) }),
      response: Type.Object({ message: Type.String(), selectedPage: Type.Object({ id: Type.String(), name: Type.String() }) }),
      answersAccount: true, errors: [403, 409, 502], inactiveAllowed: true, authorization: true,
      async run(ctx, { body }) {
        const page = administeredPage(await pagesOf(ctx, 'switch pages'), body.selectedPageId as string);
        if (!page.access_token) throw new AppError('PLATFORM_ERROR', 'Facebook did not return a token for this page', { platform: 'facebook' });
        if (await ctx.isTaken(page.id)) throw new AppError('CONFLICT', `The Facebook page ${page.name} is already connected to this profile as another account`, { platform: 'facebook' });
        // The picture is the new page's (none when Facebook gives none): never the previous page's.
        await ctx.update({
          settings: { selectedPageId: page.id, selectedPageName: page.name },
          moveTo: { platformUserId: page.id, name: page.name, profilePicture: page.picture?.data?.url ?? null, credentials: { ...ctx.account.credentials, accessToken: page.access_token } },
        });
        return { message: `The Facebook account now publishes to ${page.name}`, selectedPage: { id: page.id, name: page.name } };
      },
    },
  ],

  clone: {
    fields: {
      targetPageId: Type.Optional(Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9]+$', description: 'Facebook: the Page to publish to' })),
      targetPageName: Type.Optional(Type.String({ maxLength: 300, description: 'Facebook: informational; the name is read from Facebook' })),
      targetPageAccessToken: Type.Optional(Type.String({ maxLength: 2000, description: 'Facebook: ignored; the Page token is read from Facebook with the stored authorization' })),
    },
    description: 'Facebook: targetPageId points the clone at another Page the user manages (checked with Facebook).',
    /** Another administered Page (`targetPageId`); the clone keeps that Page's own token. */
    async target(ctx, b) {
      const pageId = b.targetPageId as string | undefined;
      if (!pageId) {
        if (b.targetPageName !== undefined || b.targetPageAccessToken !== undefined) throw fieldError('targetPageId', 'is required with targetPageName or targetPageAccessToken');
        return null;
      }
      if (pageId === ctx.account.platformUserId) return null;
      const pages = (await pagesOf(ctx, 'read its pages', 'targetPageId')).filter(isFacebookPageAdmin);
      const page = pages.find((p) => p.id === pageId);
      if (!page || !page.access_token) {
        throw new AppError('FORBIDDEN', `The Facebook user of this account does not manage the page ${pageId} (its tasks must include MANAGE: admin rights)`, { platform: 'facebook', field: 'targetPageId' });
      }
      return {
        identity: { platformUserId: page.id, name: page.name, profilePicture: page.picture?.data?.url ?? null },
        settings: { selectedPageId: page.id, selectedPageName: page.name },
        credentials: { ...ctx.account.credentials, accessToken: page.access_token },
      };
    },
  },
};
