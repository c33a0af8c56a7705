import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { api, unwrap, uploadMedia, type Paths } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { browserTimeZone, formatInZone } from '../time.ts';

type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;
type Job = Json<Paths['/v1/video-clips/jobs']['get']['responses'][200]>['jobs'][number];
type Clip = Job['clips'][number];

/** Job statuses drawn with the post status colours (processing like publishing, completed like published). */
const STATUS_CLASS: Record<string, string> = { processing: 's-publishing', completed: 's-published', failed: 's-failed' };

const STAGES: Record<string, string> = {
  queued: 'Waiting for a worker', downloading: 'Downloading the video', analysing: 'Finding the best moments', rendering: 'Rendering clips', done: 'Done',
};

/** m:ss of a time in seconds. */
function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function ClipCard({ job, clip, tz }: { job: Job; clip: Clip; tz: string }) {
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const name = `${job.video_file_name.replace(/\.[a-z0-9]+$/i, '')}-clip-${clip.index}.mp4`;
  // "Use in a post": the composer takes the clip as an already uploaded file; once the post is saved the clip is kept.
  const useInPost = async () => {
    setBusy(true);
    const size = Number((await fetch(clip.url, { method: 'HEAD' }).catch(() => null))?.headers.get('content-length') ?? 0);
    sessionStorage.setItem('herald.composeMedia', JSON.stringify({
      _id: clip.id, type: 'video', url: clip.url, filename: name, size, mimeType: 'video/mp4', durationSeconds: clip.duration,
    }));
    navigate('/compose');
  };
  return (
    <li className="card" style={{ padding: '0.6rem', display: 'flex', flexDirection: 'column', gap: '0.5rem' }}>
      <video controls preload="metadata" playsInline poster={clip.thumbnailUrl ?? undefined} src={clip.url}
        aria-label={`Clip ${clip.index} of ${job.video_file_name}`} style={{ width: '100%', aspectRatio: '9 / 16', background: '#000', borderRadius: 6 }} />
      <div>
        <strong>Clip {clip.index}</strong> <span className="muted">· {clock(clip.start_time)}–{clock(clip.end_time)} · {Math.round(clip.duration)} s</span>
      </div>
      <p className="hint" style={{ margin: 0 }}>Deleted after {formatInZone(clip.expiresAt, tz, { dateStyle: 'medium', timeStyle: 'short' })} unless a post uses it.</p>
      <div style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
        <a className="btn btn-sm" href={clip.url} download={name}>Download</a>
        <button type="button" className="btn btn-sm btn-primary" disabled={busy} onClick={() => { void useInPost(); }}>Use in a post</button>
      </div>
    </li>
  );
}

function JobCard({ job, tz }: { job: Job; tz: string }) {
  return (
    <section className="card" aria-label={job.video_file_name} style={{ marginBottom: '1rem' }}>
      <div style={{ display: 'flex', gap: '0.75rem', alignItems: 'baseline', flexWrap: 'wrap' }}>
        <h2 className="small-title" style={{ margin: 0, overflowWrap: 'anywhere' }}>{job.video_file_name}</h2>
        <span className={`status-badge ${STATUS_CLASS[job.status] ?? ''}`}>{job.status}</span>
        <span className="muted">{formatInZone(job.created_at, tz, { dateStyle: 'medium', timeStyle: 'short' })}{job.watermark ? ' · with watermark' : ''}</span>
      </div>
      {job.status === 'processing' && (
        <div className="usage-bar" style={{ marginTop: '0.75rem' }}>
          <div className="usage-label"><span>{STAGES[job.progress.stage] ?? job.progress.stage}</span><span>{job.progress.percent}%</span></div>
          <div className="bar" role="progressbar" aria-label={`Progress of ${job.video_file_name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={job.progress.percent}>
            <div className="bar-fill" style={{ width: `${Math.max(2, job.progress.percent)}%` }} />
          </div>
        </div>
      )}
      {job.status === 'failed' && <p className="alert alert-error" role="alert">Failed: {job.error}</p>}
      {job.status === 'completed' && job.total_clips === 0 && <p className="muted">The clips of this video have expired.</p>}
      {job.clips.length > 0 && (
        <ul style={{ listStyle: 'none', padding: 0, margin: '0.75rem 0 0', display: 'grid', gap: '0.75rem', gridTemplateColumns: 'repeat(auto-fill, minmax(135px, 210px))' }}>
          {job.clips.map((c) => <ClipCard key={c.id} job={job} clip={c} tz={tz} />)}
        </ul>
      )}
    </section>
  );
}

export default function ClipsPage() {
  const qc = useQueryClient();
  const tz = browserTimeZone();
  const stats = useQuery({ queryKey: ['clip-stats'], queryFn: () => unwrap(api.GET('/v1/video-clips/monthly-stats')) });
  const jobs = useQuery({
    queryKey: ['clip-jobs'],
    queryFn: () => unwrap(api.GET('/v1/video-clips/jobs', { params: { query: { limit: 20 } } })),
    // Progress is polled while a job runs.
    refetchInterval: (q) => (q.state.data?.jobs.some((j) => j.status === 'processing') ? 2_000 : false),
  });
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<number | null>(null);
  // A new key empties the file input once its video was submitted.
  const [fileInput, setFileInput] = useState(0);
  const submit = useMutation({
    mutationFn: async () => {
      let videoUrl = url.trim();
      let name: string | undefined;
      if (file) {
        setUploaded(0);
        const f = await uploadMedia(file, setUploaded);
        videoUrl = f.url;
        name = file.name;
      }
      return unwrap(api.POST('/v1/video-clips/process', { body: { video_url: videoUrl, ...(name ? { video_file_name: name } : {}) } }));
    },
    onSettled: () => { setUploaded(null); void qc.invalidateQueries({ queryKey: ['clip-jobs'] }); void qc.invalidateQueries({ queryKey: ['clip-stats'] }); },
    onSuccess: () => { setUrl(''); setFile(null); setFileInput((n) => n + 1); },
  });
  const onSubmit = (e: FormEvent) => { e.preventDefault(); submit.mutate(); };
  const s = stats.data;
  return (
    <>
      <PageTitle title="AI clips" />
      <p className="muted">A long video in, short vertical clips out: Herald picks the loudest, busiest moments and renders them 9:16, ready for TikTok, Reels and Shorts. <a href="/docs#ai-clipping">How it works</a>.</p>
      <ErrorBox error={stats.error} />
      {s && (
        <p className={s.canCreate ? 'muted' : 'alert alert-warn'} role="status">
          <strong>{s.current} of {s.limit}</strong> videos this month · {s.message}
        </p>
      )}
      <form className="card" onSubmit={onSubmit} aria-label="New clips" style={{ marginBottom: '1rem' }}>
        <div className="field">
          <label htmlFor="clip-url">Video URL <span className="hint">(https)</span></label>
          <input id="clip-url" type="url" placeholder="https://example.com/talk.mp4" value={url} disabled={!!file} onChange={(e) => setUrl(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="clip-file">or upload a video <span className="hint">(MP4, MOV or WebM; large files upload resumably)</span></label>
          <input key={fileInput} id="clip-file" type="file" accept="video/mp4,video/quicktime,video/webm" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </div>
        {uploaded !== null && <p className="muted" role="status">Uploading… {Math.round(uploaded * 100)}%</p>}
        <ErrorBox error={submit.error} title="Could not start" />
        <button type="submit" className="btn btn-primary" disabled={submit.isPending || (!file && !url.trim()) || (s ? !s.canCreate : false)}>
          {submit.isPending ? 'Submitting…' : 'Find clips'}
        </button>
      </form>
      <ErrorBox error={jobs.error} />
      {jobs.isLoading && <Loading />}
      {jobs.data && jobs.data.jobs.length === 0 && <p className="muted">No videos yet.</p>}
      {jobs.data?.jobs.map((j) => <JobCard key={j.job_id} job={j} tz={tz} />)}
    </>
  );
}
