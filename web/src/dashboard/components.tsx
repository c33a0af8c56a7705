import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ApiError, type PostStatus } from './api.ts';
import { PLATFORM_RULES, type PlatformName } from '../lib/platforms.ts';
import { videoPoster } from '../lib/video-poster.ts';

/** Words for the fields a validation error names (details.fields paths); others are spelled out from the path. */
const FIELD_LABELS: Record<string, string> = {
  content: 'Text', scheduledFor: 'Date and time', timezone: 'Time zone', platforms: 'Accounts', mediaItems: 'Media', accountId: 'account',
  customContent: 'custom text', platformSpecificData: 'options', subreddit: 'subreddit', defaultSubreddit: 'Default subreddit', title: 'title',
  url: 'URL', name: 'Name', email: 'Email', password: 'Password', description: 'Description', queueSlots: 'Queue slots', slots: 'Slots',
  boardId: 'board', firstComment: 'first comment', threadItems: 'thread', altText: 'alt text', customHeaders: 'Custom headers', events: 'Events',
};

/** A field path of the API (`platforms.0.accountId`) in words (“Accounts 1: account”). */
export function fieldLabel(path: string): string {
  const parts = path.replace(/^body\.?/, '').split(/[.[\]/]+/).filter(Boolean);
  if (parts.length === 0) return 'The request';
  const words = parts.map((p) => (/^\d+$/.test(p) ? String(Number(p) + 1) : FIELD_LABELS[p] ?? p.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase()));
  let label = words[0].charAt(0).toUpperCase() + words[0].slice(1);
  for (let i = 1; i < words.length; i++) label += /^\d+$/.test(words[i]) ? ` ${words[i]}` : `${/^\d+$/.test(words[i - 1]) ? ':' : ','} ${words[i]}`;
  return label;
}

/** The input a field path names on the page, if any: its `data-field` or `name` is the path or its last part, or its id ends with `-<last part>`. */
function inputFor(path: string): HTMLElement | null {
  const last = path.split('.').pop() ?? path;
  for (const sel of [`[data-field="${path}"]`, `[name="${path}"]`, `[data-field="${last}"]`, `[name="${last}"]`, `main input[id$="-${last}"], main select[id$="-${last}"], main textarea[id$="-${last}"]`]) {
    try { const el = document.querySelector<HTMLElement>(sel); if (el) return el; } catch { /* an odd path */ }
  }
  return null;
}

/** What an error means for the user, in words, without its machine code. */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) {
    const msg = (error as Error)?.message ?? String(error);
    return /Failed to fetch|NetworkError|Load failed/i.test(msg) ? 'Herald could not be reached. Check your connection and try again.' : msg;
  }
  switch (error.code) {
    case 'RATE_LIMITED': return 'Too many requests in a short time. Wait a minute, then try again.';
    case 'DATABASE_UNAVAILABLE': case 'SERVICE_UNAVAILABLE': return 'Herald cannot do this right now (its database is not answering). Try again in a few seconds.';
    case 'FORBIDDEN': case 'insufficient_permissions': return `${error.message}. Your role does not allow this: ask the account owner.`.replace(/\.\./g, '.');
    case 'NOT_FOUND': return `${error.message}. It may have been deleted meanwhile.`.replace(/\.\./g, '.');
    case 'STORAGE_FULL': return 'The server\'s disk is full, so the file was not saved. Ask your Herald administrator to free space.';
    case 'INTERNAL_ERROR': return `Something went wrong on the server.${error.requestId ? ` If it happens again, give your administrator this reference: ${error.requestId}.` : ''}`;
    default: return error.message;
  }
}

/**
 * An error in words with the way out: an upgrade link for a plan limit or a missing add-on, the
 * fields to fix for a validation error (each a button that goes to its input when the page has it).
 */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const fields = api ? Object.entries(api.fields) : [];
  const upgrade = api && (api.code === 'PLAN_LIMIT_REACHED' || api.code === 'PAYMENT_REQUIRED' || api.code === 'analytics_addon_required');
  return (
    <div className="alert alert-error" role="alert">
      <strong>{title ?? 'Something went wrong'}:</strong> {errorText(error)}
      {upgrade && <> <Link href="/billing" className="error-way-out">{api.code === 'PLAN_LIMIT_REACHED' ? 'Upgrade your plan' : 'Add it on the Billing page'}</Link> <span className="muted small">(or see <Link href="/usage">Usage &amp; plan</Link>)</span></>}
      {fields.length > 0 && (
        <>
          <p className="field-errors-intro">{fields.length === 1 ? 'Fix this field:' : 'Fix these fields:'}</p>
          <ul className="field-errors">{fields.map(([f, msgs]) => {
            const label = fieldLabel(f);
            return (
              <li key={f} data-field-error={f}>
                <FieldLink path={f} label={label} />: {msgs.join('; ')}
              </li>
            );
          })}</ul>
        </>
      )}
    </div>
  );
}

/** A field's name; a button that focuses its input when the page has one. */
function FieldLink({ path, label }: { path: string; label: string }) {
  const [input, setInput] = useState<HTMLElement | null>(null);
  useEffect(() => { setInput(inputFor(path)); }, [path]);
  if (!input) return <strong>{label}</strong>;
  return <button type="button" className="link-btn" onClick={() => { input.scrollIntoView({ block: 'center' }); input.focus(); }}>{label}</button>;
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return <p className="muted" role="status">{label}</p>;
}

const STATUS_CLASS: Record<string, string> = {
  draft: 's-draft', pending_approval: 's-pending_approval', scheduled: 's-scheduled', publishing: 's-publishing', published: 's-published', failed: 's-failed', partial: 's-partial', cancelled: 's-cancelled',
  pending: 's-scheduled',
};

export function StatusBadge({ status }: { status: PostStatus | string }) {
  return <span className={`status-badge ${STATUS_CLASS[status] ?? ''}`}>{status}</span>;
}

/** The short mark drawn in each platform's icon (its brand colour behind it). */
const MARKS: Record<PlatformName, string> = {
  facebook: 'f', instagram: 'IG', linkedin: 'in', twitter: 'X', threads: '@', tiktok: '♪', youtube: '▶', pinterest: 'P', reddit: 'r/', bluesky: 'B', googlebusiness: 'G', discord: 'D', telegram: '✈', mastodon: 'M',
};

/** Icon backgrounds where the brand colour is too light for a white mark (WCAG AA 4.5:1): the brand's darker shade. */
const ICON_BACKGROUND: Partial<Record<PlatformName, string>> = { facebook: '#1466d8', youtube: '#cc0000', reddit: '#c53d00', bluesky: '#0068d6', googlebusiness: '#1967d2', telegram: '#0b6fa4', mastodon: '#5253e0' };

/** A platform's icon: its mark on its brand colour. Decorative (the name is always written next to it). */
export function PlatformIcon({ platform, size = 18 }: { platform: string; size?: number }) {
  const rule = PLATFORM_RULES[platform as PlatformName];
  return (
    <span className="picon" aria-hidden="true" style={{ background: ICON_BACKGROUND[platform as PlatformName] ?? rule?.brand ?? '#666', width: size, height: size, fontSize: Math.round(size * 0.5) }}>
      {MARKS[platform as PlatformName] ?? platform.slice(0, 1).toUpperCase()}
    </span>
  );
}

export function PlatformBadge({ platform, children }: { platform: string; children?: ReactNode }) {
  const rule = PLATFORM_RULES[platform as PlatformName];
  return (
    <span className="platform-badge">
      <PlatformIcon platform={platform} size={16} />
      {children ?? rule?.label ?? platform}
    </span>
  );
}

/** An account's picture (the one the API returns), else its initial; the platform's icon in the corner. Decorative. */
export function Avatar({ account, size = 28 }: { account: { platform: string; profilePicture?: string | null; displayName?: string; username: string }; size?: number }) {
  const name = account.displayName || account.username;
  return (
    <span className="avatar" style={{ width: size, height: size }} aria-hidden="true">
      {account.profilePicture
        ? <img src={account.profilePicture} alt="" width={size} height={size} loading="lazy" referrerPolicy="no-referrer" onError={(e) => { e.currentTarget.style.display = 'none'; }} />
        : null}
      <span className="avatar-initial" style={{ fontSize: Math.round(size * 0.45) }}>{name.replace(/^@/, '').slice(0, 1).toUpperCase()}</span>
      <span className="avatar-platform"><PlatformIcon platform={account.platform} size={Math.max(12, Math.round(size * 0.45))} /></span>
    </span>
  );
}

export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-title">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}

/** Post statuses that allow each action (docs/decisions/0004-status-table.md). */
export const CAN_EDIT: ReadonlySet<string> = new Set(['draft', 'pending_approval', 'scheduled', 'failed', 'partial']);
/** Partial posts are kept: they have live content (the server refuses to delete them). */
export const CAN_DELETE: ReadonlySet<string> = new Set(['draft', 'pending_approval', 'scheduled', 'failed', 'publishing', 'cancelled']);
/** Failed posts, and partly failed ones (their failed platforms only: docs/decisions/0004-status-table.md). */
export const CAN_RETRY: ReadonlySet<string> = new Set(['failed', 'partial']);
/** Statuses whose published targets can be deleted from their platforms (POST /v1/posts/{id}/unpublish). */
export const CAN_UNPUBLISH: ReadonlySet<string> = new Set(['published', 'partial']);

/**
 * A video shown by its poster frame (read in the browser once per URL, ../lib/video-poster.ts)
 * with a play mark; the mark on a plain box until the frame is read, or when it cannot be.
 * `thumbnail`: the video's own poster image (the post's `mediaItems[].thumbnail`), shown instead.
 * `label`: the accessible name (an image of the video); without it the poster is decorative.
 */
export function VideoPoster({ url, thumbnail, className, label }: { url: string; thumbnail?: string; className?: string; label?: string }) {
  const [poster, setPoster] = useState<string | null>(null);
  useEffect(() => {
    if (thumbnail) return;
    let live = true;
    setPoster(null);
    void videoPoster(url).then((p) => { if (live) setPoster(p); });
    return () => { live = false; };
  }, [url, thumbnail]);
  const shown = thumbnail ?? poster;
  return (
    <span className={`video-poster${className ? ` ${className}` : ''}`} data-poster={thumbnail ? 'thumbnail' : poster ? 'frame' : 'none'} {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}>
      {shown && <img src={shown} alt="" />}
      <span className="video-play" aria-hidden="true">▶</span>
    </span>
  );
}
