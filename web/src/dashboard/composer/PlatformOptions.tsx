/**
 * Per-account platform options in the composer: the target's `platformSpecificData` (the API's
 * field of the same name). Each platform's options are data (src/shared/platform-options.ts:
 * fields in order, with their kinds, labels and limits from the rule table), rendered here by a
 * few generic field components, so a new platform's options need no code here. What is
 * allowed is decided by the shared rule table through `checkPost`, which the composer runs on
 * the options as they are here, so an option the server would refuse is refused while composing
 * (docs/decisions/0032-composer-options-feed-the-rule-table.md); a subreddit's own rules are asked
 * of the server first (./subreddit-rules.ts, docs/decisions/0040-composer-asks-for-subreddit-rules.md).
 */
import { useState } from 'react';
import { uploadMedia, type Account } from '../api.ts';
import { useAccountList } from '../queries/accounts.ts';
import { PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import {
  choicesOf, composerChecksOf, getOption, holds, platformOptionsOf, setOption, settleOptions, thumbnailOf, wordingOf,
  type AccountResourceList, type CheckboxField, type ListField, type MediaThumbnailField, type NoteField, type OptionAccount, type OptionField,
  type RepeatField, type ResourceSelectField, type SelectField, type TextAreaField, type TextField, type ThreadRepliesField, type Wording,
} from '../../../../src/shared/platform-options.ts';

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
    // What the platform stated about the account (e.g. its server's limits), as the server's check reads it.
    ...(a.ruleSettings ?? {}),
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

/** Composer-only checks: what a platform requires of the posting screen itself (TikTok's content sharing guidelines), as its options declare. */
export function composerChecks(account: Account, data: PlatformData | undefined): string[] {
  return composerChecksOf(account.platform, data, view(account));
}

/** The image chosen as the target's video thumbnail (YouTube's custom thumbnail), if any: it goes on the video's media item. */
export function videoThumbnailOf(account: Account, data: PlatformData | undefined): string | undefined {
  return thumbnailOf(account.platform, data);
}

/** The account view as the shared descriptions read it (properties by name). */
const view = (a: Account): OptionAccount => a as unknown as OptionAccount;

interface Props { account: Account; value: PlatformData; onChange: (next: PlatformData) => void }

/** What every field component gets: the account, its element id prefix, the whole options and a way to change them. */
interface FieldProps<F> { field: F; account: Account; prefix: string; value: PlatformData; onChange: (next: PlatformData) => void }

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A label with its hint beside it (the hint describes the input). */
function Label({ id, label, hint }: { id: string; label: string; hint?: string }) {
  return <><label htmlFor={id}>{label}</label>{hint && <span className="hint" id={`${id}-hint`}> {hint}</span>}</>;
}

/** The texts of a field's label and hint for this account and these options. */
function words(w: Wording | undefined, p: { account: Account; value: PlatformData }): string | undefined {
  return w === undefined ? undefined : wordingOf(w, p.value, view(p.account));
}

/** The items of an account's list (an account resource): `[key, value, label]`. */
function useListItems(r: AccountResourceList, accountId: string) {
  const q = useAccountList(r.path, accountId);
  const raw = q.data?.[r.list];
  const items = (Array.isArray(raw) ? (raw as Array<Record<string, unknown>>) : []).map((x) => ({ key: String(x[r.key ?? r.value]), value: String(x[r.value]), label: String(x[r.label]) }));
  return { items, error: q.error as Error | null };
}

/** Suggestions of a text input from an account's list (a `<datalist>`). */
function Suggestions({ list, id, accountId }: { list: AccountResourceList; id: string; accountId: string }) {
  const { items } = useListItems(list, accountId);
  return <datalist id={id}>{items.map((s) => <option key={s.key} value={s.value}>{s.label}</option>)}</datalist>;
}

function TextInput({ field: f, account, prefix, value, onChange }: FieldProps<TextField>) {
  const id = `${prefix}-${f.id}`;
  const hint = words(f.hint, { account, value });
  const listId = f.suggestions ? `${prefix}-${f.suggestions.listId}` : undefined;
  return (
    <>
      <div className="field">
        <Label id={id} label={words(f.label, { account, value })!} hint={hint} />
        <input id={id} type={f.inputType ?? 'text'} value={str(getOption(value, f.key))} onChange={(e) => onChange(setOption(value, f.key, e.target.value))}
          placeholder={words(f.placeholder, { account, value })} list={listId} maxLength={f.maxLength?.value} aria-describedby={hint ? `${id}-hint` : undefined} />
      </div>
      {f.suggestions && <Suggestions list={f.suggestions} id={listId!} accountId={account._id} />}
    </>
  );
}

/** A comma-separated list in one input (shown joined, stored as an array). */
function ListInput({ field: f, account, prefix, value, onChange }: FieldProps<ListField>) {
  const id = `${prefix}-${f.id}`;
  const hint = words(f.hint, { account, value });
  const items = getOption(value, f.key);
  const list = Array.isArray(items) ? (items as string[]) : [];
  return (
    <div className="field">
      <Label id={id} label={words(f.label, { account, value })!} hint={hint} />
      <input id={id} type="text" value={list.join(', ')} aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(setOption(value, f.key, e.target.value.split(',').map((x) => (f.stripAt ? x.trim().replace(/^@/, '') : x.trim())).filter(Boolean)))} />
    </div>
  );
}

function TextAreaInput({ field: f, account, prefix, value, onChange }: FieldProps<TextAreaField>) {
  const id = `${prefix}-${f.id}`;
  return (
    <div className="field">
      <label htmlFor={id}>{words(f.label, { account, value })}</label>
      <textarea id={id} className="short" value={str(getOption(value, f.key))} onChange={(e) => onChange(setOption(value, f.key, e.target.value))} maxLength={f.maxLength?.value} />
    </div>
  );
}

/** A select with short choices; what a choice means goes in the hint (long option text is cut off on a phone). */
function SelectInput({ field: f, account, prefix, value, onChange }: FieldProps<SelectField>) {
  const id = `${prefix}-${f.id}`;
  const hint = words(f.hint, { account, value });
  return (
    <div className="field">
      <Label id={id} label={words(f.label, { account, value })!} hint={hint} />
      <select id={id} value={str(getOption(value, f.key))} onChange={(e) => onChange(setOption(value, f.key, e.target.value || undefined))} aria-describedby={hint ? `${id}-hint` : undefined}>
        {choicesOf(f, view(account)).map((c) => {
          const disabled = !!c.disabledWhen && holds(c.disabledWhen, value, view(account));
          return <option key={c.value} value={c.value} disabled={disabled}>{c.label}{disabled ? c.disabledNote ?? '' : ''}</option>;
        })}
      </select>
    </div>
  );
}

/** A select of an account's list; its first choice stores nothing (the account's default applies). */
function ResourceSelectInput({ field: f, account, prefix, value, onChange }: FieldProps<ResourceSelectField>) {
  const id = `${prefix}-${f.id}`;
  const { items, error } = useListItems(f.resource, account._id);
  const hint = words(f.hint, { account, value });
  return (
    <div className="field">
      <Label id={id} label={words(f.label, { account, value })!} hint={hint} />
      <select id={id} value={str(getOption(value, f.key))} onChange={(e) => onChange(setOption(value, f.key, e.target.value))} aria-describedby={hint ? `${id}-hint` : undefined}>
        <option value="">{words(f.emptyLabel, { account, value })}</option>
        {items.map((b) => <option key={b.key} value={b.value}>{b.label}</option>)}
      </select>
      {error && f.resource.errorName && <span className="error-text">Could not load {f.resource.errorName}: {error.message}</span>}
    </div>
  );
}

function CheckboxInput({ field: f, account, value, onChange }: FieldProps<CheckboxField>) {
  const v = getOption(value, f.key);
  const checked = f.default ? v !== false : v === true;
  const set = (on: boolean) => {
    let next = setOption(value, f.key, on || f.unchecked !== 'unset' ? on : undefined);
    for (const k of f.alsoSets ?? []) next = setOption(next, k, on);
    if (!on) for (const [k, x] of Object.entries(f.onUncheck ?? {})) next = setOption(next, k, x);
    onChange(next);
  };
  return <label className="check"><input type="checkbox" checked={checked} onChange={(e) => set(e.target.checked)} /> {words(f.label, { account, value })}</label>;
}

function Note({ field: f, value, account }: FieldProps<NoteField>) {
  return <p className="hint">{f.texts.find((t) => holds(t.when, value, view(account)))?.text ?? ''}</p>;
}

/** A list of objects, each edited by the same inputs (Instagram's user tags). */
function RepeatInput({ field: f, prefix, value, onChange }: FieldProps<RepeatField>) {
  const raw = getOption(value, f.key);
  const items = Array.isArray(raw) ? (raw as Array<Record<string, unknown>>) : [];
  const setItems = (next: Array<Record<string, unknown>>) => onChange(setOption(value, f.key, next));
  const n = (s: string, i: number) => s.replace('{n}', String(i + 1));
  return (
    <fieldset className="sub-options">
      <legend>{f.legend}</legend>
      {items.map((item, i) => (
        <div key={i} className="form-row tag-row">
          {f.item.map((input) => {
            const id = `${prefix}-${f.id}-${i}-${input.id}`;
            const set = (v: unknown) => setItems(items.map((x, j) => (j === i ? { ...x, [input.key]: v } : x)));
            return (
              <div key={input.key} className={input.grow ? 'field grow' : 'field'}><label htmlFor={id}>{n(input.label, i)}</label>
                {input.kind === 'number'
                  ? <input id={id} type="number" min={input.min?.value} max={input.max?.value} step={input.step} value={item[input.key] as number} onChange={(e) => set(Number(e.target.value))} />
                  : <input id={id} value={str(item[input.key])} onChange={(e) => set(input.stripAt ? e.target.value.replace(/^@/, '') : e.target.value)} />}
              </div>
            );
          })}
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setItems(items.filter((_, j) => j !== i))}>{n(f.removeLabel, i)}</button>
        </div>
      ))}
      <button type="button" className="btn btn-sm" onClick={() => setItems([...items, { ...f.newItem }])}>{f.addLabel}</button>
    </fieldset>
  );
}

/** The replies of a thread (X, Threads, Bluesky): each one a post under the previous one. */
function ThreadReplies({ field: f, prefix, value, onChange }: FieldProps<ThreadRepliesField>) {
  const replies = repliesOf(value);
  const setReplies = (next: string[]) => onChange({ ...value, [REPLIES]: next });
  return (
    <div className="thread-items">
      {replies.map((r, i) => (
        <div key={i} className="field thread-item">
          <label htmlFor={`${prefix}-${f.id}-${i}`}>Reply {i + 1} in the thread</label>
          <textarea id={`${prefix}-${f.id}-${i}`} className="short" value={r} onChange={(e) => setReplies(replies.map((x, j) => (j === i ? e.target.value : x)))} />
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setReplies(replies.filter((_, j) => j !== i))}>Remove reply {i + 1}</button>
        </div>
      ))}
      <button type="button" className="btn btn-sm" onClick={() => setReplies([...replies, ''])}>Add a reply (thread)</button>
    </div>
  );
}

/**
 * An image uploaded like any media, then sent as the video's `mediaItems[].thumbnail` (YouTube's
 * custom thumbnail; the composer puts it there, see {@link videoThumbnailOf}).
 */
function ThumbnailInput({ field: f, prefix, value, onChange }: FieldProps<MediaThumbnailField>) {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = `${prefix}-${f.id}`;
  const url = str(value[f.key]);
  return (
    <div className="field">
      <label htmlFor={id}>{f.label}{f.hint && <> <span className="hint">{f.hint}</span></>}</label>
      <input id={id} type="file" accept={f.accept} onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (!file) return;
        setError(null);
        setProgress(0);
        uploadMedia(file, setProgress).then((up) => { setProgress(null); onChange({ ...value, [f.key]: up.url }); }, (err: Error) => { setProgress(null); setError(err.message); });
      }} />
      {progress !== null && <progress max={1} value={progress} aria-label="Uploading the thumbnail" />}
      {error && <span className="error-text" role="alert">{error}</span>}
      {url && (
        <span className="thumb-chosen"><img src={url} alt="Chosen thumbnail" />
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => onChange({ ...value, [f.key]: undefined })}>Remove thumbnail</button></span>
      )}
    </div>
  );
}

/** The fields of a description, in order: each by its kind (hidden ones and derived values render nothing). */
function Fields({ fields, ...p }: Omit<FieldProps<never>, 'field'> & { fields: readonly OptionField[] }) {
  return (
    <>
      {fields.map((f, i) => {
        if ('visibleWhen' in f && f.visibleWhen && !holds(f.visibleWhen, p.value, view(p.account))) return null;
        const key = 'key' in f ? f.key : `${f.kind}-${i}`;
        switch (f.kind) {
          case 'text': return <TextInput key={key} field={f} {...p} />;
          case 'list': return <ListInput key={key} field={f} {...p} />;
          case 'textarea': return <TextAreaInput key={key} field={f} {...p} />;
          case 'select': return <SelectInput key={key} field={f} {...p} />;
          case 'resource-select': return <ResourceSelectInput key={key} field={f} {...p} />;
          case 'checkbox': return <CheckboxInput key={key} field={f} {...p} />;
          case 'note': return <Note key={key} field={f} {...p} />;
          case 'repeat': return <RepeatInput key={key} field={f} {...p} />;
          case 'thread-replies': return <ThreadReplies key={key} field={f} {...p} />;
          case 'media-thumbnail': return <ThumbnailInput key={key} field={f} {...p} />;
          case 'group': return <div key={key} className={f.layout === 'row' ? 'check-row' : 'sub-options'}><Fields fields={f.fields} {...p} /></div>;
          case 'derived': return null;
        }
      })}
    </>
  );
}

/** Whether the composer has options for this platform. */
export function hasOptions(platform: string): boolean {
  return platformOptionsOf(platform).fields.length > 0;
}

/** The options of one target, in a titled group, as the platform's description (src/shared/platform-options.ts) lays them out. */
export function PlatformOptions({ account, value, onChange }: Props) {
  const spec = platformOptionsOf(account.platform);
  if (!spec.fields.length) return null;
  const label = PLATFORM_RULES[account.platform as PlatformName]?.label ?? account.platform;
  return (
    <fieldset className="platform-options">
      <legend>{label} options for @{account.username.replace(/^@/, '')}</legend>
      <Fields fields={spec.fields} account={account} prefix={`o-${account._id}`} value={value}
        onChange={(next) => onChange(settleOptions(account.platform, next, view(account)))} />
    </fieldset>
  );
}
