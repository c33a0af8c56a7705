/**
 * A live preview of one target as its platform shows it in a feed: the account's name and
 * picture, the text as the platform cuts it before its "more" link, the title where the
 * platform has one, and the media laid out as the platform lays them out (a grid of up to
 * four on X and Bluesky, one image with carousel dots on Instagram, the first image of a pin,
 * a video by its first frame on YouTube and TikTok). A single item is shown whole in a box of its own
 * shape: vertical (Reels, Shorts, TikTok) 9:16, square 1:1, landscape 16:9; its size is the one
 * measured at upload or in the library, else read from the file. Approximate by nature: the rules
 * themselves are checked by the shared rule table, not here. What differs by platform (the
 * fold, the media layout, the title, the handle) is data: src/shared/platform-preview.ts.
 * A post without media whose text holds a link shows the link card the platform draws for it
 * (where the platform draws one: not on Instagram, TikTok, YouTube or Pinterest). A content warning
 * hides the post behind "Show more" (Mastodon), a poll's choices follow the text (Mastodon), an
 * event or offer heads the post and a call-to-action button ends it (Google Business Profile).
 */
import { useEffect, useState } from 'react';
import type { Account } from '../api.ts';
import { PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import { getOption } from '../../../../src/shared/option-path.ts';
import { platformPreviewOf, type PlatformPreviewSpec, type PreviewShape } from '../../../../src/shared/platform-preview.ts';
import { Avatar, VideoPoster } from '../components.tsx';
import { videoSize } from '../../lib/video-poster.ts';

/**
 * A media item as previewed; `thumbnail`: a video's own poster image (`mediaItems[].thumbnail`), else its first frame is shown.
 * `width`/`height`: its pixels when known (measured at upload, or the library's), else read from the file.
 */
export interface PreviewMedia { url: string; type: 'image' | 'video' | 'gif' | 'document'; altText?: string; thumbnail?: string; width?: number; height?: number }

type Shape = PreviewShape;

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

/** `text` as the feed shows it: whole, or cut at the platform's fold (`feedCut`) with its "more" label. */
export function feedText(platform: PlatformName, text: string): { shown: string; cut: boolean } {
  const max = platformPreviewOf(platform).feedCut;
  const chars = [...text];
  if (!max || chars.length <= max) return { shown: text, cut: false };
  return { shown: `${chars.slice(0, max).join('').trimEnd()}…`, cut: true };
}

/** The media as the platform's feed lays them out (`media` of its preview description). */
function MediaLayout({ layout, media }: { layout: PlatformPreviewSpec['media']; media: PreviewMedia[] }) {
  if (media.length === 0) return null;
  const visual = media.filter((m) => m.type !== 'document');
  const doc = media.find((m) => m.type === 'document');
  const one = (m: PreviewMedia) => (m.type === 'video'
    ? <VideoPoster className="pv-media" url={m.url} thumbnail={m.thumbnail} label="Video" />
    : <img className="pv-media" src={m.url} alt={m.altText ?? ''} />);
  if (doc && visual.length === 0) return <div className="pv-doc" aria-label="Document">PDF document</div>;
  // Carousels show the first item and dots; grids show up to four.
  if (layout.layout === 'carousel' || (layout.layout === 'grid' && layout.carouselOver !== undefined && visual.length > layout.carouselOver)) {
    return (
      <div className="pv-carousel">
        <Framed m={visual[0]} fallback={layout.layout === 'carousel' ? layout.carouselShape : 'square'} />
        {visual.length > 1 && <div className="pv-dots" role="img" aria-label={`${visual.length} items`}>{visual.map((_, i) => <span key={i} className={i === 0 ? 'on' : ''} />)}</div>}
      </div>
    );
  }
  if (layout.layout === 'single' || visual.length === 1) return <Framed m={visual[0]} fallback="landscape" />;
  // Two to four items: the platform's grid, each cell cropped to fill it.
  const shown = visual.slice(0, 4);
  return <div className={`pv-grid pv-grid-${shown.length}`}>{shown.map((m, i) => <div key={i} className="pv-cell">{one(m)}</div>)}</div>;
}

/** The first http(s) link of `text`, or null. */
export function firstLink(text: string): URL | null {
  const m = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/i.exec(text);
  if (!m) return null;
  try { return new URL(m[0]); } catch { return null; }
}

/** The card a feed draws for a link: the site's name and the link (Herald does not fetch the page's title). */
function LinkCard({ url }: { url: URL }) {
  const host = url.hostname.replace(/^www\./, '');
  return (
    <div className="pv-link" aria-label={`Link card for ${host}`} role="group">
      <div className="pv-link-art" aria-hidden="true">{host.slice(0, 1).toUpperCase()}</div>
      <div className="pv-link-text"><span className="pv-link-host">{host}</span><span className="pv-link-url">{url.pathname === '/' ? host : `${host}${url.pathname}`}</span></div>
    </div>
  );
}

/** A post's destination as the feed names it (Reddit's `r/<subreddit>`): the option, else the account's default, else "…"; a typed prefix is not doubled. */
function destination(h: { option: string; accountDefault: string; prefix: string }, data: Record<string, unknown>, account: Account): string {
  const v = String(data[h.option] ?? (account as unknown as Record<string, unknown>)[h.accountDefault] ?? '…');
  return `${h.prefix}${v.startsWith(h.prefix) ? v.slice(h.prefix.length) : v}`;
}

/** The label `labels` gives the option's value, or null when it names none. */
function labelOf(labels: Readonly<Record<string, string>>, value: unknown): string | null {
  return typeof value === 'string' && Object.hasOwn(labels, value) ? labels[value] : null;
}

/** A text option's value, trimmed, or '' when it is not a non-empty string. */
const textOption = (data: Record<string, unknown>, key: string) => {
  const v = getOption(data, key);
  return typeof v === 'string' ? v.trim() : '';
};

/** An event or offer as the feed heads it: its kind, title and dates (`event` of the preview description). */
function EventHead({ spec, data }: { spec: NonNullable<PlatformPreviewSpec['event']>; data: Record<string, unknown> }) {
  const kind = labelOf(spec.kinds, getOption(data, spec.kind));
  if (!kind) return null;
  const [start, end] = [textOption(data, spec.start), textOption(data, spec.end)];
  return (
    <div className="pv-event" role="group" aria-label={kind}>
      <span className="pv-event-kind">{kind}</span>
      <strong>{textOption(data, spec.title) || <span className="muted">(no title)</span>}</strong>
      {(start || end) && <span className="muted">{start.replace('T', ' ')}{end ? ` – ${end.replace('T', ' ')}` : ''}</span>}
    </div>
  );
}

/** A poll's choices as the feed draws them before any vote (`poll` of the preview description). */
function Poll({ spec, data }: { spec: NonNullable<PlatformPreviewSpec['poll']>; data: Record<string, unknown> }) {
  const raw = getOption(data, spec.options);
  const choices = (Array.isArray(raw) ? raw : []).filter((c): c is string => typeof c === 'string' && c.trim() !== '');
  if (choices.length === 0) return null;
  const several = getOption(data, spec.multiple) === true;
  return (
    <div className="pv-poll" role="group" aria-label="Poll">
      <ul>{choices.map((c, i) => <li key={i}><span className={several ? 'pv-poll-check' : 'pv-poll-radio'} aria-hidden="true" />{c}</li>)}</ul>
      <p className="muted">0 votes · {several ? 'several choices' : 'one choice'}</p>
    </div>
  );
}

/** One platform's preview card. */
export function PostPreview({ account, text, media, data }: { account: Account; text: string; media: PreviewMedia[]; data: Record<string, unknown> }) {
  const platform = account.platform as PlatformName;
  const rule = PLATFORM_RULES[platform];
  const spec = platformPreviewOf(platform);
  const title = spec.title
    ? (typeof data.title === 'string' && data.title.trim() ? data.title.trim() : text.split(/\r?\n/)[0] ?? '')
    : '';
  // Where the first line is the title when no title is given (Reddit, YouTube), the rest is the body.
  const body = title && !(typeof data.title === 'string' && data.title.trim()) && spec.title?.firstLineIsTitle ? text.split(/\r?\n/).slice(1).join('\n').trim() : text;
  const handle = spec.handle === 'username' ? `@${account.username.replace(/^@/, '')}` : destination(spec.handle, data, account);
  const mediaFirst = spec.media.layout === 'single' && spec.media.mediaFirst;
  const { shown, cut } = feedText(platform, body);
  const replies = Array.isArray(data.threadItems) ? (data.threadItems as Array<{ content: string }>).slice(1) : [];
  const name = account.displayName || account.username;
  const linkOff = spec.linkPreviewOff !== undefined && data[spec.linkPreviewOff] === true;
  const link = media.length === 0 && spec.linkCard && !linkOff ? firstLink(text) : null;
  const warning = spec.contentWarning ? textOption(data, spec.contentWarning) : '';
  const buttonLabel = spec.button ? labelOf(spec.button.labels, getOption(data, spec.button.option)) : null;
  const post = (
    <>
      {spec.title?.position === 'above' ? <p className="pv-title">{title || <span className="muted">(no title)</span>}</p> : null}
      {spec.event && <EventHead spec={spec.event} data={data} />}
      {mediaFirst ? <MediaLayout layout={spec.media} media={media} /> : null}
      {shown && <p className="pv-text">{shown}{cut && <span className="pv-more"> more</span>}</p>}
      {!mediaFirst && <MediaLayout layout={spec.media} media={media} />}
      {spec.poll && <Poll spec={spec.poll} data={data} />}
      {link && <LinkCard url={link} />}
      {spec.title?.position === 'below' && title ? <p className="pv-title">{title}</p> : null}
      {buttonLabel && <p className="pv-cta"><span>{buttonLabel}</span></p>}
    </>
  );
  return (
    <article className={`pv pv-${platform}`} aria-label={`${rule?.label ?? platform} preview`}>
      <header className="pv-head">
        <Avatar account={account} size={32} />
        <span className="pv-name"><strong>{name}</strong> <span className="muted">{handle}</span></span>
      </header>
      {warning
        ? <div className="pv-cw"><p className="pv-cw-text">{warning}</p><details><summary><span className="pv-cw-more">Show more</span><span className="pv-cw-less">Show less</span></summary>{post}</details></div>
        : post}
      {replies.map((r, i) => <p key={i} className="pv-reply"><span aria-hidden="true">↳ </span>{r.content || <span className="muted">(empty reply)</span>}</p>)}
      {typeof data.firstComment === 'string' && data.firstComment.trim() && <p className="pv-comment"><strong>First comment:</strong> {data.firstComment}</p>}
    </article>
  );
}
