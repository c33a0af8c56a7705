/**
 * The account cards' settings (src/shared/account-card.ts) are the platforms' account resources
 * (decision 0053): each card's list is a GET and its save a PUT operation of that platform's
 * contract (src/platforms/<name>/resources.ts, through the registry), and every select of a
 * contract that changes an account (a PUT on `/accounts/:accountId/...`) has its card, so a
 * platform that adds one (Google Business Profile's locations) gets the card action with it.
 */
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { ACCOUNT_CARD_SETTINGS } from '../../src/shared/account-card.ts';
import { PLATFORMS } from '../../src/shared/platforms.ts';

const adapters = createAdapterRegistry({ blueskyServiceUrl: 'https://bsky.social' });
/** A card's path (`/v1/accounts/{accountId}/x`) as the contract writes it (`/accounts/:accountId/x`). */
const asContract = (path: string) => path.replace(/^\/v1/, '').replace('{accountId}', ':accountId');
const operations = (p: (typeof PLATFORMS)[number]) => (adapters.resources(p).operations ?? []).map((o) => `${o.method} ${o.path}`);

describe('account card settings follow the account-resources contract', () => {
  it.each(PLATFORMS.filter((p) => ACCOUNT_CARD_SETTINGS[p]))('%s: the card lists and saves through operations of its contract', (p) => {
    const card = ACCOUNT_CARD_SETTINGS[p]!;
    expect(operations(p)).toContain(`GET ${asContract(card.list.path)}`);
    expect(operations(p)).toContain(`PUT ${asContract(card.save.path)}`);
  });

  it('every select that changes an account has its card (a PUT on /accounts/:accountId/...)', () => {
    const selects = PLATFORMS.flatMap((p) => operations(p).filter((o) => o.startsWith('PUT /accounts/:accountId/')).map((o) => `${p} ${o}`));
    const cards = PLATFORMS.flatMap((p) => (ACCOUNT_CARD_SETTINGS[p] ? [`${p} PUT ${asContract(ACCOUNT_CARD_SETTINGS[p]!.save.path)}`] : []));
    expect(selects.sort()).toEqual(cards.sort());
    expect(cards.some((c) => c.startsWith('googlebusiness '))).toBe(true);
  });

  it('the bodies are the selects\' bodies: a LinkedIn organization or the personal profile, a Google location with its account', () => {
    const li = ACCOUNT_CARD_SETTINGS.linkedin!.save;
    expect(li.body('personal', undefined)).toEqual({ accountType: 'personal', selectedOrganization: null });
    expect(li.body('7', { id: '7', urn: 'urn:li:organization:7', name: 'Co' })).toEqual({ accountType: 'organization', selectedOrganization: { id: '7', urn: 'urn:li:organization:7', name: 'Co' } });
    expect(ACCOUNT_CARD_SETTINGS.googlebusiness!.save.body('12', { id: '12', accountId: 'accounts/3' })).toEqual({ selectedLocationId: '12', googleAccountId: 'accounts/3' });
  });
});
