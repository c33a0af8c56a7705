/**
 * A destination's own posting rules for the composer (Reddit's subreddit rules, decision 0040):
 * the server checks a post against the rules of the destination it goes to (read from the
 * platform; `GET /v1/accounts/{id}/reddit-subreddits/rules` answers the same read, from the same
 * cache), so the composer asks for them before it calls the post fine and feeds them to the
 * shared `checkPost` as account settings (`accountSettings.subredditRules`). Which platforms have
 * such rules, the path asked and the setting filled are the `destinationRules` of the platform's
 * composer options (src/shared/platform-options.ts). Until they are known (a name being typed,
 * or the answer on its way) the post is "being checked", never "fits".
 */
import { useQueries } from '@tanstack/react-query';
import type { Account } from '../api.ts';
import { getAccountResource } from '../queries/accounts.ts';
import { destinationRulesOf, getOption } from '../../../../src/shared/platform-options.ts';
import type { PlatformData } from './PlatformOptions.tsx';
import { useSettled } from './server-check.ts';

/** Wait after the last keystroke in a destination field before its rules are asked for (ms). */
const TYPING_PAUSE_MS = 400;

/** What the composer knows of one target's destination rules. */
export interface SubredditRulesState {
  /** The destination the post goes to (the target's own, else the account's default), as the API takes it (a subreddit without r/); null when none. */
  subreddit: string | null;
  /** The destination as the composer names it (`r/test`); null when none. */
  shownAs: string | null;
  /** True while the rules are not known yet: the composer must not call the post fine. */
  checking: boolean;
  /** Account settings `checkPost` reads (`{ subredditRules: { <name>: rules } }`; empty when the destination has none, or the platform cannot be read: the server does not block then either). */
  settings: Record<string, unknown>;
}

/** The destination a target posts to: its own option, else the account's default (null when neither is a valid name, or the platform has no destination rules). */
export function targetSubreddit(account: Account, data: PlatformData | undefined): string | null {
  const d = destinationRulesOf(account.platform);
  if (!d) return null;
  const { normalize, accountDefault, name } = d.rules;
  const sr = normalize(getOption(data, d.field.key)) ?? normalize((account as unknown as Record<string, unknown>)[accountDefault]);
  return sr && name.test(sr) ? sr : null;
}

/**
 * The destination rules of each active account in `accounts` whose platform has them, keyed by
 * account id, for the destinations `options` name (after a typing pause). Other accounts are not
 * in the answer.
 */
export function useSubredditRules(accounts: Account[], options: Record<string, PlatformData>): Record<string, SubredditRulesState> {
  const wanted = accounts.flatMap((a) => {
    const d = destinationRulesOf(a.platform);
    return d && a.isActive ? [{ account: a, rules: d.rules, subreddit: targetSubreddit(a, options[a._id]) }] : [];
  });
  const key = wanted.map((w) => `${w.account._id}:${w.subreddit ?? ''}`).join(',');
  const settledKey = useSettled(key, TYPING_PAUSE_MS);
  const results = useQueries({
    queries: wanted.map(({ account, rules, subreddit }) => ({
      // e.g. ['reddit-subreddits/rules', accountId, 'test']
      queryKey: [rules.path.slice('/v1/accounts/{accountId}/'.length), account._id, subreddit?.toLowerCase() ?? null],
      // Asked once the name has settled; rules change rarely (the server keeps them 10 minutes too).
      enabled: subreddit !== null && settledKey === key,
      staleTime: 5 * 60_000,
      retry: false,
      queryFn: () => getAccountResource(rules.path, account._id, { [rules.query]: subreddit! }),
    })),
  });
  const out: Record<string, SubredditRulesState> = {};
  wanted.forEach(({ account, rules: d, subreddit }, i) => {
    const r = results[i];
    if (!subreddit) {
      out[account._id] = { subreddit, shownAs: null, checking: false, settings: {} };
      return;
    }
    // An error answer (the platform unreachable, rate limited) is what the server meets too: it does not block the post then.
    const checking = settledKey !== key || r.isPending;
    const rules = r.data?.rules;
    out[account._id] = { subreddit, shownAs: `${d.prefix}${subreddit}`, checking, settings: rules ? { [d.setting]: { [subreddit.toLowerCase()]: rules } } : {} };
  });
  return out;
}
