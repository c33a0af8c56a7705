/**
 * The media library (GET /v1/media): the tenant's uploads, newest first, searchable by file
 * name and filtered by kind. Used by the Media library page and by the composer's picker.
 */
import { useEffect, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Paths } from './api.ts';
import { ErrorBox, Loading, VideoPoster } from './components.tsx';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** One file of the library, as GET /v1/media answers it. */
export type LibraryFile = Json<Paths['/v1/media']['get']['responses'][200]>['files'][number];
type Kind = '' | LibraryFile['type'];

const PAGE = 24;

/** Bytes as KB/MB for people. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(0)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/**
 * One page of the library for a search (GET /v1/media), under the key `['media-library', q, type, page]`;
 * the previous page stays shown while the next loads. `data` is `{ files: LibraryFile[] (newest first),
 * pagination: { page, limit, pages, total } }`.
 */
export function useLibrary(q: string, type: Kind, page: number) {
  return useQuery({
    queryKey: ['media-library', q, type, page],
    placeholderData: keepPreviousData,
    queryFn: () => unwrap(api.GET('/v1/media', { params: { query: { page, limit: PAGE, ...(q.trim() ? { q: q.trim() } : {}), ...(type ? { type } : {}) } } })),
  });
}

function Thumb({ f }: { f: LibraryFile }) {
  if (f.type === 'image' || f.type === 'gif') return <img src={f.url} alt="" loading="lazy" />;
  if (f.type === 'video') return <VideoPoster url={f.url} />;
  return <span className="lib-doc" aria-hidden="true">PDF</span>;
}

/**
 * The searchable grid. `onPick` makes each file a button (the composer's picker); without it,
 * each file opens its preview (the library page).
 */
export function LibraryGrid({ onPick, pickLabel = 'Use' }: { onPick?: (f: LibraryFile) => void; pickLabel?: string }) {
  const [q, setQ] = useState('');
  const [type, setType] = useState<Kind>('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<LibraryFile | null>(null);
  const lib = useLibrary(q, type, page);
  useEffect(() => setPage(1), [q, type]);
  const pages = lib.data?.pagination.pages ?? 1;
  return (
    <div className="library">
      <div className="form-row">
        <div className="field grow"><label htmlFor="lib-q">Search file names</label><input id="lib-q" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="e.g. croissant" /></div>
        <div className="field"><label htmlFor="lib-type">Kind</label>
          <select id="lib-type" value={type} onChange={(e) => setType(e.target.value as Kind)}>
            <option value="">All</option><option value="image">Images</option><option value="gif">GIFs</option><option value="video">Videos</option><option value="document">Documents</option>
          </select>
        </div>
      </div>
      <ErrorBox error={lib.error} title="Could not load the media library" />
      {lib.isLoading && <Loading />}
      {lib.data?.files.length === 0 && <p className="empty">{q || type ? 'No file matches.' : 'No uploads yet. Files you upload in the composer appear here.'}</p>}
      <ul className="lib-grid" aria-label="Uploaded files">
        {lib.data?.files.map((f) => (
          <li key={f._id} className="lib-item">
            <button type="button" className="lib-button" onClick={() => (onPick ? onPick(f) : setOpen(f))} aria-label={`${onPick ? pickLabel : 'Preview'} ${f.filename}`}>
              <Thumb f={f} />
            </button>
            <span className="lib-name" title={f.filename}>{f.filename}</span>
            <span className="hint">{f.type}{f.width && f.height ? ` · ${f.width}×${f.height}` : ''}{f.durationSeconds ? ` · ${Math.round(f.durationSeconds)} s` : ''} · {formatBytes(f.size)}</span>
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <div className="pager">
          <button type="button" className="btn btn-sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>Previous</button>
          <span>Page {page} of {pages}</span>
          <button type="button" className="btn btn-sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>Next</button>
        </div>
      )}
      {open && <PreviewDialog f={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

/** A file shown large, with its facts and a way to reuse it in a new post. */
function PreviewDialog({ f, onClose }: { f: LibraryFile; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => { ref.current?.showModal(); }, []);
  return (
    <dialog ref={ref} className="modal" aria-labelledby="lib-preview-title" onClose={onClose}>
      <h2 id="lib-preview-title" className="small-title">{f.filename}</h2>
      <div className="lib-preview">
        {f.type === 'video' ? <video src={f.url} controls /> : f.type === 'document' ? <a href={f.url} target="_blank" rel="noreferrer">Open the document</a> : <img src={f.url} alt={f.filename} />}
      </div>
      <p className="hint">{f.mimeType} · {formatBytes(f.size)}{f.width && f.height ? ` · ${f.width}×${f.height} px` : ''}{f.durationSeconds ? ` · ${f.durationSeconds.toFixed(1)} s` : ''}</p>
      <div className="button-row">
        <a className="btn btn-primary" href={`/dashboard/compose?media=${encodeURIComponent(f._id)}`} onClick={() => sessionStorage.setItem('herald.composeMedia', JSON.stringify(f))}>Use in a new post</a>
        <button type="button" className="btn" onClick={() => ref.current?.close()}>Close</button>
      </div>
    </dialog>
  );
}

/** The composer's picker: the library in a dialog; a click adds the file to the post. */
export function LibraryPicker({ onPick, onClose }: { onPick: (f: LibraryFile) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => { ref.current?.showModal(); }, []);
  return (
    <dialog ref={ref} className="modal wide-modal" aria-labelledby="lib-pick-title" onClose={onClose}>
      <div className="page-title"><h2 id="lib-pick-title" className="small-title">Media library</h2><button type="button" className="btn btn-sm" onClick={() => ref.current?.close()}>Close</button></div>
      <LibraryGrid pickLabel="Add" onPick={(f) => { onPick(f); ref.current?.close(); }} />
    </dialog>
  );
}
