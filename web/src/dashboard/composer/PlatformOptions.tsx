/**
 * Per-account platform options in the composer: the target's `platformSpecificData` (the API's
 * field of the same name, spec section 5). Each platform's options are plain fields; what is
 * allowed is decided by the shared rule table through `checkPost`, which the composer runs on
 * the options as they are here, so an option the server would refuse is refused while composing.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Account } from '../api.ts';
import { PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';

/** One target's `platformSpecificData`, as the composer edits it (empty strings are dropped before sending). */
export type PlatformData = Record<string, unknown>;

/**
 * The account's own settings the rules read (default subreddit, default board): what the
 * server would fall back on when the post names none. Always an object, so that the rules that
 * need a setting are checked (see src/shared/post-rules.ts `PostContext.accountSettings`).
 */
export function accountSettingsOf(a: Account): Record<string, unknown> {
  return {
    ...(a.defaultSubreddit ? { defaultSubreddit: a.defaultSubreddit } : {}),
    ...(a.defaultBoardId ? { defaultBoardId: a.defaultBoardId } : {}),
  };
}

/** `data` without empty strings, empty arrays and undefined values: what is sent as `platformSpecificData`. */
export function cleanPlatformData(data: PlatformData | undefined): PlatformData {
  return Object.fromEntries(Object.entries(data ?? {}).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)));
}

/** The subreddits of a Reddit account (GET /v1/accounts/{id}/reddit-subreddits). */
export function useSubreddits(accountId: string, enabled = true) {
  return useQuery({
    queryKey: ['reddit-subreddits', accountId], enabled, staleTime: 60_000,
    queryFn: () => unwrap(api.GET('/v1/accounts/{accountId}/reddit-subreddits', { params: { path: { accountId } } })),
  });
}

/** The boards of a Pinterest account (GET /v1/accounts/{id}/pinterest-boards). */
export function usePinterestBoards(accountId: string, enabled = true) {
  return useQuery({
    queryKey: ['pinterest-boards', accountId], enabled, staleTime: 60_000,
    queryFn: () => unwrap(api.GET('/v1/accounts/{accountId}/pinterest-boards', { params: { path: { accountId } } })),
  });
}

interface Props { account: Account; value: PlatformData; onChange: (next: PlatformData) => void }

function TextOption({ id, label, hint, value, onChange, placeholder, type = 'text', list, maxLength }: {
  id: string; label: string; hint?: string; value: unknown; onChange: (v: string) => void; placeholder?: string; type?: string; list?: string; maxLength?: number;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>{hint && <span className="hint" id={`${id}-hint`}> {hint}</span>}
      <input id={id} type={type} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} list={list} maxLength={maxLength}
        aria-describedby={hint ? `${id}-hint` : undefined} />
    </div>
  );
}

function RedditOptions({ account, value, onChange }: Props) {
  const subs = useSubreddits(account._id);
  const id = `o-${account._id}`;
  const set = (k: string) => (v: string) => onChange({ ...value, [k]: v });
  return (
    <>
      <TextOption id={`${id}-subreddit`} label="Subreddit" hint={account.defaultSubreddit ? `default r/${account.defaultSubreddit}` : 'no default set'}
        value={value.subreddit} onChange={set('subreddit')} placeholder={account.defaultSubreddit ? `r/${account.defaultSubreddit}` : 'r/yoursubreddit'} list={`${id}-subs`} maxLength={24} />
      <datalist id={`${id}-subs`}>{subs.data?.subreddits.map((s) => <option key={s.id} value={s.name}>{s.display_name_prefixed}</option>)}</datalist>
      <TextOption id={`${id}-title`} label="Title" hint="else the text's first line" value={value.title} onChange={set('title')} maxLength={300} />
    </>
  );
}

function PinterestOptions({ account, value, onChange }: Props) {
  const boards = usePinterestBoards(account._id);
  const id = `o-${account._id}`;
  const set = (k: string) => (v: string) => onChange({ ...value, [k]: v });
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-board`}>Board</label>
        <select id={`${id}-board`} value={typeof value.boardId === 'string' ? value.boardId : ''} onChange={(e) => onChange({ ...value, boardId: e.target.value })}>
          <option value="">{account.defaultBoardId ? `Default board (${account.defaultBoardName ?? account.defaultBoardId})` : 'Choose a board'}</option>
          {boards.data?.boards.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
        </select>
        {boards.error && <span className="error-text">Could not load the boards: {(boards.error as Error).message}</span>}
      </div>
      <TextOption id={`${id}-pin-title`} label="Pin title" hint="optional" value={value.title} onChange={set('title')} maxLength={100} />
      <TextOption id={`${id}-link`} label="Link" hint="where the pin leads" type="url" value={value.link} onChange={set('link')} placeholder="https://" />
    </>
  );
}

const OPTIONS: Partial<Record<PlatformName, (p: Props) => React.JSX.Element>> = {
  reddit: RedditOptions,
  pinterest: PinterestOptions,
};

/** Whether the composer has options for this platform. */
export function hasOptions(platform: string): boolean {
  return platform in OPTIONS;
}

/** The options of one target, in a titled group. */
export function PlatformOptions(props: Props) {
  const Options = OPTIONS[props.account.platform as PlatformName];
  if (!Options) return null;
  const label = PLATFORM_RULES[props.account.platform as PlatformName]?.label ?? props.account.platform;
  return (
    <fieldset className="platform-options">
      <legend>{label} options for @{props.account.username.replace(/^@/, '')}</legend>
      <Options {...props} />
    </fieldset>
  );
}
