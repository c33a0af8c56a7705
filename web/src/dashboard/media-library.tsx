/**
 * The media library (GET /v1/media): the tenant's uploads, newest first, searchable by file
 * name and tags and filtered by kind or tag. Used by the Media library page (where it is a
 * workspace: upload by drop or choice with each file's progress, a note when the bytes were
 * already there, tags, where a file is used, delete: refused in words while a post not yet published
 * uses the file, asked first when only published posts do)
 * and by the composer's picker.
 */
import { useEffect, useRef, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ApiError, api, unwrap, uploadMedia, type Paths } from './api.ts';
import { ErrorBox, Loading, VideoPoster } from './components.tsx';

/**
 * The media file id in one of Herald's media URLs: every storage backend ends the URL path with
 * `<tenantId>/<mediaId>/<file name>` (src/modules/media/lookup.ts); null for a foreign URL.
 */
export function mediaIdOfUrl(url: string): string | null {
  try {
    const parts = new URL(url, window.location.origin).pathname.split('/');
    const id = parts[parts.length - 2] ?? '';
    return /^[0-9a-f]{24}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

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
export function useLibrary(q: string, type: Kind, page: number, tag = '') {
  return useQuery({
    queryKey: ['media-library', q, type, page, tag],
    placeholderData: keepPreviousData,
    queryFn: () => unwrap(api.GET('/v1/media', { params: { query: { page, limit: PAGE, ...(q.trim() ? { q: q.trim() } : {}), ...(type ? { type } : {}), ...(tag ? { tag } : {}) } } })),
  });
}

interface Upload { key: string; name: string; progress: number; state: 'uploading' | 'stored' | 'already' | 'error'; error?: string }

/** The library page's uploads: a drop zone and a file input; each file's progress, then whether it was new or already stored. */
function Uploader() {
  const qc = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  function add(files: File[]) {
    for (const file of files) {
      const key = crypto.randomUUID();
      const update = (patch: Partial<Upload>) => setUploads((u) => u.map((x) => (x.key === key ? { ...x, ...patch } : x)));
      setUploads((u) => [{ key, name: file.name, progress: 0, state: 'uploading' }, ...u]);
      uploadMedia(file, (progress) => update({ progress }))
        .then((f) => {
          // The same bytes were stored before (uploads are deduplicated): say so rather than show a second copy.
          update({ progress: 1, state: f.deduplicated ? 'already' : 'stored' });
          void qc.invalidateQueries({ queryKey: ['media-library'] });
        })
        .catch((err: Error) => update({ state: 'error', error: err.message }));
    }
  }
  return (
    <div className={`drop-zone lib-upload${over ? ' over' : ''}`} onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)}
      onDrop={(e) => { e.preventDefault(); setOver(false); add(Array.from(e.dataTransfer.files)); }}>
      <label htmlFor="lib-upload">Upload files</label>
      <p className="drop-hint" id="lib-upload-hint">Drop files here or choose them (images, videos, PDF; a file already in the library is not stored twice).</p>
      <input id="lib-upload" type="file" multiple aria-describedby="lib-upload-hint" accept="image/jpeg,image/png,image/webp,image/gif,video/mp4,video/quicktime,video/webm,application/pdf"
        onChange={(e) => { add(Array.from(e.target.files ?? [])); e.target.value = ''; }} />
      {uploads.length > 0 && (
        <ul className="lib-uploads" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.key}>
              <span className="media-name">{u.name}</span>
              {u.state === 'uploading' && <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />}
              <span className={u.state === 'error' ? 'error-text' : 'hint'} role={u.state === 'error' ? 'alert' : undefined}>
                {u.state === 'uploading' ? `${Math.round(u.progress * 100)}%` : u.state === 'stored' ? 'Uploaded' : u.state === 'already' ? 'Already in the library: kept one copy' : u.error}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
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
  const [tag, setTag] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const lib = useLibrary(q, type, page, tag);
  useEffect(() => setPage(1), [q, type, tag]);
  const pages = lib.data?.pagination.pages ?? 1;
  const manage = !onPick;
  return (
    <div className="library">
      {manage && <Uploader />}
      <div className="form-row">
        <div className="field grow"><label htmlFor="lib-q">Search file names and tags</label><input id="lib-q" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="e.g. croissant" /></div>
        <div className="field"><label htmlFor="lib-type">Kind</label>
          <select id="lib-type" value={type} onChange={(e) => setType(e.target.value as Kind)}>
            <option value="">All</option><option value="image">Images</option><option value="gif">GIFs</option><option value="video">Videos</option><option value="document">Documents</option>
          </select>
        </div>
      </div>
      {tag && <p className="tag-filter">Tagged <span className="lib-tag">{tag}</span> <button type="button" className="btn btn-sm" onClick={() => setTag('')}>Show all tags</button></p>}
      <ErrorBox error={lib.error} title="Could not load the media library" />
      {lib.isLoading && <Loading />}
      {lib.data?.files.length === 0 && <p className="empty">{q || type ? 'No file matches.' : 'No uploads yet. Files you upload in the composer appear here.'}</p>}
      <ul className="lib-grid" aria-label="Uploaded files">
        {lib.data?.files.map((f) => (
          <li key={f._id} className="lib-item">
            <button type="button" className="lib-button" onClick={() => (onPick ? onPick(f) : setOpen(f._id))} aria-label={`${onPick ? pickLabel : 'Preview'} ${f.filename}`}>
              <Thumb f={f} />
            </button>
            <span className="lib-name" title={f.filename}>{f.filename}</span>
            <span className="hint">{f.type}{f.width && f.height ? ` · ${f.width}×${f.height}` : ''}{f.durationSeconds ? ` · ${Math.round(f.durationSeconds)} s` : ''} · {formatBytes(f.size)}</span>
            {manage && <span className={`hint lib-used${f.usedInPosts ? ' on' : ''}`}>{f.usedInPosts ? `Used in ${f.usedInPosts} post${f.usedInPosts > 1 ? 's' : ''}` : 'Not used yet'}</span>}
            {manage && f.tags.length > 0 && (
              <span className="lib-tags">{f.tags.map((t) => <button key={t} type="button" className="lib-tag" onClick={() => setTag(t)} aria-label={`Show files tagged ${t}`}>{t}</button>)}</span>
            )}
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
      {open && <PreviewDialog id={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

/**
 * A file shown large, with its facts, its tags (editable), the posts that use it, a way to reuse
 * it in a new post, and deletion (asked first; refused while a post not yet published uses the file).
 */
function PreviewDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const qc = useQueryClient();
  useEffect(() => { ref.current?.showModal(); }, []);
  const one = useQuery({ queryKey: ['media-file', id], queryFn: () => unwrap(api.GET('/v1/media/{mediaId}', { params: { path: { mediaId: id } } })) });
  const [tags, setTags] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const saveTags = useMutation({
    mutationFn: (list: string[]) => unwrap(api.PATCH('/v1/media/{mediaId}', { params: { path: { mediaId: id } }, body: { tags: list } })),
    onSuccess: () => { setTags(null); void qc.invalidateQueries({ queryKey: ['media-library'] }); void qc.invalidateQueries({ queryKey: ['media-file', id] }); },
  });
  // A file that a post still to be published uses is refused (409 without force), since that post
  // would fail to fetch it. A file only published posts use may go (force, after saying so): they
  // stay on their platforms, and only Herald's copy of them loses the file.
  const remove = useMutation({
    mutationFn: (force: boolean) => unwrap(api.DELETE('/v1/media/{mediaId}', { params: { path: { mediaId: id }, query: force ? { force: true } : {} } })),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['media-library'] }); ref.current?.close(); },
    // A post took the file up meanwhile: the list of its posts again, for the refusal.
    onError: (e) => { if (e instanceof ApiError && e.status === 409) void qc.invalidateQueries({ queryKey: ['media-file', id] }); },
  });
  const f = one.data?.file;
  const usedBy = one.data?.usedBy ?? [];
  const refused = remove.error instanceof ApiError && remove.error.status === 409;
  const waiting = usedBy.filter((p) => p.status !== 'published');
  const n = waiting.length;
  const published = usedBy.length - n;
  return (
    <dialog ref={ref} className="modal" aria-labelledby="lib-preview-title" onClose={onClose}>
      <h2 id="lib-preview-title" className="small-title">{f?.filename ?? 'File'}</h2>
      <ErrorBox error={one.error} title="Could not load the file" />
      {f && (
        <>
          <div className="lib-preview">
            {f.type === 'video' ? <video src={f.url} controls /> : f.type === 'document' ? <a href={f.url} target="_blank" rel="noreferrer">Open the document</a> : <img src={f.url} alt={f.filename} />}
          </div>
          <p className="hint">{f.mimeType} · {formatBytes(f.size)}{f.width && f.height ? ` · ${f.width}×${f.height} px` : ''}{f.durationSeconds ? ` · ${f.durationSeconds.toFixed(1)} s` : ''}</p>
          <form className="form-row" onSubmit={(e) => { e.preventDefault(); saveTags.mutate((tags ?? '').split(',').map((t) => t.trim()).filter(Boolean)); }}>
            <div className="field grow">
              <label htmlFor="lib-tags">Tags <span className="hint">(comma-separated)</span></label>
              <input id="lib-tags" value={tags ?? f.tags.join(', ')} onChange={(e) => setTags(e.target.value)} placeholder="e.g. bakery, summer" />
            </div>
            <button type="submit" className="btn btn-sm lib-tags-save" disabled={tags === null || saveTags.isPending}>Save tags</button>
          </form>
          <ErrorBox error={saveTags.error} title="Could not save the tags" />
          <section aria-labelledby="lib-used-title">
            <h3 id="lib-used-title" className="small-title">Used in</h3>
            {usedBy.length === 0 ? <p className="muted">No post uses this file.</p> : (
              <ul className="lib-used-list">{usedBy.map((p) => <li key={p._id}><Link href={`/posts/${p._id}`} onClick={() => ref.current?.close()}>{p.content.slice(0, 80) || '(no text)'}</Link> <span className="hint">{p.status}</span></li>)}</ul>
            )}
          </section>
        </>
      )}
      {!refused && <ErrorBox error={remove.error} title="Could not delete the file" />}
      {deleting && (n > 0 || (refused && published === 0)) ? (
        <div className="alert alert-warn" role="alert">
          <p><strong>This file stays.</strong> {n > 1 ? `${n} posts not yet published use it` : 'A post not yet published uses it'} (listed under “Used in”), and {n > 1 ? 'they' : 'it'} would fail to publish without it.
            Take it out of {n > 1 ? 'those posts' : 'that post'} or delete {n > 1 ? 'them' : 'it'}, then delete the file.</p>
          <div className="button-row"><button type="button" className="btn" onClick={() => { setDeleting(false); remove.reset(); }}>OK</button></div>
        </div>
      ) : deleting ? (
        <div className="alert alert-warn" role="alert">
          <p>{published > 0
            ? `Delete this file? ${published > 1 ? `${published} published posts use it: they stay` : 'A published post uses it: it stays'} on ${published > 1 ? 'their platforms' : 'its platform'}, and Herald's copy loses the file. It is removed from the library for good.`
            : 'Delete this file? It is removed from the library for good.'}</p>
          <div className="button-row">
            <button type="button" className="btn btn-danger" disabled={remove.isPending} onClick={() => remove.mutate(published > 0)}>Delete file</button>
            <button type="button" className="btn" onClick={() => setDeleting(false)}>Keep it</button>
          </div>
        </div>
      ) : null}
      <div className="button-row">
        {f && <a className="btn btn-primary" href={`/dashboard/compose?media=${encodeURIComponent(f._id)}`} onClick={() => sessionStorage.setItem('herald.composeMedia', JSON.stringify(f))}>Use in a new post</a>}
        {f && !deleting && <button type="button" className="btn btn-danger" onClick={() => setDeleting(true)}>Delete…</button>}
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
