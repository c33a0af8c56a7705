import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../http/schemas.ts';
import type { Services } from '../../services.ts';
import { AccountSchema } from '../accounts/routes.ts';
import { connectBlueskyWithCredentials } from './bluesky.ts';

export const connectRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.post('/connect/bluesky/credentials', {
    config: { permission: 'accounts:write' },
    schema: {
      tags: ['Connect'], summary: 'Connect a Bluesky account with an app password',
      description: 'Logs in to the account\'s PDS with the app password (never the main password) and stores the session encrypted. ' +
        '`state` is `{userId}-{profileId}` as returned by the connect flow, or just the profile id.',
      body: Type.Object({
        identifier: Type.String({ minLength: 1, maxLength: 253, description: 'Handle (alice.bsky.social), email or DID' }),
        appPassword: Type.String({ minLength: 1, maxLength: 100, description: 'App password, xxxx-xxxx-xxxx-xxxx' }),
        state: Type.String({ minLength: 1, maxLength: 200 }),
        redirectUri: Type.Optional(Type.String({ maxLength: 2000 })),
        redirect_url: Type.Optional(Type.String({ maxLength: 2000 })),
      }),
      response: {
        200: Type.Object({ message: Type.String(), account: AccountSchema, redirect_url: Type.Optional(Type.String()) }),
        ...errors(403),
      },
    },
  }, async (req) => connectBlueskyWithCredentials(services, req.auth, req.body));
};
