/**
 * The user's Business Profile accounts and their locations: the choice after OAuth (./connect.ts)
 * and the location list and switch of an account (./resources.ts).
 * - Account Management API `GET /v1/accounts` (pageSize at most 20, `pageToken`;
 *   https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list);
 * - Business Information API `GET /v1/{parent=accounts/*}/locations` with its required `readMask`
 *   (pageSize at most 100; https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list).
 * Both are read to the end (`nextPageToken` absent), at most {@link MAX_PAGES} pages each.
 */
import type { PlatformApp } from '../oauth.ts';
import { AdapterError } from '../types.ts';
import { gbpHost, gbpJson } from './google.ts';

/** Most pages read of one list (20 accounts or 100 locations a page). */
const MAX_PAGES = 50;
/** The Location fields Herald reads. */
export const LOCATION_READ_MASK = 'name,title,storeCode,storefrontAddress,categories,websiteUri,metadata';

/** A Business Profile account (`accounts.list`). */
export interface GoogleAccount { name: string; accountName?: string; type?: string; role?: string }
/** A location as the Business Information API answers it (the fields of {@link LOCATION_READ_MASK}). */
export interface GoogleLocation {
  name: string;
  title?: string;
  storeCode?: string;
  storefrontAddress?: { addressLines?: string[]; locality?: string; postalCode?: string; regionCode?: string };
  categories?: { primaryCategory?: { displayName?: string } };
  websiteUri?: string;
  metadata?: { mapsUri?: string; placeId?: string; newReviewUri?: string };
}
/** A location with the account that holds it. */
export interface OwnedLocation { account: GoogleAccount; location: GoogleLocation }

async function paged<T>(base: string, path: string, key: string, token: string, query: Record<string, string | number>): Promise<T[]> {
  const out: T[] = [];
  let pageToken: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const { body } = await gbpJson<Record<string, unknown>>(base, path, { token, query: { ...query, ...(pageToken ? { pageToken } : {}) } });
    out.push(...((body[key] as T[] | undefined) ?? []));
    pageToken = typeof body.nextPageToken === 'string' ? body.nextPageToken : undefined;
    if (!pageToken) return out;
  }
  throw new AdapterError('rejected', `Google Business Profile: more than ${MAX_PAGES} pages of ${key}; too many to list here`);
}

/** Every Business Profile account the user can manage. @throws AdapterError */
export function listGoogleAccounts(app: PlatformApp, token: string): Promise<GoogleAccount[]> {
  return paged<GoogleAccount>(gbpHost(app, 'accounts'), '/v1/accounts', 'accounts', token, { pageSize: 20 });
}

/** Every location of one account (`accounts/{id}`). @throws AdapterError */
export function listGoogleLocations(app: PlatformApp, token: string, account: string): Promise<GoogleLocation[]> {
  return paged<GoogleLocation>(gbpHost(app, 'locations'), `/v1/${account}/locations`, 'locations', token, { readMask: LOCATION_READ_MASK, pageSize: 100 });
}

/**
 * Every location of every account of the user (or of `onlyAccount`), in the accounts' order.
 * @throws AdapterError
 */
export async function listOwnedLocations(app: PlatformApp, token: string, onlyAccount?: string): Promise<OwnedLocation[]> {
  const accounts = (await listGoogleAccounts(app, token)).filter((a) => !onlyAccount || a.name === onlyAccount);
  const out: OwnedLocation[] = [];
  for (const account of accounts) for (const location of await listGoogleLocations(app, token, account.name)) out.push({ account, location });
  return out;
}

/** The digits of `locations/123` (or of the digits). */
export const locationDigits = (name: string): string => name.replace(/^locations\//, '');

/** One line of a location's address ("1 Main Street, Springfield"). */
export function addressOf(l: GoogleLocation): string {
  const a = l.storefrontAddress;
  return a ? [...(a.addressLines ?? []), a.locality].filter(Boolean).join(', ') : '';
}

/**
 * A location as Late's listings show it (`GET /v1/connect/googlebusiness/locations`,
 * `GET /v1/accounts/{id}/gmb-locations`): `id` is the bare location id.
 */
export function locationView(o: OwnedLocation) {
  return {
    id: locationDigits(o.location.name), name: o.location.title ?? o.location.name, accountId: o.account.name, accountName: o.account.accountName ?? '',
    address: addressOf(o.location), category: o.location.categories?.primaryCategory?.displayName ?? '',
    websiteUrl: o.location.websiteUri ?? '', storeCode: o.location.storeCode ?? '',
  };
}

/** The settings stored on an account that publishes to `o` (the v4 parent is `{googleAccountId}/{locationId}`). */
export function locationSettings(o: OwnedLocation): Record<string, unknown> {
  return {
    googleAccountId: o.account.name, googleAccountName: o.account.accountName ?? null, locationId: o.location.name,
    selectedLocationId: locationDigits(o.location.name), selectedLocationName: o.location.title ?? o.location.name,
    mapsUri: o.location.metadata?.mapsUri ?? null, placeId: o.location.metadata?.placeId ?? null,
  };
}

/**
 * The location `value` (bare id or `locations/<id>`) among the user's, read again from Google.
 * Null when the user cannot manage it. @throws AdapterError from the listing.
 */
export async function findOwnedLocation(app: PlatformApp, token: string, value: string, account?: string): Promise<OwnedLocation | null> {
  const name = `locations/${locationDigits(value)}`;
  return (await listOwnedLocations(app, token, account)).find((o) => o.location.name === name) ?? null;
}
