/**
 * Approvals on the dashboard (docs/decisions/0059-approvals.md): a post's review panel (state,
 * approve, request changes with a comment, submit again, a client review link, the history), its
 * comment thread (internal notes with mentions, and the client's comments), and a profile's
 * approval rule.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type PostView } from '../api.ts';
import { ErrorBox, Loading } from '../components.tsx';
import { localizeInstants } from '../../../../src/shared/instants.ts';
import { formatInZone, instantOf, timeFormat, wallTime } from '../time.ts';
import { toast } from '../ui/toast.ts';
import { useApproval, useApprovalRule, useComments, useReviewLinks, useTeamUsers, type Approval } from '../queries/approvals.ts';
import { useProfiles } from '../queries/profiles.ts';
import { ConfirmButton } from '../ui/confirm.tsx';
import { DateField } from '../ui/date-time.tsx';
import './approvals.css';

const STATE_LABEL: Record<Approval['state'], string> = {
  none: 'Not reviewed', pending: 'Waiting for approval', approved: 'Approved', changes_requested: 'Changes requested',
};
const EVENT_LABEL: Record<string, string> = { submitted: 'submitted it for review', approved: 'approved it', changes_requested: 'requested changes', edited: 'edited it' };

function useInvalidate(postId: string) {
  const qc = useQueryClient();
  return () => {
    for (const key of [['post', postId], ['approval', postId], ['comments', postId], ['posts']]) void qc.invalidateQueries({ queryKey: key });
  };
}

/**
 * Approve / request changes for one post (the post page, the "Needs review" list and the calendar's
 * review dialog). `onDone` runs after a decision was recorded (the calendar closes its dialog).
 */
export function DecisionButtons({ postId, compact = false, onDone }: { postId: string; compact?: boolean; onDone?: () => void }) {
  const invalidate = useInvalidate(postId);
  const [asking, setAsking] = useState(false);
  const [comment, setComment] = useState('');
  const approve = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/posts/{postId}/approve', { params: { path: { postId } }, body: comment.trim() ? { comment: comment.trim() } : {} })),
    // The API's message writes its times as UTC instants: shown in the dashboard's time format and zone.
    onSuccess: (r) => { toast({ title: 'Approved', body: localizeInstants(r.message, (at) => timeFormat.dateTime(at)), tone: 'ok' }); setComment(''); invalidate(); onDone?.(); },
  });
  const requestChanges = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/posts/{postId}/request-changes', { params: { path: { postId } }, body: { comment: comment.trim() } })),
    onSuccess: () => { toast({ title: 'Changes requested', body: 'The post is back with its author as a draft.', tone: 'ok' }); setComment(''); setAsking(false); invalidate(); onDone?.(); },
  });
  const id = `decide-${postId}${compact ? '-c' : ''}`;
  return (
    <div className="decision">
      {asking && (
        <div className="field">
          <label htmlFor={`${id}-comment`}>What should change?</label>
          <textarea id={`${id}-comment`} className="short" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={5000} />
        </div>
      )}
      <div className="button-row">
        {!asking && <button type="button" className="btn btn-primary" onClick={() => approve.mutate()} disabled={approve.isPending}>{approve.isPending ? 'Approving…' : 'Approve'}</button>}
        {asking
          ? <>
            <button type="button" className="btn btn-primary" onClick={() => requestChanges.mutate()} disabled={requestChanges.isPending || !comment.trim()}>Send back with comment</button>
            <button type="button" className="btn" onClick={() => setAsking(false)}>Cancel</button>
          </>
          : <button type="button" className="btn" onClick={() => setAsking(true)}>Request changes</button>}
      </div>
      <ErrorBox error={approve.error ?? requestChanges.error} title="Could not record the decision" />
    </div>
  );
}

function ReviewLinkMaker({ postId }: { postId: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const make = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/review-links', { body: { postId } })),
    onSuccess: (r) => setUrl(r.url),
  });
  return (
    <div className="review-link-maker">
      {url
        ? <p className="small">Client review link (valid 7 days, shown once): <input className="link-box" readOnly value={url} aria-label="Client review link" onFocus={(e) => e.currentTarget.select()} />
          {' '}<button type="button" className="btn btn-sm" onClick={() => { void navigator.clipboard?.writeText(url); toast({ title: 'Link copied', tone: 'ok' }); }}>Copy</button></p>
        : <button type="button" className="btn btn-sm" onClick={() => make.mutate()} disabled={make.isPending}>Create a client review link</button>}
      <ErrorBox error={make.error} title="Could not create the link" />
    </div>
  );
}

/** The review panel of the post page. */
export function ApprovalPanel({ post, tz }: { post: PostView; tz: string }) {
  const approval = useApproval(post._id);
  const invalidate = useInvalidate(post._id);
  const submit = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/posts/{postId}/submit', { params: { path: { postId: post._id } } })),
    onSuccess: () => { toast({ title: 'Submitted for review', tone: 'ok' }); invalidate(); },
  });
  if (approval.isLoading) return <Loading />;
  const a = approval.data;
  if (!a || (a.state === 'none' && !a.required && a.events.length === 0)) return null;
  return (
    <section className="card approval-panel" aria-labelledby="d-approval" data-state={a.state}>
      <h2 id="d-approval" className="small-title">Review</h2>
      <p><span className={`status-badge review-${a.state}`}>{STATE_LABEL[a.state]}</span></p>
      {a.state === 'pending' && (a.canApprove ? <DecisionButtons postId={post._id} /> : <p className="muted small">An approver of this profile decides; you will get a mail when they do.</p>)}
      {post.status === 'draft' && a.state === 'changes_requested' && (
        <div className="button-row">
          <button type="button" className="btn btn-primary" onClick={() => submit.mutate()} disabled={submit.isPending}>Submit again for review</button>
        </div>
      )}
      <ErrorBox error={submit.error} title="Could not submit" />
      {a.canApprove && a.state === 'pending' && <ReviewLinkMaker postId={post._id} />}
      <h3 className="small-title">History</h3>
      <ol className="review-history">
        {a.events.map((e) => (
          <li key={e._id}>
            <strong>{e.actor.name || 'Someone'}</strong>{e.actor.type === 'client' ? ' (client)' : ''} {EVENT_LABEL[e.kind] ?? e.kind}
            <span className="muted small"> · {formatInZone(e.createdAt, tz)}</span>
            {e.comment && <blockquote>{e.comment}</blockquote>}
            {typeof e.details.note === 'string' && <p className="small">{e.details.note}</p>}
            {Array.isArray(e.details.changed) && e.details.changed.length > 0 && <p className="muted small">Changed: {(e.details.changed as string[]).join(', ')}</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The post's comment thread: internal notes (with mentions) and the client's comments. */
export function CommentThread({ postId, tz }: { postId: string; tz: string }) {
  const comments = useComments(postId);
  const users = useTeamUsers();
  const invalidate = useInvalidate(postId);
  const [body, setBody] = useState('');
  const [mentions, setMentions] = useState<string[]>([]);
  const add = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/posts/{postId}/comments', { params: { path: { postId } }, body: { body: body.trim(), ...(mentions.length ? { mentions } : {}) } })),
    onSuccess: () => { setBody(''); setMentions([]); invalidate(); },
  });
  const nameOf = (id: string) => users.data?.find((u) => u._id === id)?.name || users.data?.find((u) => u._id === id)?.email || id;
  return (
    <section className="card comment-thread" aria-labelledby="d-comments">
      <h2 id="d-comments" className="small-title">Comments</h2>
      {comments.isLoading && <Loading />}
      {comments.data?.length === 0 && <p className="muted small">No comments yet. Internal notes are never shown to clients.</p>}
      <ul className="comments">
        {comments.data?.map((c) => (
          <li key={c._id} className={`comment comment-${c.visibility}`}>
            <p className="comment-head"><strong>{c.author.name || 'Someone'}</strong>
              {' '}<span className="badge">{c.visibility === 'client' ? 'Client' : 'Internal'}</span>
              <span className="muted small"> · {formatInZone(c.createdAt, tz)}</span></p>
            <p className="comment-body">{c.body}</p>
            {c.mentions.length > 0 && <p className="muted small">Mentioned: {c.mentions.map(nameOf).join(', ')}</p>}
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => { e.preventDefault(); if (body.trim()) add.mutate(); }}>
        <div className="field">
          <label htmlFor={`comment-${postId}`}>Internal note</label>
          <textarea id={`comment-${postId}`} className="short" value={body} onChange={(e) => setBody(e.target.value)} maxLength={5000} aria-describedby={`comment-${postId}-hint`} />
          <p id={`comment-${postId}-hint`} className="muted small">Write @ and a teammate's name or email (@Ana Lima, @ana@example.com) to mention them: they get a mail.</p>
        </div>
        {(users.data?.length ?? 0) > 1 && (
          <fieldset className="mentions">
            <legend className="small">Mention (they get a mail)</legend>
            {users.data!.map((u) => (
              <label key={u._id} className="check small">
                <input type="checkbox" checked={mentions.includes(u._id)} onChange={(e) => setMentions(e.target.checked ? [...mentions, u._id] : mentions.filter((m) => m !== u._id))} />
                {u.name || u.email}
              </label>
            ))}
          </fieldset>
        )}
        <ErrorBox error={add.error} title="Could not add the note" />
        <button type="submit" className="btn" disabled={add.isPending || !body.trim()}>Add note</button>
      </form>
    </section>
  );
}

/** A profile's approval rule on the Profiles page: shown to all, changed by the owner. */
export function ApprovalRuleSection({ profileId, isOwner }: { profileId: string; isOwner: boolean }) {
  const rule = useApprovalRule(profileId);
  const users = useTeamUsers();
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [required, setRequired] = useState(false);
  const [approvers, setApprovers] = useState<string[]>([]);
  const [client, setClient] = useState(false);
  const save = useMutation({
    mutationFn: () => unwrap(api.PUT('/v1/profiles/{profileId}/approval-rule', { params: { path: { profileId } }, body: { required, approverIds: approvers, clientApproval: client } })),
    onSuccess: () => { setEditing(false); void qc.invalidateQueries({ queryKey: ['approval-rule', profileId] }); toast({ title: 'Approval rule saved', tone: 'ok' }); },
  });
  if (!rule.data) return null;
  const r = rule.data;
  const members = (users.data ?? []).filter((u) => !u.isRoot);
  const start = () => { setRequired(r.required); setApprovers(r.approverIds); setClient(r.clientApproval); setEditing(true); };
  return (
    <div className="approval-rule">
      <h3 className="small-title accounts-title">Approvals</h3>
      {!editing && (
        <p className="small">
          {r.required
            ? <>Posts by members wait for approval{r.approverIds.length ? ` (approvers: the owner and ${r.approverIds.length} member${r.approverIds.length > 1 ? 's' : ''})` : ' by the owner'}{r.clientApproval ? '; the client may approve through a review link' : ''}.</>
            : 'Off: members publish without review.'}
          {' '}{isOwner && <button type="button" className="btn btn-sm" onClick={start}>Change<span className="sr-only"> approvals</span></button>}
        </p>
      )}
      {editing && (
        <form onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
          <label className="check"><input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} /> Require approval before members' posts go out</label>
          {members.length > 0 && (
            <fieldset className="mentions">
              <legend className="small">Members who may approve (the owner always may)</legend>
              {members.map((u) => (
                <label key={u._id} className="check small">
                  <input type="checkbox" checked={approvers.includes(u._id)} onChange={(e) => setApprovers(e.target.checked ? [...approvers, u._id] : approvers.filter((m) => m !== u._id))} />
                  {u.name || u.email}
                </label>
              ))}
            </fieldset>
          )}
          <label className="check"><input type="checkbox" checked={client} onChange={(e) => setClient(e.target.checked)} /> The client may approve through a review link</label>
          <ErrorBox error={save.error} title="Could not save the rule" />
          <div className="button-row">
            <button type="submit" className="btn btn-primary btn-sm" disabled={save.isPending}>Save</button>
            <button type="button" className="btn btn-sm" onClick={() => setEditing(false)}>Cancel</button>
          </div>
        </form>
      )}
    </div>
  );
}

/**
 * Client review links of a week of a profile's posts, and every link with its state and a revoke
 * button (the "Needs review" page). The link's address is shown once, when it is made.
 */
export function ReviewLinksSection({ tz }: { tz: string }) {
  const profiles = useProfiles();
  const links = useReviewLinks();
  const qc = useQueryClient();
  const today = wallTime(new Date(), tz);
  const [profileId, setProfileId] = useState('');
  const [start, setStart] = useState(`${today.year}-${String(today.month).padStart(2, '0')}-${String(today.day).padStart(2, '0')}`);
  const [url, setUrl] = useState<string | null>(null);
  const chosen = profileId || profiles.data?.[0]?._id || '';
  const make = useMutation({
    mutationFn: () => {
      const [year, month, day] = start.split('-').map(Number);
      const from = instantOf({ year, month, day, hour: 0, minute: 0 }, tz);
      const to = new Date(from.getTime() + 7 * 86_400_000);
      const name = profiles.data?.find((p) => p._id === chosen)?.name ?? '';
      return unwrap(api.POST('/v1/review-links', { body: { profileId: chosen, from: from.toISOString(), to: to.toISOString(), label: `${name}: week of ${formatInZone(from, tz, { dateStyle: 'medium' })}` } }));
    },
    onSuccess: (r) => { setUrl(r.url); void qc.invalidateQueries({ queryKey: ['review-links'] }); },
  });
  const revoke = useMutation({
    mutationFn: (linkId: string) => unwrap(api.DELETE('/v1/review-links/{linkId}', { params: { path: { linkId } } })),
    onSuccess: () => { toast({ title: 'Link revoked', body: 'It stops working at once.', tone: 'ok' }); void qc.invalidateQueries({ queryKey: ['review-links'] }); },
  });
  const profileName = (id: string | null) => profiles.data?.find((p) => p._id === id)?.name ?? '';
  return (
    <section className="card" aria-labelledby="review-links">
      <h2 id="review-links" className="small-title">Client review links</h2>
      <p className="muted small">A link shows a week of a profile's posts (those waiting for or through review) to your client, who approves, requests changes or comments without a Herald login.</p>
      <form className="form-row" onSubmit={(e) => { e.preventDefault(); setUrl(null); make.mutate(); }}>
        <div className="field">
          <label htmlFor="rl-profile">Profile</label>
          <select id="rl-profile" value={chosen} onChange={(e) => setProfileId(e.target.value)}>
            {profiles.data?.map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}
          </select>
        </div>
        <DateField id="rl-start" label="Week starting" value={start} onChange={setStart} isRequired />
        <button type="submit" className="btn" disabled={make.isPending || !chosen}>Create week link</button>
      </form>
      <ErrorBox error={make.error} title="Could not create the link" />
      {url && <p className="small">Send this link to your client (shown once): <input className="link-box" readOnly value={url} aria-label="Week review link" onFocus={(e) => e.currentTarget.select()} /></p>}
      {(links.data?.length ?? 0) > 0 && (
        <ul className="review-links">
          {links.data!.map((l) => (
            <li key={l._id} className="review-link-row">
              <span><strong>{l.label || (l.kind === 'post' ? 'One post' : profileName(l.profileId))}</strong>
                <span className="muted small"> · {l.kind === 'post' ? 'one post' : 'a week'} · {l.revokedAt ? 'revoked' : l.active ? `valid until ${formatInZone(l.expiresAt, tz)}` : 'expired'}</span></span>
              {l.active && <ConfirmButton className="btn btn-sm btn-danger" title="Revoke this review link?" message="The client's page stops working at once." confirmLabel="Revoke link"
                onConfirm={() => revoke.mutate(l._id)} isDisabled={revoke.isPending}>Revoke<span className="sr-only"> {l.label}</span></ConfirmButton>}
            </li>
          ))}
        </ul>
      )}
      <ErrorBox error={revoke.error} title="Could not revoke the link" />
    </section>
  );
}
