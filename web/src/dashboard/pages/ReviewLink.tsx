/**
 * The client's review page at /review/{token} (docs/decisions/0059-approvals.md): no Herald login,
 * the token is the credential. Each post as it will look on each platform (the composer's preview,
 * drawn from src/shared/platform-preview.ts), its time, the decisions and the client's comments,
 * with approve, request changes and comment. Reads and writes only /review-api/{token}/...
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiError, rawRequest, type Account } from '../api.ts';
import { PostPreview, type PreviewMedia } from '../composer/Preview.tsx';
import { browserTimeZone, formatInZone } from '../time.ts';
import './approvals.css';

interface ClientPost {
  _id: string; title: string | null; content: string; scheduledFor: string | null; timezone: string; status: string;
  review: { state: 'none' | 'pending' | 'approved' | 'changes_requested' };
  mediaItems: PreviewMedia[];
  platforms: Array<{ platform: string; username: string; displayName: string; content: string; data: Record<string, unknown> }>;
  decisions: Array<{ kind: string; name: string; comment: string | null; createdAt: string }>;
  comments: Array<{ _id: string; name: string; fromClient: boolean; body: string; createdAt: string }>;
}
interface ClientView {
  link: { kind: 'post' | 'batch'; label: string; profileName: string; from: string | null; to: string | null; expiresAt: string; canApprove: boolean };
  posts: ClientPost[];
}

const STATE: Record<ClientPost['review']['state'], string> = { none: 'Not reviewed', pending: 'Waiting for your approval', approved: 'Approved', changes_requested: 'Changes requested' };

function PostCard({ token, post, canApprove, name, tz, onChanged }: { token: string; post: ClientPost; canApprove: boolean; name: string; tz: string; onChanged: (p: ClientPost, message: string) => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (path: string, body: Record<string, unknown>) => {
    setBusy(true); setError(null);
    try {
      const r = await rawRequest<{ message: string; post: ClientPost }>('POST', `/review-api/${token}/posts/${post._id}/${path}`, { ...body, ...(name.trim() ? { name: name.trim() } : {}) });
      setText('');
      const when = r.post.scheduledFor ? formatInZone(r.post.scheduledFor, tz) : null;
      onChanged(r.post, path === 'approve' ? `Approved${when ? `: it publishes on ${when}` : ''}. Thank you!`
        : path === 'request-changes' ? 'Sent back to the team with your comment.' : 'Comment sent to the team.');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally { setBusy(false); }
  };
  const id = `rv-${post._id}`;
  return (
    <article className="rv-post" aria-labelledby={`${id}-h`}>
      <div className="rv-post-head">
        <h2 id={`${id}-h`} className="small-title">{post.scheduledFor ? formatInZone(post.scheduledFor, tz) : 'Publishes once approved'}</h2>
        <span className={`status-badge review-${post.review.state}`}>{STATE[post.review.state]}</span>
      </div>
      <div className="rv-previews">
        {post.platforms.map((t, i) => (
          <PostPreview key={i} text={t.content} media={post.mediaItems} data={t.data}
            account={{ platform: t.platform, username: t.username || t.platform, displayName: t.displayName } as unknown as Account} />
        ))}
      </div>
      {(post.decisions.length > 0 || post.comments.length > 0) && (
        <div className="rv-thread">
          <h3 className="small-title">Conversation</h3>
          <ul className="comments">
            {post.decisions.map((d, i) => (
              <li key={`d${i}`} className="comment"><p className="comment-head"><strong>{d.name}</strong> {d.kind === 'approved' ? 'approved' : 'requested changes'}
                <span className="muted small"> · {formatInZone(d.createdAt, tz)}</span></p>{d.comment && <p className="comment-body">{d.comment}</p>}</li>
            ))}
            {post.comments.map((c) => (
              <li key={c._id} className={`comment${c.fromClient ? ' comment-client' : ''}`}><p className="comment-head"><strong>{c.name}</strong>
                <span className="muted small"> · {formatInZone(c.createdAt, tz)}</span></p><p className="comment-body">{c.body}</p></li>
            ))}
          </ul>
        </div>
      )}
      <div className="rv-actions">
        <div className="field">
          <label htmlFor={`${id}-text`}>Comment or requested changes</label>
          <textarea id={`${id}-text`} className="short" value={text} onChange={(e) => setText(e.target.value)} maxLength={5000} />
        </div>
        <div className="button-row">
          {canApprove && post.review.state === 'pending' && <>
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void act('approve', text.trim() ? { comment: text.trim() } : {})}>Approve</button>
            <button type="button" className="btn" disabled={busy || !text.trim()} onClick={() => void act('request-changes', { comment: text.trim() })}>Request changes</button>
          </>}
          <button type="button" className="btn" disabled={busy || !text.trim()} onClick={() => void act('comments', { body: text.trim() })}>Comment</button>
        </div>
        {error && <p className="alert alert-error" role="alert">{error}</p>}
      </div>
    </article>
  );
}

export default function ReviewLinkPage() {
  const token = decodeURIComponent(window.location.pathname.replace(/^\/review\//, '').replace(/\/+$/, ''));
  const [view, setView] = useState<ClientView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [name, setName] = useState(() => localStorage.getItem('herald.review.name') ?? '');
  const tz = browserTimeZone();
  const load = useCallback(() => {
    rawRequest<ClientView>('GET', `/review-api/${encodeURIComponent(token)}`).then(setView, (err: unknown) => {
      setError(err instanceof ApiError && err.status === 404 ? 'This review link is unknown, expired or revoked. Ask for a new one.' : err instanceof Error ? err.message : String(err));
    });
  }, [token]);
  useEffect(() => { document.title = 'Review posts · Herald'; load(); }, [load]);
  useEffect(() => { localStorage.setItem('herald.review.name', name); }, [name]);
  return (
    <main className="rv" id="main">
      <header className="rv-head">
        <h1>{view?.link.label || (view?.link.profileName ? `Posts for ${view.link.profileName}` : 'Review posts')}</h1>
        {view && <p className="muted small">Link valid until {formatInZone(view.link.expiresAt, tz)}</p>}
      </header>
      {error && <p className="alert alert-error" role="alert">{error}</p>}
      {!view && !error && <p className="muted" role="status">Loading…</p>}
      {view && (
        <>
          <div className="field narrow">
            <label htmlFor="rv-name">Your name <span className="hint">(shown to the team)</span></label>
            <input id="rv-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="name" />
          </div>
          {notice && <p className="alert alert-ok" role="status">{notice}</p>}
          {view.posts.length === 0 && <p className="empty">No posts to review in this link.</p>}
          {view.posts.map((p) => (
            <PostCard key={p._id} token={token} post={p} canApprove={view.link.canApprove} name={name} tz={tz}
              onChanged={(np, message) => { setNotice(message); setView({ ...view, posts: view.posts.map((x) => (x._id === np._id ? np : x)) }); }} />
          ))}
        </>
      )}
      <p className="muted small rv-foot">Shared with you for review through Herald. This page shows only these posts.</p>
    </main>
  );
}
