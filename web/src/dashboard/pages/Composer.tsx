import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { api, ApiError, unwrap, uploadMedia, type CreatePostBody, type PostView, type UploadedFile } from '../api.ts';
import { ErrorBox, Loading, PageTitle, PlatformBadge } from '../components.tsx';
import { checkPost, PLATFORM_RULES, ruleMaxText, textLength, type PlatformName, type RuleProblem } from '../../lib/platform-rules.ts';
import { browserTimeZone, instantOf, pad, timeFormat, wallTime } from '../time.ts';
import { TimeZoneField } from '../ui/time-zone.tsx';
import { DateTimeField } from '../ui/date-time.tsx';
import { useProfiles } from '../queries/profiles.ts';
import { useApprovalRule } from '../queries/approvals.ts';
import { useAccountGroups, useAccounts } from '../queries/accounts.ts';
import { useQueues } from '../queries/queues.ts';
import { probeLocalFile } from '../../lib/media-probe.ts';
import { accountSettingsOf, cleanPlatformData, composerChecks, PlatformOptions, videoThumbnailOf, type PlatformData } from '../composer/PlatformOptions.tsx';
import { thumbnailKeyOf } from '../../../../src/shared/platform-options.ts';
import { PLATFORM_CAPABILITIES } from '../../../../src/shared/capabilities.ts';
import { LivePreview } from '../composer/LivePreview.tsx';
import { MediaTray, type MediaEntry } from '../composer/MediaTray.tsx';
import { LibraryPicker, mediaIdOfUrl, type LibraryFile } from '../media-library.tsx';
import { useSubredditRules } from '../composer/subreddit-rules.ts';
import { useServerCheck } from '../composer/server-check.ts';

/** The phone layout's tabs, loaded only on phones. */
const ComposerTabs = lazy(() => import('../composer/ComposerTabs.tsx'));

/** Rule messages that name API fields, said in the composer's words (the rule ids are the shared table's). */
const COMPOSER_WORDING: Record<string, string> = {
  'reddit.subreddit.required': 'Choose a subreddit (or set a default subreddit for this account under Profiles & accounts)',
  'reddit.title.required': 'A Reddit post needs a title: fill in the title or give the text a first line',
  'reddit.subreddit.flair_required': 'This subreddit requires a post flair: fill in the flair ID (from the subreddit\'s flair list)',
  'pinterest.board.required': 'Choose a board (or set a default board for this account under Profiles & accounts)',
};

/** Phones: the preview is a tab of its own (at most 768 px wide). */
const PHONE = '(max-width: 768px)';
function useNarrow(): boolean {
  return useSyncExternalStore((changed) => {
    const q = window.matchMedia(PHONE);
    q.addEventListener('change', changed);
    return () => q.removeEventListener('change', changed);
  }, () => window.matchMedia(PHONE).matches);
}

/** `date` + `time` (wall clock in `tz`) as an instant, or null when incomplete. */
function scheduledInstant(date: string, time: string, tz: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})/.exec(time);
  if (!d || !t) return null;
  return instantOf({ year: +d[1], month: +d[2], day: +d[3], hour: +t[1], minute: +t[2] }, tz);
}

type Mode = 'schedule' | 'now' | 'queue' | 'draft';

const MODES: Array<[Mode, string, string]> = [
  ['schedule', 'Schedule', 'Publish at a date and time'],
  ['now', 'Publish now', 'Publish as soon as you save'],
  ['queue', 'Add to queue', "Take the profile's next free queue slot"],
  ['draft', 'Save as draft', 'Keep it without publishing'],
];

/**
 * A saved target's platformSpecificData as the composer edits it: a thread's replies (items after
 * the first of `threadItems`, whose first item is the text itself) and a video's custom thumbnail
 * (the platform's media-thumbnail option, YouTube's) back in the composer's own keys.
 */
function editableOptions(platform: string, saved: Record<string, unknown>, thumbnail?: string): PlatformData {
  const { threadItems, ...rest } = saved;
  const replies = Array.isArray(threadItems) ? (threadItems as Array<{ content?: unknown }>).slice(1).map((t) => String(t.content ?? '')) : [];
  const thumbnailKey = thumbnailKeyOf(platform);
  return { ...rest, ...(replies.length ? { _replies: replies } : {}), ...(thumbnailKey && thumbnail ? { [thumbnailKey]: thumbnail } : {}) };
}

/** A file from the media library as a composer media entry (already uploaded; its pixels and duration known). */
function libraryEntry(f: LibraryFile): MediaEntry {
  return {
    key: `lib-${f._id}-${crypto.randomUUID()}`, name: f.filename, progress: 1, status: 'done', altText: '',
    file: { type: f.type, url: f.url, filename: f.filename, size: f.size, mimeType: f.mimeType },
    local: { ...(f.width ? { width: f.width } : {}), ...(f.height ? { height: f.height } : {}), ...(f.durationSeconds ? { durationSeconds: f.durationSeconds } : {}) },
  };
}

function defaultWhen(tz: string, dateParam: string | null): { date: string; time: string } {
  // The first whole hour at least 30 minutes away (at 10:57, 12:00 rather than 11:00: a time
  // minutes away is past before the post is written).
  const w = wallTime(new Date(Date.now() + 90 * 60_000), tz);
  const today = `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  // A day picked on the calendar: 09:00 there, or that first whole hour when that day is today.
  if (dateParam && /^\d{4}-\d{2}-\d{2}$/.test(dateParam) && dateParam !== today) return { date: dateParam, time: '09:00' };
  return { date: `${w.year}-${pad(w.month)}-${pad(w.day)}`, time: `${pad(w.hour)}:00` };
}

export default function ComposerPage({ postId }: { postId?: string }) {
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const qc = useQueryClient();
  const narrow = useNarrow();
  const profiles = useProfiles();
  const accounts = useAccounts();
  const existing = useQuery({
    queryKey: ['post', postId],
    enabled: !!postId,
    queryFn: () => unwrap(api.GET('/v1/posts/{postId}', { params: { path: { postId: postId! } } })).then((r) => r.post),
  });

  const [tz, setTz] = useState(browserTimeZone());
  const init = useMemo(() => defaultWhen(tz, search.get('date')), []);
  // "Compose for this slot" on the queue's timeline: that profile's queue, that very slot (the API keeps a free slot it is sent).
  const queueSlot = useMemo(() => {
    const slot = search.get('queueSlot');
    return slot && !postId && !Number.isNaN(Date.parse(slot)) ? { slot: new Date(slot).toISOString(), profile: search.get('profile') ?? '', queue: search.get('queue') ?? '' } : null;
  }, []);
  const [profileId, setProfileId] = useState<string>(queueSlot?.profile ?? '');
  const [selected, setSelected] = useState<string[]>([]);
  const groups = useAccountGroups();
  const [groupNote, setGroupNote] = useState('');
  const [content, setContent] = useState('');
  const [custom, setCustom] = useState<Record<string, string | undefined>>({});
  const [options, setOptions] = useState<Record<string, PlatformData>>({});
  const [tagsText, setTagsText] = useState('');
  const [visibility, setVisibility] = useState<'public' | 'private' | 'unlisted'>('public');
  const [moreOpen, setMoreOpen] = useState(false);
  const tags = [...new Set(tagsText.split(',').map((t) => t.trim().replace(/^#/, '')).filter(Boolean))];
  const [media, setMedia] = useState<MediaEntry[]>(() => {
    // "Use in a new post" from the media library hands the file over here.
    // Read here, removed once mounted (below): a first render that suspends (the lazy time-zone
    // picker) is thrown away and run again (https://react.dev/reference/react/Suspense#caveats).
    const handed = sessionStorage.getItem('herald.composeMedia');
    if (!handed || postId) return [];
    try { return [libraryEntry(JSON.parse(handed) as LibraryFile)]; } catch { return []; }
  });
  useEffect(() => { if (!postId) sessionStorage.removeItem('herald.composeMedia'); }, [postId]);
  const [picking, setPicking] = useState(false);
  const [mode, setMode] = useState<Mode>(queueSlot ? 'queue' : 'schedule');
  // "Add to queue": which of the profile's queues (decision 0062; '' is its default queue), where the
  // post would go, or why it cannot (no queue yet, paused, full), in words.
  const queues = useQueues(mode === 'queue' ? profileId : null);
  const [queueId, setQueueId] = useState<string>(queueSlot?.queue ?? '');
  const nextSlot = useQuery({
    queryKey: ['queue-next-slot', profileId, queueId],
    enabled: mode === 'queue' && !!profileId && !queueSlot,
    retry: false,
    queryFn: () => unwrap(api.GET('/v1/queue/next-slot', { params: { query: { profileId, ...(queueId ? { queueId } : {}) } } })),
  });
  const queueProblem = mode !== 'queue' || queueSlot ? null
    : nextSlot.error instanceof ApiError && nextSlot.error.status === 404 ? 'none'
      : nextSlot.error instanceof ApiError && nextSlot.error.status === 400 ? 'paused'
        : nextSlot.data && nextSlot.data.nextSlot === null ? 'full' : null;
  const [date, setDate] = useState(init.date);
  const [time, setTime] = useState(init.time);
  const idempotencyKey = useRef(crypto.randomUUID());
  const loadedFor = useRef<string | null>(null);

  // Default profile: the default one (or the first).
  useEffect(() => {
    if (!profileId && profiles.data?.length && !postId) setProfileId((profiles.data.find((p) => p.isDefault) ?? profiles.data[0])._id);
  }, [profiles.data, profileId, postId]);

  // Editing: fill the form from the post once.
  useEffect(() => {
    const p = existing.data;
    if (!p || loadedFor.current === p._id || !accounts.data) return;
    loadedFor.current = p._id;
    setContent(p.content);
    const ids = p.platforms.map((t) => (typeof t.accountId === 'string' ? t.accountId : t.accountId._id));
    setSelected(ids);
    setCustom(Object.fromEntries(p.platforms.filter((t) => t.customContent).map((t) => [typeof t.accountId === 'string' ? t.accountId : t.accountId._id, t.customContent ?? undefined])));
    const thumb = p.mediaItems.map((m) => m.thumbnail).find((x): x is string => typeof x === 'string');
    setOptions(Object.fromEntries(p.platforms.map((t) => [typeof t.accountId === 'string' ? t.accountId : t.accountId._id, editableOptions(t.platform, t.platformSpecificData, thumb)])));
    setTagsText(p.tags.join(', '));
    if (p.tags.length || p.visibility !== 'public') setMoreOpen(true);
    if (p.visibility === 'private' || p.visibility === 'unlisted') setVisibility(p.visibility);
    const first = accounts.data.find((a) => ids.includes(a._id));
    if (first) setProfileId(first.profileId);
    setMedia(p.mediaItems.map((m, i) => ({ key: `existing-${i}`, name: String(m.filename ?? m.url), progress: 1, status: 'done', file: m as unknown as UploadedFile, altText: String(m.altText ?? '') })));
    setTz(p.timezone || 'UTC');
    if (p.scheduledFor) {
      const w = wallTime(new Date(p.scheduledFor), p.timezone || 'UTC');
      setDate(`${w.year}-${pad(w.month)}-${pad(w.day)}`);
      setTime(`${pad(w.hour)}:${pad(w.minute)}`);
    }
    setMode(p.status === 'draft' ? 'draft' : p.queuedFromProfile ? 'queue' : 'schedule');
    if (p.queueId) setQueueId(p.queueId);
  }, [existing.data, accounts.data]);

  const profileAccounts = (accounts.data ?? []).filter((a) => a.profileId === profileId);
  // Decision 0059: on a profile that requires approval, a post by someone who may not approve there goes out only once approved.
  const rule = useApprovalRule(profileId);
  const forReview = mode !== 'draft' && !!rule.data?.required && !rule.data.canApprove;
  const targets = (accounts.data ?? []).filter((a) => selected.includes(a._id));
  // Targets outside the chosen profile (from an account group, or a post saved with them): a post may span profiles.
  const otherTargets = targets.filter((a) => a.profileId !== profileId);
  // A target's custom thumbnail (YouTube's) goes on the video's media item (mediaItems[].thumbnail).
  const thumbnail = targets.map((a) => videoThumbnailOf(a, options[a._id])).find(Boolean);
  const uploaded = media.filter((m) => m.status === 'done' && m.file).map((m) => ({ ...m.local, ...m.file!, ...(thumbnail && m.file!.type === 'video' ? { thumbnail } : {}) }));
  const uploading = media.some((m) => m.status === 'uploading' || m.status === 'converting');

  // The subreddits' own rules, which the server reads from Reddit: asked for before "fits".
  const subredditRules = useSubredditRules(targets, options);
  const checkingSubreddits = Object.values(subredditRules).filter((s) => s.checking).map((s) => s.shownAs);
  const when = mode === 'schedule' ? scheduledInstant(date, time, tz) : null;
  const inPast = when !== null && when.getTime() < Date.now() - 60_000;
  // The server's checks (src/shared/post-rules.ts) on everything the API would check: the text,
  // the media, the target's options, the account's settings and the schedule.
  const problems: Array<RuleProblem & { account: string }> = targets.flatMap((a) => {
    const p = a.platform as PlatformName;
    if (!PLATFORM_RULES[p]) return [];
    const text = custom[a._id] ?? content;
    const data = cleanPlatformData(options[a._id], text);
    const threadItems = Array.isArray(data.threadItems) ? (data.threadItems as Array<{ content: string }>) : undefined;
    return [
      ...checkPost(p, text, uploaded, {
        platformSpecificData: data, accountSettings: { ...accountSettingsOf(a), ...subredditRules[a._id]?.settings }, ...(threadItems ? { threadItems } : {}), ...(when ? { scheduledFor: when } : {}),
        tags, visibility,
      }).map((x) => ({ ...x, message: (x.rule && COMPOSER_WORDING[x.rule]) || x.message, account: a.username })),
      ...composerChecks(a, options[a._id]).map((message) => ({ platform: p, field: 'settings' as const, message, account: a.username })),
    ];
  });

  const platforms = [...new Set(targets.map((a) => a.platform as PlatformName))].filter((p) => PLATFORM_RULES[p]);

  /** The post as the API takes it (POST /v1/posts; PUT adds what clears a draft or a queue slot). */
  const body: CreatePostBody = (() => {
    const b: CreatePostBody = {
      content,
      ...(tags.length ? { tags } : {}),
      ...(visibility !== 'public' || postId ? { visibility } : {}),
      mediaItems: media.filter((m) => m.status === 'done' && m.file).map(({ file: f, altText }) => ({
        type: f!.type, url: f!.url, filename: f!.filename, mimeType: f!.mimeType, size: f!.size, ...(altText.trim() ? { altText: altText.trim() } : {}),
        ...(thumbnail && f!.type === 'video' ? { thumbnail } : {}),
      })),
      platforms: targets.map((a) => {
        const data = cleanPlatformData(options[a._id], custom[a._id] ?? content);
        return {
          platform: a.platform as PlatformName, accountId: a._id, ...(custom[a._id] !== undefined ? { customContent: custom[a._id] } : {}),
          ...(Object.keys(data).length ? { platformSpecificData: data } : {}),
        };
      }),
    };
    if (mode === 'schedule') Object.assign(b, { scheduledFor: `${date}T${time}`, timezone: tz, ...(postId ? { isDraft: false, queuedFromProfile: null } : {}) });
    if (mode === 'now') b.publishNow = true;
    if (mode === 'queue') Object.assign(b, { queuedFromProfile: profileId, ...(queueId ? { queueId } : {}), ...(queueSlot && queueSlot.profile === profileId ? { scheduledFor: queueSlot.slot } : {}) });
    if (mode === 'draft') b.isDraft = true;
    return b;
  })();

  // The server's own check of this very post (./composer/server-check.ts), once the composer's checks pass.
  const locallyFine = mode !== 'draft' && targets.length > 0 && problems.length === 0 && checkingSubreddits.length === 0 && !uploading && !(mode === 'schedule' && (!date || !time));
  const server = useServerCheck(body, locallyFine, postId);
  const serverProblems = server.state === 'problems'
    ? server.problems.map((x) => {
      const target = targets[Number(/^platforms\.(\d+)\./.exec(x.field)?.[1] ?? -1)];
      return { platform: x.platform ?? target?.platform ?? '', account: target?.username ?? '', message: (x.rule && COMPOSER_WORDING[x.rule]) || x.message };
    })
    : [];

  const save = useMutation({
    mutationFn: async (): Promise<PostView> => {
      if (postId) {
        const r = await unwrap(api.PUT('/v1/posts/{postId}', { params: { path: { postId } }, body }));
        return r.post;
      }
      const r = await unwrap(api.POST('/v1/posts', { params: { header: { 'idempotency-key': idempotencyKey.current } }, body }));
      return r.post;
    },
    onSuccess: (post) => {
      void qc.invalidateQueries({ queryKey: ['posts'] });
      void qc.invalidateQueries({ queryKey: ['post', post._id] });
      void qc.invalidateQueries({ queryKey: ['usage'] });
      navigate(`/posts/${post._id}`);
    },
    onError: (err) => {
      // A different body next time: a new idempotency key.
      if (err instanceof ApiError && err.status !== 409) idempotencyKey.current = crypto.randomUUID();
    },
  });

  const addFiles = useCallback((files: File[]) => {
    for (const file of files) {
      const key = crypto.randomUUID();
      setMedia((m) => [...m, { key, name: file.name, progress: 0, status: 'uploading', altText: '' }]);
      const update = (patch: Partial<MediaEntry>) => setMedia((m) => m.map((e) => (e.key === key ? { ...e, ...patch } : e)));
      void probeLocalFile(file).then((local) => update({ local }));
      uploadMedia(file, (progress) => update({ progress }))
        .then((f) => update({ status: 'done', file: f, progress: 1 }))
        .catch((err: Error) => update({ status: 'error', error: err.message }));
    }
  }, []);

  // A format a selected platform refuses but Herald can convert (a PNG or WebP for Instagram):
  // converted on the server, the JPEG replaces it in the post, and a note says so.
  const convertNeed = targets.map((a) => PLATFORM_CAPABILITIES[a.platform as PlatformName]?.convertToJpeg).find(Boolean);
  useEffect(() => {
    if (!convertNeed) return;
    for (const m of media) {
      const id = m.file && mediaIdOfUrl(m.file.url);
      if (m.status !== 'done' || m.error || !m.file || !id || !convertNeed.formats.includes(m.file.mimeType)) continue;
      const from = m.file.mimeType;
      const update = (patch: Partial<MediaEntry>) => setMedia((list) => list.map((e) => (e.key === m.key ? { ...e, ...patch } : e)));
      update({ status: 'converting' });
      unwrap(api.POST('/v1/media/{mediaId}/convert', { params: { path: { mediaId: id } }, body: { format: 'jpeg' } }))
        .then((r) => {
          const f = r.files[0];
          update({ status: 'done', file: { type: f.type, url: f.url, filename: f.filename, size: f.size, mimeType: f.mimeType }, converted: { from, reason: convertNeed.reason } });
        })
        .catch((err: Error) => update({ status: 'done', error: `Could not convert it to JPEG: ${err.message}` }));
    }
  }, [convertNeed, media]);

  if (postId && existing.isLoading) return <Loading />;
  if (postId && existing.error) return <ErrorBox error={existing.error} title="Could not load the post" />;

  // While the server is still being asked the post can be saved (the save is checked the same way); it is never called fine before.
  const blocked = mode !== 'draft' && (problems.length > 0 || server.state === 'problems');
  const cannotSave = save.isPending || uploading || !!queueProblem || (mode !== 'draft' && targets.length === 0) || blocked || (mode === 'schedule' && (!date || !time));
  const fieldErrors = save.error instanceof ApiError ? save.error.fields : {};

  const previewTargets = targets.map((a) => ({
    account: a, text: custom[a._id] ?? content, data: cleanPlatformData(options[a._id], custom[a._id] ?? content),
    media: media.filter((m) => m.status === 'done' && m.file).map((m) => ({
      url: m.file!.url, type: m.file!.type, altText: m.altText,
      ...(m.local?.width && m.local.height ? { width: m.local.width, height: m.local.height } : {}),
      // A platform with a custom thumbnail option (YouTube) shows it as the video's picture.
      ...(thumbnailKeyOf(a.platform) && thumbnail && m.file!.type === 'video' ? { thumbnail } : {}),
    })),
  }));
  const preview = (
    <section className="card preview-card" aria-labelledby="c-preview">
      <h2 id="c-preview" className="small-title">Preview</h2>
      <LivePreview targets={previewTargets} />
    </section>
  );
  const form: ReactNode = (
    <>
      <section className="card" aria-labelledby="c-accounts">
        <h2 id="c-accounts" className="small-title">Where</h2>
        {profiles.data?.length === 0 && <p className="muted">No profile yet. <a href="/dashboard/profiles">Create a profile</a> and connect an account to it first.</p>}
        {profiles.data?.length !== 0 && (
          <div className="field">
            <label htmlFor="c-profile">Profile</label>
            <select id="c-profile" value={profileId} onChange={(e) => { setProfileId(e.target.value); setSelected([]); setQueueId(''); }}>
              {profiles.data?.map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}
            </select>
          </div>
        )}
        {profileAccounts.length === 0 && !!profiles.data?.length && <p className="muted">This profile has no connected account. <a href="/dashboard/profiles">Connect one</a>.</p>}
        {(accounts.data?.length ?? 0) > 0 && (groups.data?.length ?? 0) > 0 && (
          <div className="field">
            <label htmlFor="c-group">Add an account group <span className="hint">its accounts in every profile</span></label>
            <select id="c-group" value="" onChange={(e) => {
              const g = groups.data?.find((x) => x._id === e.target.value);
              if (!g) return;
              // A post may go to accounts of several profiles: the group's accounts are added wherever they are (decision 0070).
              const members = (accounts.data ?? []).filter((a) => g.accountIds.includes(a._id));
              const usable = members.filter((a) => a.isActive);
              setSelected((s) => [...s, ...usable.map((a) => a._id).filter((id) => !s.includes(id))]);
              const elsewhere = usable.filter((a) => a.profileId !== profileId).length;
              const inactive = members.length - usable.length;
              setGroupNote(`${g.name}: ${usable.length} account${usable.length === 1 ? '' : 's'} added${elsewhere ? ` (${elsewhere} from other profiles)` : ''}`
                + `${inactive ? `; ${inactive} need${inactive === 1 ? 's' : ''} reconnecting and ${inactive === 1 ? 'was' : 'were'} left out` : ''}`);
            }}>
              <option value="">Choose a group…</option>
              {groups.data?.map((g) => <option key={g._id} value={g._id}>{g.name} ({g.accountIds.length})</option>)}
            </select>
            {groupNote && <p className="hint" role="status">{groupNote}</p>}
          </div>
        )}
        <fieldset className="account-picks">
          <legend className="sr-only">Accounts</legend>
          {profileAccounts.map((a) => (
            <label key={a._id} className={`account-pick${selected.includes(a._id) ? ' on' : ''}`}>
              <input type="checkbox" checked={selected.includes(a._id)} disabled={!a.isActive}
                onChange={(e) => setSelected((s) => (e.target.checked ? [...s, a._id] : s.filter((x) => x !== a._id)))} />
              <PlatformBadge platform={a.platform} /> <span>@{a.username.replace(/^@/, '')}</span>
              {!a.isActive && <span className="state state-bad"> needs reconnect</span>}
            </label>
          ))}
        </fieldset>
        {otherTargets.length > 0 && (
          <fieldset className="account-picks other-profiles">
            <legend className="hint">Also in other profiles</legend>
            {otherTargets.map((a) => (
              <label key={a._id} className="account-pick on">
                <input type="checkbox" checked onChange={() => setSelected((s) => s.filter((x) => x !== a._id))} />
                <PlatformBadge platform={a.platform} /> <span>@{a.username.replace(/^@/, '')}</span> <span className="hint">{profiles.data?.find((p) => p._id === a.profileId)?.name}</span>
              </label>
            ))}
          </fieldset>
        )}
      </section>

      <section className="card" aria-labelledby="c-content">
        <h2 id="c-content" className="small-title">What</h2>
        <div className="field">
          <label htmlFor="c-text">Text</label>
          <textarea id="c-text" value={content} onChange={(e) => setContent(e.target.value)} aria-describedby="c-counters" aria-invalid={problems.some((p) => p.field === 'content') || !!fieldErrors.content} />
          <div id="c-counters" className="counters" aria-live="polite">
            {platforms.map((p) => {
              const rule = PLATFORM_RULES[p];
              const n = textLength(rule, content);
              const max = ruleMaxText(rule, uploaded);
              return <span key={p} className={n > max ? 'counter over' : 'counter'}>{rule.label}: {n.toLocaleString('en-US')}/{max.toLocaleString('en-US')} {rule.unit}</span>;
            })}
          </div>
        </div>
        {targets.map((a) => (
          <div key={a._id} className="custom-content">
            <label className="check">
              <input type="checkbox" checked={custom[a._id] !== undefined} onChange={(e) => setCustom((c) => ({ ...c, [a._id]: e.target.checked ? content : undefined }))} />
              Custom text for <PlatformBadge platform={a.platform} /> @{a.username}
            </label>
            {custom[a._id] !== undefined && (
              <div className="field">
                <label htmlFor={`c-custom-${a._id}`} className="sr-only">Custom text for {a.platform} @{a.username}</label>
                <textarea id={`c-custom-${a._id}`} value={custom[a._id]} onChange={(e) => setCustom((c) => ({ ...c, [a._id]: e.target.value }))} />
                {PLATFORM_RULES[a.platform as PlatformName] && (() => {
                  const rule = PLATFORM_RULES[a.platform as PlatformName];
                  const n = textLength(rule, custom[a._id] ?? '');
                  const max = ruleMaxText(rule, uploaded);
                  return <span className={n > max ? 'counter over' : 'counter'}>{n.toLocaleString('en-US')}/{max.toLocaleString('en-US')} {rule.unit}</span>;
                })()}
              </div>
            )}
          </div>
        ))}
      </section>
      <section className="card" aria-labelledby="c-media-title">
        <h2 id="c-media-title" className="small-title">Attachments</h2>
        <MediaTray media={media} setMedia={setMedia} addFiles={addFiles} onLibrary={() => setPicking(true)} />
        {picking && <LibraryPicker onClose={() => setPicking(false)} onPick={(f) => setMedia((m) => [...m, libraryEntry(f)])} />}
      </section>
      <section className="card" aria-labelledby="c-options">
        <h2 id="c-options" className="small-title">Options</h2>
        {targets.map((a) => (
          <PlatformOptions key={`o-${a._id}`} account={a} value={options[a._id] ?? {}} onChange={(next) => setOptions((o) => ({ ...o, [a._id]: next }))} />
        ))}
        <details className="more-options" open={moreOpen} onToggle={(e) => setMoreOpen(e.currentTarget.open)}>
          <summary>Tags and visibility</summary>
          <div className="form-row">
            <div className="field grow">
              <label htmlFor="c-tags">Tags</label>
              <input id="c-tags" value={tagsText} onChange={(e) => setTagsText(e.target.value)} placeholder="comma-separated, e.g. baking, bread" aria-describedby="c-tags-hint" />
              <span id="c-tags-hint" className="hint">Up to 100 characters each, 500 in all; YouTube uses them as video tags.</span>
            </div>
            <div className="field">
              <label htmlFor="c-visibility">Visibility</label>
              <select id="c-visibility" value={visibility} onChange={(e) => setVisibility(e.target.value as typeof visibility)}>
                <option value="public">Public</option><option value="unlisted">Unlisted</option><option value="private">Private</option>
              </select>
            </div>
          </div>
        </details>
      </section>
      <section className="card" aria-labelledby="c-when">
        <h2 id="c-when" className="small-title">When</h2>
        <fieldset className="modes">
          <legend className="sr-only">When to publish</legend>
          {MODES.map(([m, label, hint]) => (
            <label key={m} className={`mode${mode === m ? ' on' : ''}`}>
              <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
              <span><strong>{label}</strong><span className="hint">{hint}</span></span>
            </label>
          ))}
        </fieldset>
        {mode === 'queue' && queueSlot && queueSlot.profile === profileId && (
          <p className="alert alert-info" id="c-slot">Into the queue slot of {timeFormat.slot(queueSlot.slot, tz)} (the next free slot if it is taken by then).</p>
        )}
        {mode === 'queue' && (queues.data?.length ?? 0) > 1 && (
          <div className="field">
            <label htmlFor="c-queue">Queue</label>
            <select id="c-queue" value={queueId || (queues.data!.find((q) => q.isDefault)?._id ?? '')} onChange={(e) => setQueueId(e.target.value)}>
              {queues.data!.map((q) => <option key={q._id} value={q._id}>{q.name}{q.isDefault ? ' (default)' : ''}</option>)}
            </select>
          </div>
        )}
        {mode === 'queue' && !queueSlot && nextSlot.data?.nextSlot && (
          <p className="alert alert-info" id="c-next-slot">Into the next free slot: {timeFormat.slot(nextSlot.data.nextSlot, nextSlot.data.timezone)}.</p>
        )}
        {queueProblem && (
          <p className="alert alert-warn" role="alert" id="c-queue-problem">
            {queueProblem === 'none' ? 'This profile has no queue yet: give it weekly posting times first. '
              : queueProblem === 'paused' ? 'The queue of this profile is paused: turn it on first. '
                : 'Every slot of this queue is taken: add posting times first. '}
            <a href="/dashboard/queue">Set up the queue</a>
          </p>
        )}
        {mode === 'schedule' && (
          <div className="when-fields">
            <DateTimeField idPrefix="c" date={date} time={time} onDate={setDate} onTime={setTime} dateInvalid={!!fieldErrors.scheduledFor} />
            <TimeZoneField id="c-tz" className="field" value={tz} onChange={setTz} />
            {inPast && <p className="alert alert-warn" role="alert" id="c-past">This time is in the past: the post will be published as soon as you save it.</p>}
          </div>
        )}
      </section>
    </>
  );
  const finish: ReactNode = (
    <>
      <section className="card checks" aria-labelledby="c-checks" aria-live="polite">
        <h2 id="c-checks" className="small-title">Checks</h2>
        {targets.length === 0 && mode !== 'draft' && <p className="muted">Pick at least one account.</p>}
        {checkingSubreddits.length > 0 && <p className="muted">Checking {checkingSubreddits.join(', ')}'s posting rules…</p>}
        {server.state === 'checking' && <p className="muted">Checking with Herald…</p>}
        {problems.length === 0 && checkingSubreddits.length === 0 && targets.length > 0 && (server.state === 'ok' || mode === 'draft' && server.state === 'idle') && <p className="ok-text">✓ Fits every selected platform's rules.</p>}
        {server.state === 'unknown' && (
          // Herald could not be asked: the composer's own checks passed, and it says no more than that.
          <>
            <p className="ok-text">✓ Fits the platform rules checked in this browser.</p>
            <div className="alert alert-warn server-unknown">
              <p><strong>Could not check with Herald</strong> ({server.reason}). What only Herald checks (the accounts as stored, the media it fetches, duplicates) is not checked yet; saving checks it.</p>
              <button type="button" className="btn btn-sm" onClick={server.retry}>Check again</button>
            </div>
          </>
        )}
        {serverProblems.length > 0 && (
          <ul className="problems">{serverProblems.map((p, i) => <li key={`s${i}`}>{p.platform ? <PlatformBadge platform={p.platform} /> : null}{p.account && targets.filter((a) => a.platform === p.platform).length > 1 ? ` @${p.account}` : ''}{p.platform ? ': ' : ''}{p.message}</li>)}</ul>
        )}
        {problems.length > 0 && (
          <ul className="problems">{problems.map((p, i) => <li key={i}><PlatformBadge platform={p.platform} />{targets.filter((a) => a.platform === p.platform).length > 1 ? ` @${p.account}` : ''}: {p.message}</li>)}</ul>
        )}
        {uploading && <p className="muted">Waiting for uploads to finish…</p>}
      </section>
      {forReview && (
        <p className="alert alert-info" id="c-review">
          <strong>This post will be sent for review.</strong> {profiles.data?.find((p) => p._id === profileId)?.name ?? 'This profile'} requires
          approval: the post waits as “Waiting for approval” and goes out {mode === 'now' ? 'once' : 'at its time once'} an approver approves it.
        </p>
      )}
      <ErrorBox error={save.error} title="The post was not saved" />
      <button type="submit" className="btn btn-primary wide" disabled={cannotSave}>
        {save.isPending ? 'Saving…' : forReview ? 'Send for review' : mode === 'schedule' ? (inPast ? 'Publish now (time is past)' : postId ? 'Save and schedule' : 'Schedule post') : mode === 'now' ? 'Publish now' : mode === 'queue' ? 'Add to queue' : 'Save draft'}
      </button>
    </>
  );

  return (
    <>
      <PageTitle title={postId ? 'Edit post' : 'New post'} />
      <form className={`composer${narrow ? ' composer-narrow' : ''}`} onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
        {narrow ? (
          // Until the tabs arrive (a phone's first visit), the form alone.
          <Suspense fallback={<div className="composer-main">{form}{finish}</div>}>
            <ComposerTabs compose={<>{form}{finish}</>} preview={preview} count={targets.length} />
          </Suspense>
        ) : (
          <>
            <div className="composer-main">{form}</div>
            <aside className="composer-side">{preview}{finish}</aside>
          </>
        )}
      </form>
    </>
  );
}
