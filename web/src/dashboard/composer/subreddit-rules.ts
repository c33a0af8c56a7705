/**
 * A subreddit's own posting rules for the composer: the server checks a Reddit post against
 * the rules of its subreddit (read from Reddit, `GET /v1/accounts/{id}/reddit-subreddits/rules`
 * answers the same read, from the same cache), so the composer asks for them before it calls a
 * Reddit post fine and feeds them to the shared `checkPost` as `accountSettings.subredditRules`.
 * Until they are known (a subreddit being typed, or the answer on its way) the post is
 * "being checked", never "fits".
 */
import { useQueries } from '@tanstack/react-query';
import { api, unwrap, type Account } from '../api.ts';
import { normalizeSubreddit, SUBREDDIT_NAME, type RedditSubredditRules } from '../../../../src/shared/rules/reddit.ts';
import type { PlatformData } from './PlatformOptions.tsx';
import { useSettled } from './server-check.ts';

/** Wait after the last keystroke in a subreddit field before its rules are asked for (ms). */
const TYPING_PAUSE_MS = 400;

/** What the composer knows of one Reddit target's subreddit rules. */
export interface SubredditRulesState {
  /** The subreddit the post goes to (the target's own, else the account's default), without r/; null when none. */
  subreddit: string | null;
  /** True while the rules are not known yet: the composer must not call the post fine. */
  checking: boolean;
  /** What `checkPost` reads as `accountSettings.subredditRules` (empty when the subreddit has none, or Reddit cannot be read: the server does not block then either). */
  settings: { subredditRules?: Record<string, RedditSubredditRules> };
}

/** The subreddit a target posts to: its own option, else the account's default (null when neither is a subreddit name). */
export function targetSubreddit(account: Account, data: PlatformData | undefined): string | null {
  const sr = normalizeSubreddit(data?.subreddit) ?? normalizeSubreddit(account.defaultSubreddit);
  return sr && SUBREDDIT_NAME.test(sr) ? sr : null;
}

/**
 * The subreddit rules of each active Reddit account in `accounts`, keyed by account id, for the
 * subreddits `options` name (after a typing pause). Other accounts are not in the answer.
 */
export function useSubredditRules(accounts: Account[], options: Record<string, PlatformData>): Record<string, SubredditRulesState> {
  const wanted = accounts.filter((a) => a.platform === 'reddit' && a.isActive).map((a) => ({ account: a, subreddit: targetSubreddit(a, options[a._id]) }));
  const key = wanted.map((w) => `${w.account._id}:${w.subreddit ?? ''}`).join(',');
  const settledKey = useSettled(key, TYPING_PAUSE_MS);
  const results = useQueries({
    queries: wanted.map(({ account, subreddit }) => ({
      queryKey: ['reddit-subreddits/rules', account._id, subreddit?.toLowerCase() ?? null],
      // Asked once the name has settled; rules change rarely (the server keeps them 10 minutes too).
      enabled: subreddit !== null && settledKey === key,
      staleTime: 5 * 60_000,
      retry: false,
      queryFn: () => unwrap(api.GET('/v1/accounts/{accountId}/reddit-subreddits/rules', { params: { path: { accountId: account._id }, query: { subreddit: subreddit! } } })),
    })),
  });
  const out: Record<string, SubredditRulesState> = {};
  wanted.forEach(({ account, subreddit }, i) => {
    const r = results[i];
    if (!subreddit) {
      out[account._id] = { subreddit, checking: false, settings: {} };
      return;
    }
    // An error answer (Reddit unreachable, rate limited) is what the server meets too: it does not block the post then.
    const checking = settledKey !== key || r.isPending;
    const rules = r.data?.rules;
    out[account._id] = { subreddit, checking, settings: rules ? { subredditRules: { [subreddit.toLowerCase()]: rules as RedditSubredditRules } } : {} };
  });
  return out;
}
