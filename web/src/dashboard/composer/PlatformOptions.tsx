/**
 * Per-account platform options in the composer: the target's `platformSpecificData` (the API's
 * field of the same name). Each platform's options are plain fields; what is
 * allowed is decided by the shared rule table through `checkPost`, which the composer runs on
 * the options as they are here, so an option the server would refuse is refused while composing
 * (docs/decisions/0032-composer-options-feed-the-rule-table.md); a subreddit's own rules are asked
 * of the server first (./subreddit-rules.ts, docs/decisions/0040-composer-asks-for-subreddit-rules.md).
 */
import { useState } from 'react';
import { uploadMedia, type Account } from '../api.ts';
import { usePinterestBoards, useSubreddits } from '../queries/accounts.ts';
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
    ...(a.tiktokPrivacyLevelOptions ? { tiktokCreator: { privacyLevelOptions: a.tiktokPrivacyLevelOptions } } : {}),
  };
}

/** Keys the composer keeps for itself (never sent): the replies of a thread before they become `threadItems`. */
const REPLIES = '_replies';

/**
 * What is sent as the target's `platformSpecificData`: the options without empty strings, empty
 * arrays and undefined values; a thread's replies become `threadItems` (item 0 is the post's
 * text, which carries the post's media; the replies follow).
 */
export function cleanPlatformData(data: PlatformData | undefined, text = ''): PlatformData {
  const out: PlatformData = {};
  for (const [k, v] of Object.entries(data ?? {})) {
    if (k.startsWith('_') || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const inner = cleanPlatformData(v as PlatformData);
      if (Object.keys(inner).length) out[k] = inner;
      continue;
    }
    out[k] = v;
  }
  const replies = repliesOf(data);
  if (replies.length) out.threadItems = [{ content: text }, ...replies.map((content) => ({ content }))];
  return out;
}

/** The replies of a thread being composed. */
export function repliesOf(data: PlatformData | undefined): string[] {
  const r = data?.[REPLIES];
  return Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string') : [];
}

/** Composer-only checks: what TikTok requires of the posting screen itself (its content sharing guidelines). */
export function composerChecks(account: Account, data: PlatformData | undefined): string[] {
  const out: string[] = [];
  if (account.platform === 'tiktok') {
    const t = (data?.tiktokSettings ?? {}) as Record<string, unknown>;
    if (!t.privacy_level) out.push('Choose who can see this TikTok post (TikTok asks the poster to choose; there is no default)');
    if (t.express_consent_given !== true) out.push('Agree to TikTok\'s Music Usage Confirmation (and the Branded Content Policy for branded content) before posting');
    if (data?._commercial === true && !t.is_brand_organic_post && !t.brand_partner_promote) out.push('Commercial content is on: choose "Your brand", "Branded content" or both');
  }
  return out;
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
      <TextOption id={`${id}-flair`} label="Flair ID" hint="the subreddit's flair template id, when it asks for one" value={value.flairId} onChange={set('flairId')} maxLength={36} />
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

function TextAreaOption({ id, label, value, onChange, maxLength }: { id: string; label: string; value: unknown; onChange: (v: string) => void; maxLength?: number }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="short" value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} maxLength={maxLength} />
    </div>
  );
}

/** A select with short choices; what a choice means goes in `hint` (long option text is cut off on a phone). */
function SelectOption({ id, label, hint, value, onChange, choices }: { id: string; label: string; hint?: string; value: unknown; onChange: (v: string) => void; choices: Array<[string, string]> }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>{hint && <span className="hint" id={`${id}-hint`}> {hint}</span>}
      <select id={id} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} aria-describedby={hint ? `${id}-hint` : undefined}>
        {choices.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
      </select>
    </div>
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return <label className="check"><input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {label}</label>;
}

/** The replies of a thread (X, Threads, Bluesky): each one a post under the previous one. */
function ThreadOptions({ account, value, onChange }: Props) {
  const replies = repliesOf(value);
  const id = `o-${account._id}`;
  const setReplies = (next: string[]) => onChange({ ...value, [REPLIES]: next });
  return (
    <div className="thread-items">
      {replies.map((r, i) => (
        <div key={i} className="field thread-item">
          <label htmlFor={`${id}-reply-${i}`}>Reply {i + 1} in the thread</label>
          <textarea id={`${id}-reply-${i}`} className="short" value={r} onChange={(e) => setReplies(replies.map((x, j) => (j === i ? e.target.value : x)))} />
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setReplies(replies.filter((_, j) => j !== i))}>Remove reply {i + 1}</button>
        </div>
      ))}
      <button type="button" className="btn btn-sm" onClick={() => setReplies([...replies, ''])}>Add a reply (thread)</button>
    </div>
  );
}

function FirstComment({ account, value, onChange, max }: Props & { max?: number }) {
  return <TextAreaOption id={`o-${account._id}-comment`} label="First comment" value={value.firstComment} onChange={(v) => onChange({ ...value, firstComment: v })} maxLength={max} />;
}

function FacebookOptions(props: Props) {
  const { account, value, onChange } = props;
  const story = value.contentType === 'story';
  return (
    <>
      <SelectOption id={`o-${account._id}-kind`} label="Post as" hint="a story is one image or video, shown without its caption"
        value={value.contentType ?? ''} onChange={(v) => onChange({ ...value, contentType: v })} choices={[['', 'Feed post'], ['story', 'Story']]} />
      {!story && <TextOption id={`o-${account._id}-link`} label="Link" type="url" value={value.link} onChange={(v) => onChange({ ...value, link: v })} placeholder="https://" />}
      {!story && <FirstComment {...props} max={8000} />}
    </>
  );
}

interface UserTag { username: string; x: number; y: number }

function InstagramOptions(props: Props) {
  const { account, value, onChange } = props;
  const id = `o-${account._id}`;
  const story = value.contentType === 'story';
  const collaborators = Array.isArray(value.collaborators) ? (value.collaborators as string[]) : [];
  const tags = Array.isArray(value.userTags) ? (value.userTags as UserTag[]) : [];
  const setTags = (next: UserTag[]) => onChange({ ...value, userTags: next });
  return (
    <>
      <SelectOption id={`${id}-kind`} label="Post as" hint="a feed post is an image, a carousel or a video"
        value={value.contentType ?? ''} onChange={(v) => onChange({ ...value, contentType: v })} choices={[['', 'Feed post'], ['reel', 'Reel'], ['story', 'Story']]} />
      {!story && (
        <TextOption id={`${id}-collab`} label="Collaborators" hint="up to 3 usernames, comma-separated, without @" value={collaborators.join(', ')}
          onChange={(v) => onChange({ ...value, collaborators: v.split(',').map((x) => x.trim().replace(/^@/, '')).filter(Boolean) })} />
      )}
      {!story && (
        <fieldset className="sub-options">
          <legend>People tagged in the image</legend>
          {tags.map((t, i) => (
            <div key={i} className="form-row tag-row">
              <div className="field grow"><label htmlFor={`${id}-tag-${i}-u`}>Username {i + 1}</label>
                <input id={`${id}-tag-${i}-u`} value={t.username} onChange={(e) => setTags(tags.map((x, j) => (j === i ? { ...x, username: e.target.value.replace(/^@/, '') } : x)))} /></div>
              <div className="field"><label htmlFor={`${id}-tag-${i}-x`}>Across (0-1)</label>
                <input id={`${id}-tag-${i}-x`} type="number" min={0} max={1} step={0.05} value={t.x} onChange={(e) => setTags(tags.map((x, j) => (j === i ? { ...x, x: Number(e.target.value) } : x)))} /></div>
              <div className="field"><label htmlFor={`${id}-tag-${i}-y`}>Down (0-1)</label>
                <input id={`${id}-tag-${i}-y`} type="number" min={0} max={1} step={0.05} value={t.y} onChange={(e) => setTags(tags.map((x, j) => (j === i ? { ...x, y: Number(e.target.value) } : x)))} /></div>
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => setTags(tags.filter((_, j) => j !== i))}>Remove tag {i + 1}</button>
            </div>
          ))}
          <button type="button" className="btn btn-sm" onClick={() => setTags([...tags, { username: '', x: 0.5, y: 0.5 }])}>Tag a person</button>
        </fieldset>
      )}
      {!story && <FirstComment {...props} max={2200} />}
    </>
  );
}

function LinkedInOptions(props: Props) {
  const { account, value, onChange } = props;
  return (
    <>
      <SelectOption id={`o-${account._id}-vis`} label="Who can see it" value={value.visibility ?? ''} onChange={(v) => onChange({ ...value, visibility: v })}
        choices={[['', 'Anyone (public)'], ['CONNECTIONS', 'Connections only']]} />
      <TextOption id={`o-${account._id}-doc`} label="Document title" hint="when a PDF is attached" value={value.documentTitle} onChange={(v) => onChange({ ...value, documentTitle: v })} maxLength={400} />
      <FirstComment {...props} max={1250} />
    </>
  );
}

/**
 * YouTube's custom thumbnail: uploaded like any media, then sent as the video's
 * `mediaItems[].thumbnail` (the composer puts it there; see {@link youtubeThumbnailOf}).
 */
function Thumbnail({ account, value, onChange }: Props) {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = `o-${account._id}-thumb`;
  const url = typeof value._thumbnail === 'string' ? value._thumbnail : '';
  return (
    <div className="field">
      <label htmlFor={id}>Custom thumbnail <span className="hint">(JPEG or PNG; not for Shorts)</span></label>
      <input id={id} type="file" accept="image/jpeg,image/png" onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (!file) return;
        setError(null);
        setProgress(0);
        uploadMedia(file, setProgress).then((f) => { setProgress(null); onChange({ ...value, _thumbnail: f.url }); }, (err: Error) => { setProgress(null); setError(err.message); });
      }} />
      {progress !== null && <progress max={1} value={progress} aria-label="Uploading the thumbnail" />}
      {error && <span className="error-text" role="alert">{error}</span>}
      {url && (
        <span className="thumb-chosen"><img src={url} alt="Chosen thumbnail" />
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => onChange({ ...value, _thumbnail: undefined })}>Remove thumbnail</button></span>
      )}
    </div>
  );
}

/** The custom thumbnail chosen for a YouTube target, if any (it goes on the video's media item). */
export function youtubeThumbnailOf(data: PlatformData | undefined): string | undefined {
  return typeof data?._thumbnail === 'string' ? data._thumbnail : undefined;
}

function YouTubeOptions(props: Props) {
  const { account, value, onChange } = props;
  const id = `o-${account._id}`;
  const tags = Array.isArray(value.tags) ? (value.tags as string[]) : [];
  return (
    <>
      <TextOption id={`${id}-yt-title`} label="Video title" hint="else the text's first line" value={value.title} onChange={(v) => onChange({ ...value, title: v })} maxLength={100} />
      <SelectOption id={`${id}-yt-vis`} label="Visibility" value={value.visibility ?? ''} onChange={(v) => onChange({ ...value, visibility: v })}
        choices={[['', 'Public'], ['unlisted', 'Unlisted'], ['private', 'Private']]} />
      <TextOption id={`${id}-yt-tags`} label="Tags" hint="comma-separated" value={tags.join(', ')}
        onChange={(v) => onChange({ ...value, tags: v.split(',').map((x) => x.trim()).filter(Boolean) })} />
      <Check label="Made for kids" checked={value.madeForKids === true} onChange={(v) => onChange({ ...value, madeForKids: v || undefined })} />
      <Thumbnail {...props} />
      <FirstComment {...props} max={10000} />
    </>
  );
}

const TIKTOK_PRIVACY_LABELS: Record<string, string> = {
  PUBLIC_TO_EVERYONE: 'Everyone', MUTUAL_FOLLOW_FRIENDS: 'Friends (followers you follow back)', FOLLOWER_OF_CREATOR: 'Followers', SELF_ONLY: 'Only me',
};

/**
 * TikTok's posting screen as its content sharing guidelines ask: the creator's own privacy
 * options with none preselected, interaction toggles, the commercial content disclosure
 * ("Your brand" / "Branded content", branded content never private) and the consent line.
 */
function TikTokOptions({ account, value, onChange }: Props) {
  const id = `o-${account._id}`;
  const t = (value.tiktokSettings ?? {}) as Record<string, unknown>;
  const commercial = value._commercial === true;
  const setT = (patch: Record<string, unknown>, top: PlatformData = {}) => {
    const next = { ...t, ...patch };
    next.commercial_content_type = next.brand_partner_promote ? 'brand_content' : next.is_brand_organic_post ? 'brand_organic' : 'none';
    onChange({ ...value, ...top, tiktokSettings: next });
  };
  const levels = account.tiktokPrivacyLevelOptions ?? Object.keys(TIKTOK_PRIVACY_LABELS);
  const branded = t.brand_partner_promote === true;
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-privacy`}>Who can see this post</label>
        <select id={`${id}-privacy`} value={typeof t.privacy_level === 'string' ? t.privacy_level : ''} onChange={(e) => setT({ privacy_level: e.target.value || undefined })}>
          <option value="">Choose…</option>
          {levels.map((l) => <option key={l} value={l} disabled={branded && l === 'SELF_ONLY'}>{TIKTOK_PRIVACY_LABELS[l] ?? l}{branded && l === 'SELF_ONLY' ? ' (not for branded content)' : ''}</option>)}
        </select>
      </div>
      <div className="check-row">
        <Check label="Allow comments" checked={t.allow_comment !== false} onChange={(v) => setT({ allow_comment: v })} />
        <Check label="Allow duets" checked={t.allow_duet !== false} onChange={(v) => setT({ allow_duet: v })} />
        <Check label="Allow stitches" checked={t.allow_stitch !== false} onChange={(v) => setT({ allow_stitch: v })} />
      </div>
      <Check label="Disclose commercial content (this post promotes a brand, product or service)" checked={commercial}
        onChange={(v) => setT(v ? {} : { is_brand_organic_post: false, brand_partner_promote: false }, { _commercial: v })} />
      {commercial && (
        <div className="sub-options">
          <Check label="Your brand (you promote yourself or your own business)" checked={t.is_brand_organic_post === true} onChange={(v) => setT({ is_brand_organic_post: v })} />
          <Check label="Branded content (you are paid or given something by a brand)" checked={branded}
            onChange={(v) => setT({ brand_partner_promote: v, ...(v && t.privacy_level === 'SELF_ONLY' ? { privacy_level: undefined } : {}) })} />
          <p className="hint">{branded ? 'Your post will be labelled "Paid partnership".' : t.is_brand_organic_post ? 'Your post will be labelled "Promotional content".' : ''}</p>
        </div>
      )}
      <Check label={`I agree to TikTok's ${branded ? 'Branded Content Policy and ' : ''}Music Usage Confirmation`} checked={t.express_consent_given === true}
        onChange={(v) => setT({ express_consent_given: v, content_preview_confirmed: v })} />
    </>
  );
}

const OPTIONS: Partial<Record<PlatformName, (p: Props) => React.JSX.Element>> = {
  twitter: ThreadOptions,
  threads: (p) => <><ThreadOptions {...p} /></>,
  bluesky: ThreadOptions,
  facebook: FacebookOptions,
  instagram: InstagramOptions,
  linkedin: LinkedInOptions,
  youtube: YouTubeOptions,
  tiktok: TikTokOptions,
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
