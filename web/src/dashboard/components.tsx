import { useEffect, useState, type ReactNode } from 'react';
import { ApiError, type PostStatus } from './api.ts';
import { PLATFORM_RULES, type PlatformName } from '../lib/platforms.ts';
import { videoPoster } from '../lib/video-poster.ts';

export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const e = error as Error;
  const api = error instanceof ApiError ? error : null;
  return (
    <div className="alert alert-error" role="alert">
      <strong>{title ?? 'Something went wrong'}:</strong> {e.message}
      {api && api.code !== 'ERROR' && <span className="muted"> ({api.status} {api.code})</span>}
      {api && Object.keys(api.fields).length > 0 && (
        <ul className="field-errors">{Object.entries(api.fields).map(([f, msgs]) => <li key={f}><code>{f}</code>: {msgs.join('; ')}</li>)}</ul>
      )}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return <p className="muted" role="status">{label}</p>;
}

const STATUS_CLASS: Record<string, string> = {
  draft: 's-draft', scheduled: 's-scheduled', publishing: 's-publishing', published: 's-published', failed: 's-failed', partial: 's-partial', cancelled: 's-cancelled',
  pending: 's-scheduled',
};

export function StatusBadge({ status }: { status: PostStatus | string }) {
  return <span className={`status-badge ${STATUS_CLASS[status] ?? ''}`}>{status}</span>;
}

/** The short mark drawn in each platform's icon (its brand colour behind it). */
const MARKS: Record<PlatformName, string> = {
  facebook: 'f', instagram: 'IG', linkedin: 'in', twitter: 'X', threads: '@', tiktok: '♪', youtube: '▶', pinterest: 'P', reddit: 'r/', bluesky: 'B',
};

/** Icon backgrounds where the brand colour is too light for a white mark (WCAG AA 4.5:1): the brand's darker shade. */
const ICON_BACKGROUND: Partial<Record<PlatformName, string>> = { facebook: '#1466d8', youtube: '#cc0000', reddit: '#c53d00', bluesky: '#0068d6' };

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
export const CAN_EDIT: ReadonlySet<string> = new Set(['draft', 'scheduled', 'failed', 'partial']);
export const CAN_DELETE: ReadonlySet<string> = new Set(['draft', 'scheduled', 'failed', 'partial', 'publishing', 'cancelled']);
export const CAN_RETRY: ReadonlySet<string> = new Set(['failed']);
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
