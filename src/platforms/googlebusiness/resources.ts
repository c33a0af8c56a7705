/**
 * Google Business Profile's account resources (docs/decisions/0053-account-resources-contract.md),
 * at Late's paths (@getlatedev/node `getGmbLocations`, `updateGmbLocation`):
 * - `GET /v1/accounts/{accountId}/gmb-locations`: the locations the account's Google user manages
 *   (every Business Profile account's, read from Google), the account's own location, `search`
 *   (on the title, case-insensitive, applied by Herald after reading) and `limit` (default 100, at
 *   most 500; `hasMore` when more matched);
 * - `PUT /v1/accounts/{accountId}/gmb-locations {selectedLocationId, googleAccountId?}`: the account
 *   publishes to another location the user manages (its identity moves; a location already connected
 *   to the profile as another account is a 409).
 * Late's `POST /v1/accounts/{accountId}/gmb-locations/assign` (a new account on another profile) is
 * not served: Herald's clone connection (`POST /v1/profiles/{id}/clone-connection`) copies an account.
 */
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import type { AccountResources, ResourceContext } from '../account-resources.ts';
import { GoogleLocationSchema } from './connect.ts';
import { listOwnedLocations, locationDigits, locationSettings, locationView } from './locations.ts';

const owned = (ctx: ResourceContext, account?: string) => ctx.call((token, app) => listOwnedLocations(app, token, account));

export const googlebusinessResources: AccountResources = {
  operations: [
    {
      method: 'GET', path: '/accounts/:accountId/gmb-locations', permission: 'accounts:read', tag: 'Accounts',
      summary: 'List the Google Business Profile locations an account can publish to, and its current one',
      description: 'Read from Google with the account\'s authorization (Account Management accounts.list, Business Information accounts.locations.list). `search` filters on the business name; `limit` (default 100, at most 500) caps the answer, `hasMore` saying more matched.',
      querystring: Type.Object({
        search: Type.Optional(Type.String({ maxLength: 200 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
      }),
      response: Type.Object({
        locations: Type.Array(GoogleLocationSchema), hasMore: Type.Boolean(), selectedLocationId: Type.String(), cached: Type.Boolean(),
      }),
      errors: [429, 502], inactiveAllowed: false, authorization: true,
      async run(ctx, { query }) {
        const search = typeof query.search === 'string' ? query.search.trim().toLowerCase() : '';
        const limit = typeof query.limit === 'number' ? query.limit : 100;
        const all = (await owned(ctx)).map(locationView).filter((l) => !search || l.name.toLowerCase().includes(search));
        return { locations: all.slice(0, limit), hasMore: all.length > limit, selectedLocationId: ctx.account.platformUserId, cached: false };
      },
    },
    {
      method: 'PUT', path: '/accounts/:accountId/gmb-locations', permission: 'accounts:write', tag: 'Accounts',
      summary: 'Switch the Google Business Profile location an account publishes to',
      description: 'The location must be one the connected Google user manages (403 otherwise); one already connected to the profile as another account is a 409.',
      body: Type.Object({
        selectedLocationId: Type.String({ minLength: 1, maxLength: 60, pattern: '^(locations/)?[0-9]+$' }),
        googleAccountId: Type.Optional(Type.String({ maxLength: 60, pattern: '^accounts/[0-9]+$', description: 'The Business Profile account that holds the location (accounts/<id>), from the listing' })),
      }),
      response: Type.Object({ message: Type.String(), selectedLocation: Type.Object({ id: Type.String(), name: Type.String() }) }),
      answersAccount: true, errors: [403, 409, 429, 502], authorization: true,
      async run(ctx, { body }) {
        const id = locationDigits(body.selectedLocationId as string);
        const found = (await owned(ctx, body.googleAccountId as string | undefined)).find((o) => o.location.name === `locations/${id}`);
        if (!found) throw new AppError('FORBIDDEN', `The Google user of this account does not manage the location ${id}; pick one of GET /v1/accounts/{accountId}/gmb-locations`, { platform: 'googlebusiness' });
        const title = found.location.title ?? found.location.name;
        if (id !== ctx.account.platformUserId) {
          if (await ctx.isTaken(id)) throw new AppError('CONFLICT', `The location ${title} is already connected to this profile as another account`, { platform: 'googlebusiness' });
          await ctx.update({ settings: locationSettings(found), moveTo: { platformUserId: id, name: title, profilePicture: null, credentials: ctx.account.credentials } });
        }
        return { message: `The Google Business Profile account now publishes to ${title}`, selectedLocation: { id, name: title } };
      },
    },
  ],
};
