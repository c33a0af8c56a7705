/**
 * The setting an account card of the dashboard (Profiles & accounts) shows for a connected account,
 * as data: a choice among a list the API reads from the platform, saved with the platform's select.
 * Both calls are operations of the platform's account resources (src/platforms/<name>/resources.ts,
 * decision 0053), named here by their Late-compatible paths; test/web/account-card.test.ts checks
 * that each path is an operation of that platform's contract and that every select of the
 * contract that changes the account has its card here. The card reads only this table, so a new
 * platform's card is its entry. Pure: shared with the web app.
 */
import type { PlatformId } from './platforms.ts';

/** One listed item as the list's answer gives it. */
export type CardItem = Record<string, unknown>;

/**
 * One platform's card setting.
 *
 * - `kind`: `default` keeps a default of the account (the current value is a field of the account,
 *   an empty first option asks for one: "Save"); `switch` changes what the account publishes as
 *   (the current value comes from the list's answer: "Switch").
 * - `label`: the select's label; `srName`: what follows the button's word for a screen reader.
 * - `list`: the GET path (`{accountId}`), the answer's array, each item's value and its option text.
 * - `current`: the chosen value, from the account view (`default`) or the list's answer (`switch`).
 * - `own`: a first option that is not in the list (LinkedIn's personal profile).
 * - `pending`: the option shown while the list loads (`switch`); `choose` / `loading` / `none`: the
 *   empty option's words (`default`).
 * - `keepCurrent`: the current value stays choosable when the list no longer has it (the item it
 *   stands for).
 * - `typed`: when the platform cannot list now, the value is typed instead (a text field).
 * - `save`: the PUT path and its body for the chosen value (`item`: the listed item, if any);
 *   `done`: the words shown after it (default "Saved").
 */
export interface AccountCardSetting {
  kind: 'default' | 'switch';
  label: string;
  srName: string;
  list: { path: string; items: string; value(item: CardItem): string; text(item: CardItem): string };
  current(account: Record<string, unknown>, answer: Record<string, unknown> | undefined): string;
  own?: { value: string; text(account: Record<string, unknown>): string };
  pending?(account: Record<string, unknown>): string;
  choose?: string;
  loading?: string;
  none?: string;
  keepCurrent?(value: string): CardItem;
  typed?: { name: string; placeholder: string; maxLength: number; listError: string };
  save: { path: string; body(value: string, item: CardItem | undefined): Record<string, unknown>; done?(answer: Record<string, unknown>): string };
  /** The error box's title when the list or the save fails. */
  error: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const nameOf = (item: CardItem) => str(item.name);
const idOf = (item: CardItem) => str(item.id);
const nowPublishingTo = (key: string) => (answer: Record<string, unknown>) => `Now publishing to ${str((answer[key] as CardItem | undefined)?.name)}`;

/** {@link AccountCardSetting} of each platform that has one. */
export const ACCOUNT_CARD_SETTINGS: Readonly<Partial<Record<PlatformId, AccountCardSetting>>> = {
  // The default subreddit (used when a post names none), chosen from the subreddits the account joined.
  reddit: {
    kind: 'default', label: 'Default subreddit', srName: 'default subreddit',
    list: { path: '/v1/accounts/{accountId}/reddit-subreddits', items: 'subreddits', value: nameOf, text: (s) => `r/${nameOf(s)}` },
    current: (a) => str(a.defaultSubreddit),
    choose: 'Choose a subreddit', loading: 'Loading subreddits…', none: 'No subreddits joined', keepCurrent: (name) => ({ name }),
    typed: { name: 'defaultSubreddit', placeholder: 'r/yoursubreddit', maxLength: 24, listError: "Reddit could not list this account's subreddits; type the name instead" },
    save: { path: '/v1/accounts/{accountId}/reddit-subreddits', body: (value) => ({ defaultSubreddit: value.trim() }) },
    error: 'Could not set the default subreddit',
  },
  // The default board (used when a pin names none).
  pinterest: {
    kind: 'default', label: 'Default board', srName: 'default board',
    list: { path: '/v1/accounts/{accountId}/pinterest-boards', items: 'boards', value: idOf, text: nameOf },
    current: (a) => str(a.defaultBoardId),
    choose: 'Choose a board', loading: 'Loading boards…',
    save: { path: '/v1/accounts/{accountId}/pinterest-boards', body: (value, board) => ({ defaultBoardId: value, ...(board ? { defaultBoardName: nameOf(board) } : {}) }) },
    error: 'Could not set the default board',
  },
  // The Page the account publishes to, among the Pages the user administers.
  facebook: {
    kind: 'switch', label: 'Facebook page', srName: 'Facebook page',
    list: { path: '/v1/accounts/{accountId}/facebook-page', items: 'pages', value: idOf, text: (p) => `${nameOf(p)}${p.category ? ` (${str(p.category)})` : ''}` },
    current: (_, answer) => str(answer?.selectedPageId),
    pending: (a) => str(a.selectedPageName) || 'Loading pages…',
    save: { path: '/v1/accounts/{accountId}/facebook-page', body: (value) => ({ selectedPageId: value }), done: nowPublishingTo('selectedPage') },
    error: 'Could not switch the page',
  },
  // The member, or one of the organizations they administer.
  linkedin: {
    kind: 'switch', label: 'Publish as', srName: 'LinkedIn author',
    list: { path: '/v1/accounts/{accountId}/linkedin-organizations', items: 'organizations', value: idOf, text: (o) => `${nameOf(o)} (company page)` },
    current: (_, answer) => {
      if (!answer) return '';
      const org = (answer.selectedOrganization as CardItem | null | undefined)?.id;
      return answer.accountType === 'organization' && org !== undefined ? String(org) : 'personal';
    },
    own: { value: 'personal', text: (a) => `${str(a.displayName) || str(a.username)} (personal profile)` },
    pending: () => 'Loading…',
    save: {
      path: '/v1/accounts/{accountId}/linkedin-organization',
      body: (_, org) => (org
        ? { accountType: 'organization', selectedOrganization: { id: org.id, urn: org.urn, name: org.name } }
        : { accountType: 'personal', selectedOrganization: null }),
    },
    error: 'Could not change the LinkedIn author',
  },
  // The location the account publishes to, among the locations the Google user manages.
  googlebusiness: {
    kind: 'switch', label: 'Location', srName: 'Google Business Profile location',
    list: { path: '/v1/accounts/{accountId}/gmb-locations', items: 'locations', value: idOf, text: (l) => `${nameOf(l)}${l.address ? ` (${str(l.address)})` : ''}` },
    current: (_, answer) => str(answer?.selectedLocationId),
    pending: (a) => str(a.displayName) || 'Loading locations…',
    save: {
      path: '/v1/accounts/{accountId}/gmb-locations',
      body: (value, location) => ({ selectedLocationId: value, ...(location?.accountId ? { googleAccountId: location.accountId } : {}) }),
      done: nowPublishingTo('selectedLocation'),
    },
    error: 'Could not switch the location',
  },
};
