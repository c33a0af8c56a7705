/**
 * The post page's "Recycle" section (docs/decisions/0061-recycling.md): a post's recycling state
 * (interval, next and last copy, copies made, the variations in turn), a form to set it up or change
 * it, pause/resume and remove. Every change is `PUT /v1/posts/{id}` with only `recycling` in the body,
 * which works on a published post too. A recycled copy links to its source.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap, type PostView } from '../api.ts';
import { ErrorBox } from '../components.tsx';
import { formatInZone, instantOf, wallTime } from '../time.ts';
import { toast } from '../ui/toast.ts';
import { ConfirmButton } from '../ui/confirm.tsx';
import { DateField } from '../ui/date-time.tsx';
import { RECYCLE_EXCLUDED_PLATFORMS, RECYCLE_GAP_MAX, RECYCLE_MAX_ACTIVE_PER_ACCOUNT, RECYCLE_MAX_VARIATIONS, RECYCLE_DUPLICATE_WINDOWS } from '../../../../src/shared/recycling.ts';
import type { PlatformId } from '../../../../src/shared/platforms.ts';
import './recycling.css';

type Recycling = NonNullable<PostView['recycling']>;
type Body = { recycling: Record<string, unknown> | null };

/** The form's fields, as text (what the inputs hold). */
interface Draft { gap: string; unit: 'week' | 'month'; expireCount: string; expireDate: string; variations: string[] }

const draftOf = (r: Recycling | undefined, tz: string): Draft => ({
  gap: String(r?.gap ?? 1), unit: r?.gapFreq ?? 'month', expireCount: r?.expireCount ? String(r.expireCount) : '',
  expireDate: r?.expireDate ? dayOf(r.expireDate, tz) : '',
  variations: r?.contentVariations?.length ? [...r.contentVariations] : [],
});

/** `YYYY-MM-DD` of an instant in `tz` (a date input's value). */
function dayOf(iso: string, tz: string): string {
  const w = wallTime(new Date(iso), tz);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** Active, paused by the user, or finished (expireCount or expireDate reached). */
function stateOf(r: Recycling): 'Active' | 'Paused' | 'Finished' {
  if (r.enabled) return 'Active';
  const ended = (r.expireCount !== undefined && r.recycleCount >= r.expireCount) || (r.expireDate !== undefined && Date.parse(r.expireDate) < Date.now());
  return ended ? 'Finished' : 'Paused';
}

const every = (r: Pick<Recycling, 'gap' | 'gapFreq'>) => `Every ${r.gap === 1 ? '' : `${r.gap} `}${r.gapFreq}${r.gap === 1 ? '' : 's'}`;

/** Where the post page shows recycling: the state and its controls, or "Recycled copy of ..." on a copy. */
export function RecycleSection({ post, tz }: { post: PostView; tz: string }) {
  const qc = useQueryClient();
  const r = post.recycling;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => draftOf(r, tz));
  const save = useMutation({
    mutationFn: (body: Body) => unwrap(api.PUT('/v1/posts/{postId}', { params: { path: { postId: post._id } }, body: body as never })),
    onSuccess: (res) => {
      setEditing(false);
      toast({ title: res.message, tone: 'ok' });
      void qc.invalidateQueries({ queryKey: ['post', post._id] }); void qc.invalidateQueries({ queryKey: ['posts'] });
    },
  });
  const platforms = [...new Set(post.platforms.map((t) => t.platform as PlatformId))];
  const excluded = platforms.filter((p) => RECYCLE_EXCLUDED_PLATFORMS.includes(p));
  const needsVariations = platforms.filter((p) => RECYCLE_DUPLICATE_WINDOWS[p]?.hours === null);
  const copyOf = post.recycledFromPostId;

  const submit = () => {
    const [y, m, d] = draft.expireDate.split('-').map(Number);
    const variations = draft.variations.map((v) => v.trim()).filter(Boolean);
    save.mutate({ recycling: {
      enabled: true, gap: Number(draft.gap), gapFreq: draft.unit,
      expireCount: draft.expireCount ? Number(draft.expireCount) : null,
      // The end of the chosen day in the dashboard's time zone.
      expireDate: draft.expireDate ? instantOf({ year: y, month: m, day: d, hour: 23, minute: 59 }, tz).toISOString() : null,
      contentVariations: variations,
    } });
  };
  const start = () => { setDraft(draftOf(r, tz)); save.reset(); setEditing(true); };
  const setVariation = (i: number, v: string) => setDraft({ ...draft, variations: draft.variations.map((x, j) => (j === i ? v : x)) });

  return (
    <section className="card recycle" aria-labelledby="d-recycle">
      <h2 id="d-recycle" className="small-title">Recycle</h2>
      {copyOf && <p className="small">This post is a recycled copy of <Link href={`/posts/${copyOf}`}>its source post</Link>.</p>}
      {!r && !editing && !copyOf && (
        <p className="small">
          {excluded.length > 0
            ? <>Posts to {excluded.join(' and ')} cannot be recycled.</>
            : !post.scheduledFor
              ? <>Give the post a time first: copies are counted from it.</>
              : <>Publish this post again every few weeks or months, as a copy of its own.</>}
          {' '}{excluded.length === 0 && post.scheduledFor && post.status !== 'cancelled' && <button type="button" className="btn btn-sm" onClick={start}>Set up recycling</button>}
        </p>
      )}
      {r && !editing && (
        <>
          <p className="recycle-state">
            <span className={`badge recycle-${stateOf(r).toLowerCase()}`}>{stateOf(r)}</span>
            <span>{every(r)}</span>
          </p>
          <dl className="facts">
            <dt>Next copy</dt><dd>{r.nextRecycleAt ? formatInZone(r.nextRecycleAt, tz) : '—'}{r.nextRecycleAt && (post.status !== 'published' && post.status !== 'partial') ? ' (once this post is published)' : ''}</dd>
            <dt>Copies made</dt><dd>{r.recycleCount}{r.expireCount ? ` of ${r.expireCount}` : ''}</dd>
            {r.lastRecycledAt && <><dt>Last copy</dt><dd>{formatInZone(r.lastRecycledAt, tz)}</dd></>}
            {r.expireDate && <><dt>Ends</dt><dd>{formatInZone(r.expireDate, tz)}</dd></>}
            <dt>Counted from</dt><dd>{formatInZone(r.startDate, tz)}</dd>
          </dl>
          {r.contentVariations && (
            <ol className="recycle-variations small" aria-label="Content variations">
              {r.contentVariations.map((v, i) => <li key={i} data-next={i === r.contentVariationIndex ? 'true' : undefined}>{v}{i === r.contentVariationIndex && r.enabled && <span className="badge recycle-next">next</span>}</li>)}
            </ol>
          )}
          <div className="button-row">
            <button type="button" className="btn btn-sm" onClick={start}>Change</button>
            <button type="button" className="btn btn-sm" disabled={save.isPending} onClick={() => save.mutate({ recycling: { enabled: !r.enabled } })}>{r.enabled ? 'Pause' : 'Resume'}</button>
            <ConfirmButton title="Stop recycling?" message="No more copies are made; the copies already made stay." confirmLabel="Stop recycling" onConfirm={() => save.mutate({ recycling: null })} isDisabled={save.isPending}>Stop</ConfirmButton>
          </div>
        </>
      )}
      {editing && (
        <form className="recycle-form" onSubmit={(e) => { e.preventDefault(); submit(); }}>
          <div className="form-row">
            <div className="field">
              <label htmlFor="rc-gap">Every</label>
              <input id="rc-gap" type="number" min={1} max={RECYCLE_GAP_MAX} required value={draft.gap} onChange={(e) => setDraft({ ...draft, gap: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor="rc-unit">Unit</label>
              <select id="rc-unit" value={draft.unit} onChange={(e) => setDraft({ ...draft, unit: e.target.value as Draft['unit'] })}>
                <option value="week">weeks</option><option value="month">months</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="rc-count">Stop after (copies)</label>
              <input id="rc-count" type="number" min={1} placeholder="no limit" value={draft.expireCount} onChange={(e) => setDraft({ ...draft, expireCount: e.target.value })} />
            </div>
            <DateField id="rc-until" label="Stop after (date)" value={draft.expireDate} onChange={(v) => setDraft({ ...draft, expireDate: v })} />
          </div>
          <fieldset className="recycle-variations-edit">
            <legend className="small">Content variations, used in turn (none: every copy repeats the post's text; otherwise at least 2)</legend>
            {needsVariations.length > 0 && <p className="muted small">{needsVariations.map((p) => (p === 'twitter' ? 'X' : p)).join(', ')} refuses duplicate posts: give at least 2 variations.</p>}
            {draft.variations.map((v, i) => (
              <div key={i} className="recycle-variation">
                <label className="sr-only" htmlFor={`rc-v${i}`}>Variation {i + 1}</label>
                <textarea id={`rc-v${i}`} className="short" value={v} onChange={(e) => setVariation(i, e.target.value)} placeholder={`Variation ${i + 1}`} />
                <button type="button" className="btn btn-sm" onClick={() => setDraft({ ...draft, variations: draft.variations.filter((_, j) => j !== i) })}>Remove<span className="sr-only"> variation {i + 1}</span></button>
              </div>
            ))}
            {draft.variations.length < RECYCLE_MAX_VARIATIONS && <button type="button" className="btn btn-sm" onClick={() => setDraft({ ...draft, variations: [...draft.variations, ''] })}>Add variation</button>}
          </fieldset>
          <p className="muted small">At most {RECYCLE_MAX_ACTIVE_PER_ACCOUNT} posts recycle per account. Copies count toward your plan's monthly posts.</p>
          <ErrorBox error={save.error} title="Could not save recycling" />
          <div className="button-row">
            <button type="submit" className="btn btn-primary btn-sm" disabled={save.isPending}>Save</button>
            <button type="button" className="btn btn-sm" onClick={() => setEditing(false)}>Cancel</button>
          </div>
        </form>
      )}
      {!editing && <ErrorBox error={save.error} title="Could not change recycling" />}
    </section>
  );
}
