/**
 * The composer's media: a drop zone (drag files in, paste an image from the clipboard anywhere
 * on the page, or choose files / the library), then the post's media in order, each with its
 * upload progress, its alt text (sent as the media item's `altText`), a note when Herald
 * converted it for a platform (a PNG or WebP becomes a JPEG for Instagram), and ways to
 * reorder it: drag an item onto another, or its "Move up" / "Move down" buttons (keyboard).
 */
import { useEffect, useState, type DragEvent } from 'react';
import type { UploadedFile } from '../api.ts';
import { VideoPoster } from '../components.tsx';
import type { LocalMediaInfo } from '../../lib/media-probe.ts';

/** One media item of the post being composed. */
export interface MediaEntry {
  key: string;
  name: string;
  progress: number;
  /** `converting`: uploaded, Herald is making the format a platform needs. */
  status: 'uploading' | 'converting' | 'done' | 'error';
  file?: UploadedFile;
  /** Pixels and duration measured in the browser (for the platforms' pixel, aspect and duration rules). */
  local?: LocalMediaInfo;
  error?: string;
  altText: string;
  /** Set once Herald converted the file: what it was and why (shown to the user). */
  converted?: { from: string; reason: string };
}

/** `list` with the item at `from` moved to `to`. */
export function moved<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,video/mp4,video/quicktime,video/webm,application/pdf';
const FORMAT_NAMES: Record<string, string> = { 'image/png': 'PNG', 'image/webp': 'WebP', 'image/jpeg': 'JPEG' };

/** A pasted image as a file with a readable name (clipboards call every image "image.png"). */
function named(file: File, i: number): File {
  if (file.name && file.name !== 'image.png') return file;
  const ext = file.type.split('/')[1] || 'png';
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return new File([file], `pasted-${stamp}${i ? `-${i + 1}` : ''}.${ext}`, { type: file.type });
}

export function MediaTray({ media, setMedia, addFiles, onLibrary }: {
  media: MediaEntry[];
  setMedia: (update: (list: MediaEntry[]) => MediaEntry[]) => void;
  addFiles: (files: File[]) => void;
  onLibrary: () => void;
}) {
  const [over, setOver] = useState(false);
  const [dragging, setDragging] = useState<string | null>(null);
  const [said, setSaid] = useState('');

  // Paste an image anywhere on the composer: the clipboard's files are added (text pastes are left alone).
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const files = Array.from(e.clipboardData?.files ?? []).filter((f) => ACCEPT.split(',').includes(f.type));
      if (files.length === 0) return;
      e.preventDefault();
      addFiles(files.map(named));
      setSaid(`${files.length} pasted file${files.length > 1 ? 's' : ''} added`);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [addFiles]);

  const move = (from: number, to: number) => {
    setMedia((list) => moved(list, from, to));
    const item = media[from];
    if (item && to >= 0 && to < media.length) setSaid(`${item.name} moved to position ${to + 1} of ${media.length}`);
  };

  const onDropZone = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (dragging) return;
    const files = Array.from(e.dataTransfer.files);
    if (files.length) addFiles(files);
  };

  return (
    <>
      <div className={`drop-zone${over ? ' over' : ''}`}
        onDragOver={(e) => { if (!dragging) { e.preventDefault(); setOver(true); } }}
        onDragLeave={() => setOver(false)}
        onDrop={onDropZone}>
        <label htmlFor="c-media">Media <span className="hint">(images, videos, PDF; up to 5 GB each — large files upload resumably)</span></label>
        <p className="drop-hint" id="c-media-hint">Drop files here, paste an image (Ctrl+V / ⌘V), or choose them:</p>
        <div className="media-inputs">
          <input id="c-media" type="file" multiple accept={ACCEPT} aria-describedby="c-media-hint" onChange={(e) => { addFiles(Array.from(e.target.files ?? [])); e.target.value = ''; }} />
          <button type="button" className="btn btn-sm" onClick={onLibrary}>Choose from the library</button>
        </div>
      </div>
      <p className="sr-only" role="status">{said}</p>
      {media.length > 0 && (
        <ol className="media-list" aria-label="Attached files, in posting order">
          {media.map((m, i) => (
            <li key={m.key} className={`media-item${dragging === m.key ? ' dragging' : ''}`} draggable
              onDragStart={(e) => { setDragging(m.key); e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', m.key); }}
              onDragEnd={() => setDragging(null)}
              onDragOver={(e) => { if (dragging) e.preventDefault(); }}
              onDrop={(e) => {
                if (!dragging) return;
                e.preventDefault();
                e.stopPropagation();
                const from = media.findIndex((x) => x.key === dragging);
                setDragging(null);
                move(from, i);
              }}>
              <span className="media-order" aria-hidden="true">{i + 1}</span>
              {m.file?.type === 'image' || m.file?.type === 'gif' ? <img src={m.file.url} alt="" /> : m.file?.type === 'video' ? <VideoPoster url={m.file.url} className="media-thumb" /> : <span className="media-icon" aria-hidden="true">{m.file ? '📄' : '…'}</span>}
              <div className="media-info">
                <span className="media-name">{m.name}</span>
                {m.status === 'uploading' && <progress max={1} value={m.progress} aria-label={`Uploading ${m.name}`}>{Math.round(m.progress * 100)}%</progress>}
                {m.status === 'uploading' && <span className="hint">{Math.round(m.progress * 100)}% uploaded</span>}
                {m.status === 'converting' && <span className="hint" role="status">Converting to JPEG…</span>}
                {m.error && <span className="error-text" role="alert">{m.error}</span>}
                {m.converted && (
                  <span className="convert-note" role="note">
                    Converted from {FORMAT_NAMES[m.converted.from] ?? m.converted.from} to JPEG {m.converted.reason}; every platform gets the JPEG.
                  </span>
                )}
                {m.status === 'done' && (m.file?.type === 'image' || m.file?.type === 'gif') && (
                  <input aria-label={`Alt text for ${m.name}`} placeholder="Alt text (describe the image)" value={m.altText} maxLength={2000}
                    onChange={(e) => setMedia((list) => list.map((x) => (x.key === m.key ? { ...x, altText: e.target.value } : x)))} />
                )}
              </div>
              <div className="media-actions">
                <button type="button" className="btn btn-sm btn-ghost" disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={`Move ${m.name} up`}>↑</button>
                <button type="button" className="btn btn-sm btn-ghost" disabled={i === media.length - 1} onClick={() => move(i, i + 1)} aria-label={`Move ${m.name} down`}>↓</button>
                <button type="button" className="btn btn-sm btn-ghost" onClick={() => setMedia((list) => list.filter((x) => x.key !== m.key))}>Remove<span className="sr-only"> {m.name}</span></button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
