/**
 * A live preview of one target as its platform shows it in a feed: the account's name and
 * picture, the text as the platform cuts it before its "more" link, the title where the
 * platform has one, and the media laid out as the platform lays them out (a grid of up to
 * four on X and Bluesky, one image with carousel dots on Instagram, the first image of a pin,
 * a video by its first frame on YouTube and TikTok). A single item is shown whole in a box of its own
 * shape: vertical (Reels, Shorts, TikTok) 9:16, square 1:1, landscape 16:9; its size is the one
 * measured at upload or in the library, else read from the file. Approximate by nature: the rules
 * themselves are checked by the shared rule table, not here.
 */
import { useEffect, useState } from 'react';
import type { Account } from '../api.ts';
import { PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import { Avatar, VideoPoster } from '../components.tsx';
import { videoSize } from '../../lib/video-poster.ts';

/**
 * A media item as previewed; `thumbnail`: a video's own poster image (`mediaItems[].thumbnail`), else its first frame is shown.
 * `width`/`height`: its pixels when known (measured at upload, or the library's), else read from the file.
 */
export interface PreviewMedia { url: string; type: 'image' | 'video' | 'gif' | 'document'; altText?: string; thumbnail?: string; width?: number; height?: number }

type Shape = 'vertical' | 'square' | 'landscape';

/** The box a `width` × `height` item is shown in: vertical (taller than 10:11) 9:16, landscape (wider than 11:10) 16:9, else square. */
export function shapeOf(width: number, height: number): Shape {
  const ratio = width / height;
  return ratio < 10 / 11 ? 'vertical' : ratio > 11 / 10 ? 'landscape' : 'square';
}

/**
 * One item whole (contained, never cropped) in a box of its shape; `fallback` until its size is
 * known (the platform's usual shape), so the box changes at most once.
 */
function Framed({ m, fallback }: { m: PreviewMedia; fallback: Shape }) {
  const [measured, setMeasured] = useState<{ url: string; width: number; height: number } | null>(null);
  const known = m.width && m.height ? { width: m.width, height: m.height } : measured?.url === m.url ? measured : null;
  useEffect(() => {
    if (m.type !== 'video' || (m.width && m.height)) return;
    let live = true;
    void videoSize(m.url).then((s) => { if (live && s) setMeasured({ url: m.url, ...s }); });
    return () => { live = false; };
  }, [m.url, m.type, m.width, m.height]);
  const shape = known ? shapeOf(known.width, known.height) : fallback;
  return (
    <div className={`pv-box pv-box-${shape}`} data-shape={shape}>
      {m.type === 'video'
        ? <VideoPoster className="pv-media pv-fit" url={m.url} thumbnail={m.thumbnail} label={shape === 'vertical' ? 'Vertical video' : shape === 'square' ? 'Square video' : 'Video'} />
        : <img className="pv-media pv-fit" src={m.url} alt={m.altText ?? ''}
          onLoad={(e) => { const { naturalWidth: width, naturalHeight: height } = e.currentTarget; if (!(m.width && m.height) && width && height) setMeasured({ url: m.url, width, height }); }} />}
    </div>
  );
}

/** Characters shown before a feed cuts the text with its "more" link (what each platform shows on its web feed). */
const FEED_CUT: Partial<Record<PlatformName, number>> = {
  instagram: 125, facebook: 480, linkedin: 210, tiktok: 100, pinterest: 100, youtube: 160,
};

/** `text` as the feed shows it: whole, or cut at the platform's fold with its "more" label. */
export function feedText(platform: PlatformName, text: string): { shown: string; cut: boolean } {
  const max = FEED_CUT[platform];
  const chars = [...text];
  if (!max || chars.length <= max) return { shown: text, cut: false };
  return { shown: `${chars.slice(0, max).join('').trimEnd()}…`, cut: true };
}

function MediaLayout({ platform, media }: { platform: PlatformName; media: PreviewMedia[] }) {
  if (media.length === 0) return null;
  const visual = media.filter((m) => m.type !== 'document');
  const doc = media.find((m) => m.type === 'document');
  const one = (m: PreviewMedia) => (m.type === 'video'
    ? <VideoPoster className="pv-media" url={m.url} thumbnail={m.thumbnail} label="Video" />
    : <img className="pv-media" src={m.url} alt={m.altText ?? ''} />);
  if (doc && visual.length === 0) return <div className="pv-doc" aria-label="Document">PDF document</div>;
  // Carousels show the first item and dots; grids show up to four.
  if (platform === 'instagram' || platform === 'linkedin' || platform === 'pinterest' || platform === 'tiktok' || platform === 'threads' || platform === 'facebook' && visual.length > 4) {
    return (
      <div className="pv-carousel">
        <Framed m={visual[0]} fallback={platform === 'tiktok' ? 'vertical' : 'square'} />
        {visual.length > 1 && <div className="pv-dots" aria-label={`${visual.length} items`}>{visual.map((_, i) => <span key={i} className={i === 0 ? 'on' : ''} />)}</div>}
      </div>
    );
  }
  if (platform === 'youtube' || visual.length === 1) return <Framed m={visual[0]} fallback="landscape" />;
  // Two to four items: the platform's grid, each cell cropped to fill it.
  const shown = visual.slice(0, 4);
  return <div className={`pv-grid pv-grid-${shown.length}`}>{shown.map((m, i) => <div key={i} className="pv-cell">{one(m)}</div>)}</div>;
}

/** One platform's preview card. */
export function PostPreview({ account, text, media, data }: { account: Account; text: string; media: PreviewMedia[]; data: Record<string, unknown> }) {
  const platform = account.platform as PlatformName;
  const rule = PLATFORM_RULES[platform];
  const title = platform === 'reddit' || platform === 'youtube' || platform === 'pinterest'
    ? (typeof data.title === 'string' && data.title.trim() ? data.title.trim() : text.split(/\r?\n/)[0] ?? '')
    : '';
  // Reddit and YouTube put the first line in the title when no title is given; the rest is the body.
  const body = title && !(typeof data.title === 'string' && data.title.trim()) && (platform === 'reddit' || platform === 'youtube') ? text.split(/\r?\n/).slice(1).join('\n').trim() : text;
  const { shown, cut } = feedText(platform, body);
  const replies = Array.isArray(data.threadItems) ? (data.threadItems as Array<{ content: string }>).slice(1) : [];
  const name = account.displayName || account.username;
  return (
    <article className={`pv pv-${platform}`} aria-label={`${rule?.label ?? platform} preview`}>
      <header className="pv-head">
        <Avatar account={account} size={32} />
        <span className="pv-name"><strong>{name}</strong> <span className="muted">{platform === 'reddit' ? `r/${String(data.subreddit ?? account.defaultSubreddit ?? '…').replace(/^r\//, '')}` : `@${account.username.replace(/^@/, '')}`}</span></span>
      </header>
      {platform === 'reddit' || platform === 'youtube' ? <p className="pv-title">{title || <span className="muted">(no title)</span>}</p> : null}
      {platform === 'youtube' ? <MediaLayout platform={platform} media={media} /> : null}
      {shown && <p className="pv-text">{shown}{cut && <span className="pv-more"> more</span>}</p>}
      {platform !== 'youtube' && <MediaLayout platform={platform} media={media} />}
      {platform === 'pinterest' && title ? <p className="pv-title">{title}</p> : null}
      {replies.map((r, i) => <p key={i} className="pv-reply"><span aria-hidden="true">↳ </span>{r.content || <span className="muted">(empty reply)</span>}</p>)}
      {typeof data.firstComment === 'string' && data.firstComment.trim() && <p className="pv-comment"><strong>First comment:</strong> {data.firstComment}</p>}
    </article>
  );
}
