/**
 * Facebook Page routes: choosing the Page at connect time (the Late-compatible
 * GET/POST /v1/connect/facebook/select-page, translated into a value of Facebook's choose step and
 * run by the generic choose service, docs/decisions/0051-platform-connect-contract.md), and
 * switching a connected account's Page (./service.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { Id, errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountSchema } from '../accounts/schemas.ts';
import { FacebookPageSchema } from '../connect/routes.ts';

export const facebookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { facebook, choose } = services;

  app.get('/connect/facebook/select-page', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'List the Facebook pages the user administers (after OAuth)',
      description: 'Only pages the user administers (tasks include MANAGE); a page where the user only has CREATE_CONTENT is not offered. tempToken comes from the OAuth callback (1 hour, single use).',
      querystring: Type.Object({ profileId: Id(), tempToken: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: { 200: Type.Object({ pages: Type.Array(FacebookPageSchema) }), ...errors(403, 502) },
    },
  }, async (req) => choose.listed(req.auth, 'facebook', req.query.profileId, req.query.tempToken) as Promise<{ pages: Array<Static<typeof FacebookPageSchema>> }>);

  app.post('/connect/facebook/select-page', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'Connect the chosen Facebook page',
      description: 'Stores the page (its page token, sealed) as the account; the user must administer it, its tasks including MANAGE (403 saying so otherwise). Uses up the tempToken.',
      body: Type.Object({
        profileId: Id(), pageId: Type.String({ minLength: 1, maxLength: 40 }), tempToken: Type.String({ minLength: 1, maxLength: 200 }),
        userProfile: Type.Optional(Type.Object({
          id: Type.Optional(Type.String({ maxLength: 100 })), name: Type.Optional(Type.String({ maxLength: 300 })), profilePicture: Type.Optional(Type.String({ maxLength: 2000 })),
        }, { additionalProperties: true })),
        redirect_url: Type.Optional(Type.String({ maxLength: 2000 })),
      }),
      response: {
        200: Type.Object({ message: Type.String(), redirect_url: Type.Optional(Type.String()), account: Type.Intersect([AccountSchema, Type.Object({ accountId: Type.String() })]) }),
        ...errors(403, 502),
      },
    },
  }, async (req) => choose.choose(req.auth, 'facebook', {
    profileId: req.body.profileId, tempToken: req.body.tempToken, value: req.body.pageId, redirectUrl: req.body.redirect_url, extra: { userProfile: req.body.userProfile },
  }));

  app.get('/accounts/:accountId/facebook-page', {
    config: { permission: 'accounts:read' },
    schema: {
      tags: ['Accounts'], summary: 'List the Facebook pages an account can switch to, and its current page',
      description: 'Read from Facebook with the stored user authorization: pages whose tasks include MANAGE. No tokens are returned.',
      params: Type.Object({ accountId: Id() }),
      response: {
        200: Type.Object({
          selectedPageId: Type.String(),
          pages: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), category: Type.String(), picture: Type.Union([Type.String(), Type.Null()]) })),
        }),
        ...errors(502),
      },
    },
  }, async (req) => facebook.pagesForAccount(req.auth, req.params.accountId));

  app.put('/accounts/:accountId/facebook-page', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Accounts'], summary: 'Switch the Facebook page an account publishes to',
      description: 'The page must be one the connected user administers, its tasks including MANAGE (403 saying so otherwise).',
      params: Type.Object({ accountId: Id() }),
      body: Type.Object({ selectedPageId: Type.String({ minLength: 1, maxLength: 40 }) }),
      response: {
        200: Type.Object({ message: Type.String(), selectedPage: Type.Object({ id: Type.String(), name: Type.String() }), account: AccountSchema }),
        ...errors(403, 409, 502),
      },
    },
  }, async (req) => facebook.switchPage(req.auth, req.params.accountId, req.body.selectedPageId));
};
