/**
 * How Google Business Profile connects: Google OAuth (./oauth.ts), then the user chooses the
 * location the account publishes to, among the locations of every Business Profile account they
 * manage (./locations.ts). One Herald account per location: platformUserId = the location's id
 * (digits), credentials = the Google tokens (refreshed like every OAuth platform's), settings
 * `googleAccountId` (`accounts/<id>`) and `locationId` (`locations/<id>`), which make the v4 parent
 * `accounts/<id>/locations/<id>` of its posts.
 *
 * Late-compatible wire: `POST /v1/connect/googlebusiness` answers `{ message, tempToken, locations }`;
 * `GET|POST /v1/connect/googlebusiness/select-location` list and choose (body `locationId`, bare or
 * `locations/<id>`, and optionally `accountId`, the `accounts/<id>` that holds it). Late's own
 * client lists at `GET /v1/connect/googlebusiness/locations` with a `pendingDataToken`: Herald's
 * generic select calls use `tempToken` at `.../select-location` for both.
 */
import { Type } from 'typebox';
import { AppError, fieldError } from '../../core/errors.ts';
import type { ChooseStep, ConnectShape } from '../connect-shape.ts';
import { findOwnedLocation, listOwnedLocations, locationDigits, locationSettings, locationView, type OwnedLocation } from './locations.ts';

/** What the location selection keeps sealed (connect_selections): the user's Google tokens and who connected. */
export interface GoogleBusinessSelectionPayload {
  tokens: { accessToken: string; refreshToken?: string | null; expiresAt?: string | null; scope?: string[] };
  user: { id: string; name?: string };
}

/** A location as the connect calls list it ({@link locationView}). */
export const GoogleLocationSchema = Type.Object({
  id: Type.String({ description: 'The location id (digits); `locations/<id>` in Google\'s resource names' }),
  name: Type.String({ description: 'The business name (the location title)' }),
  accountId: Type.String({ description: 'The Business Profile account that holds it: accounts/<id>' }),
  accountName: Type.String(), address: Type.String(), category: Type.String(), websiteUrl: Type.String(), storeCode: Type.String(),
});

const choice = (o: OwnedLocation) => {
  const v = locationView(o);
  return { value: v.id, label: v.name, hint: [v.address, v.accountName].filter(Boolean).join(' · '), listed: v };
};

/** Choosing the location. */
export const googleLocationStep: ChooseStep<GoogleBusinessSelectionPayload> = {
  noun: 'location',
  answerKey: 'locations',
  answerMessage: 'Choose the Google Business Profile location to connect with POST /v1/connect/googlebusiness/select-location',
  title: 'Choose the Google Business Profile location',
  empty: 'No location was found on the Business Profile accounts of this Google account. Check that the Google account manages the business on business.google.com, then start again.',

  async begin(app, tokens, identity) {
    const owned = await listOwnedLocations(app, tokens.accessToken);
    return {
      payload: {
        tokens: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? null, expiresAt: tokens.expiresAt ?? null, scope: tokens.scope },
        user: { id: identity.platformUserId, name: identity.displayName ?? identity.username },
      },
      list: owned.map(locationView),
    };
  },

  async choices(app, payload) {
    return (await listOwnedLocations(app, payload.tokens.accessToken)).map(choice);
  },

  async toAccount(app, payload, value, extra) {
    const account = typeof extra?.accountId === 'string' ? extra.accountId : undefined;
    const found = await findOwnedLocation(app, payload.tokens.accessToken, value, account);
    if (!found) {
      throw new AppError('FORBIDDEN', `The Google account does not manage the location ${locationDigits(value)}${account ? ` in ${account}` : ''}; pick one of the listed locations`, { platform: 'googlebusiness' });
    }
    const title = found.location.title ?? found.location.name;
    return {
      message: 'Google Business Profile location connected successfully',
      account: {
        platformUserId: locationDigits(found.location.name), username: title, displayName: title,
        credentials: { accessToken: payload.tokens.accessToken, refreshToken: payload.tokens.refreshToken ?? null, expiresAt: payload.tokens.expiresAt ?? null, scope: payload.tokens.scope },
        tokenExpiresAt: payload.tokens.expiresAt ? new Date(payload.tokens.expiresAt) : null,
        settings: { ...locationSettings(found), googleUserId: payload.user.id, googleUserName: payload.user.name ?? null },
        permissions: ['posts:write', 'posts:read'],
      },
    };
  },

  wire: {
    listed: GoogleLocationSchema,
    listedDescription: 'Google Business Profile: the locations of every Business Profile account the user manages',
    list: {
      summary: 'List the Google Business Profile locations the user manages (after OAuth)',
      description: 'Read from Google (Account Management accounts.list, Business Information accounts.locations.list). tempToken comes from the OAuth callback (1 hour, single use).',
      errors: [403, 502],
    },
    post: {
      summary: 'Connect the chosen Google Business Profile location',
      description: 'Stores the location as the account (one account per location), with the Google tokens sealed. The user must manage it (403 otherwise). Uses up the tempToken.',
      errors: [403, 502],
    },
    body: {
      locationId: Type.String({ minLength: 1, maxLength: 60, description: 'The location id: digits, or locations/<digits>' }),
      accountId: Type.Optional(Type.String({ maxLength: 60, pattern: '^accounts/[0-9]+$', description: 'Optional: the Business Profile account that holds the location (accounts/<id>), as the listing gives it' })),
    },
    value(body) {
      const v = String(body.locationId ?? '').trim();
      if (!/^(locations\/)?\d{1,30}$/.test(v)) throw fieldError('locationId', 'must be a location id (digits, or locations/<digits>) as the listing gives it');
      return locationDigits(v);
    },
    extra: (body) => ({ accountId: body.accountId }),
  },
};

/** Google Business Profile's connect shape: OAuth, then the location. */
export const googlebusinessConnect: ConnectShape = { kind: 'oauth', choose: googleLocationStep };
