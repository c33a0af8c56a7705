import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, rawRequest, unwrap, type Account, type Profile } from '../api.ts';
import { Avatar, ErrorBox, Loading, PageTitle, PlatformBadge } from '../components.tsx';
import { PLATFORM_IDS, PLATFORM_RULES, type PlatformName } from '../../lib/platforms.ts';
import { INSTANCE_PLATFORMS } from '../../../../src/shared/platforms.ts';
import { ACCOUNT_CARD_SETTINGS, type AccountCardSetting, type CardItem } from '../../../../src/shared/account-card.ts';
import { formatInZone, browserTimeZone } from '../time.ts';
import { AccountHealthPanel } from './account-health.tsx';
import { useProfiles } from '../queries/profiles.ts';
import { useAccounts } from '../queries/accounts.ts';
import { useSandbox } from '../sandbox.ts';
import { ConfirmButton } from '../ui/confirm.tsx';
import { ApprovalRuleSection } from './approvals.tsx';
import { FeedsSection } from './feeds.tsx';

/**
 * The account's setting on its card (a default of the account, or what it publishes as), as its
 * platform's entry in ACCOUNT_CARD_SETTINGS (src/shared/account-card.ts) says: a list read from the
 * platform through the account's resource, and the resource's select to save the choice.
 */
function AccountSetting({ a, spec }: { a: Account; spec: AccountCardSetting }) {
  const qc = useQueryClient();
  const account = a as unknown as Record<string, unknown>;
  const url = (path: string) => path.replace('{accountId}', encodeURIComponent(a._id));
  const listKey = ['account-setting', spec.list.path, a._id];
  const list = useQuery({ queryKey: listKey, queryFn: () => rawRequest<Record<string, unknown>>('GET', url(spec.list.path)) });
  const current = spec.current(account, list.data);
  // null: untouched (the select shows the current choice).
  const [value, setValue] = useState<string | null>(null);
  const shown = value ?? current;
  const items = (list.data?.[spec.list.items] as CardItem[] | undefined) ?? [];
  const options = items.map((item) => ({ value: spec.list.value(item), text: spec.list.text(item) }));
  // The current default stays choosable even when the list no longer has it (e.g. a subreddit the account left since).
  if (spec.keepCurrent && current && !options.some((o) => o.value.toLowerCase() === current.toLowerCase())) {
    options.unshift({ value: current, text: spec.list.text(spec.keepCurrent(current)) });
  }
  const save = useMutation({
    mutationFn: () => rawRequest<Record<string, unknown>>('PUT', url(spec.save.path), spec.save.body(shown, items.find((i) => spec.list.value(i) === shown))),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['accounts'] }); void qc.invalidateQueries({ queryKey: listKey }); },
  });
  const id = `set-${a._id}`;
  const typed = spec.typed && list.error ? spec.typed : undefined;
  return (
    <form className="account-setting" onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
      <label htmlFor={id}>{spec.label}</label>
      {typed
        ? <input id={id} name={typed.name} value={shown} onChange={(e) => setValue(e.target.value)} placeholder={typed.placeholder} maxLength={typed.maxLength} />
        : (
          <select id={id} value={shown} onChange={(e) => setValue(e.target.value)}>
            {spec.kind === 'default' && <option value="">{list.isLoading ? spec.loading : options.length || !spec.none ? spec.choose : spec.none}</option>}
            {spec.kind === 'switch' && !list.data && <option value="">{spec.pending?.(account)}</option>}
            {list.data && spec.own && <option value={spec.own.value}>{spec.own.text(account)}</option>}
            {options.map((o) => <option key={o.value} value={o.value}>{o.text}</option>)}
          </select>
        )}
      <button type="submit" className="btn btn-sm" disabled={save.isPending || !shown.trim() || shown.trim() === current}>{spec.kind === 'default' ? 'Save' : 'Switch'}<span className="sr-only"> {spec.srName}</span></button>
      {save.isSuccess && <span className="state-ok" role="status">{spec.save.done ? spec.save.done(save.data) : 'Saved'}</span>}
      {typed ? <ErrorBox error={list.error} title={typed.listError} /> : null}
      <ErrorBox error={save.error ?? (typed ? null : list.error)} title={spec.error} />
    </form>
  );
}

function ProfileForm({ initial, onDone, submitLabel }: { initial?: Profile; onDone: () => void; submitLabel: string }) {
  const qc = useQueryClient();
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [color, setColor] = useState(initial?.color && /^#[0-9a-f]{6}$/i.test(initial.color) ? initial.color : '#4338ca');
  const [isDefault, setIsDefault] = useState(initial?.isDefault ?? false);
  const save = useMutation({
    mutationFn: async () => {
      if (initial) return unwrap(api.PUT('/v1/profiles/{profileId}', { params: { path: { profileId: initial._id } }, body: { name: name.trim(), description, color, ...(isDefault && !initial.isDefault ? { isDefault: true } : {}) } }));
      return unwrap(api.POST('/v1/profiles', { body: { name: name.trim(), description, color } }));
    },
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['profiles'] }); void qc.invalidateQueries({ queryKey: ['usage'] }); onDone(); },
  });
  const idp = initial ? `p-${initial._id}` : 'p-new';
  return (
    <form className="profile-form" onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
      <div className="form-row">
        <div className="field grow">
          <label htmlFor={`${idp}-name`}>Name</label>
          <input id={`${idp}-name`} value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
        </div>
        <div className="field">
          <label htmlFor={`${idp}-color`}>Colour</label>
          <input id={`${idp}-color`} type="color" value={color} onChange={(e) => setColor(e.target.value)} />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${idp}-desc`}>Description <span className="hint">(optional)</span></label>
        <input id={`${idp}-desc`} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} />
      </div>
      {initial && !initial.isDefault && (
        <label className="check"><input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} /> Make this the default profile</label>
      )}
      <ErrorBox error={save.error} title="Could not save the profile" />
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={save.isPending || !name.trim()}>{save.isPending ? 'Saving…' : submitLabel}</button>
        <button type="button" className="btn" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

/** The sandbox's ready-made Bluesky account (handle and app password), when sandbox mode is on and the local PDS runs; else null. */
function useSandboxBluesky(): { identifier: string; appPassword: string } | null {
  const sandbox = useSandbox();
  const q = useQuery({ queryKey: ['sandbox'], enabled: sandbox, staleTime: Infinity, queryFn: () => unwrap(api.GET('/v1/sandbox')) });
  const b = q.data?.bluesky;
  return b ? { identifier: b.identifier, appPassword: b.appPassword } : null;
}

/**
 * Bluesky's connect form (handle and app password). `reconnect`: the account whose app password
 * is entered again (it was revoked or changed); the same login stores the new one on that account.
 * In sandbox mode the demo account of the local PDS is shown and filled in.
 */
function BlueskyConnect({ profileId, onDone, reconnect }: { profileId: string; onDone: () => void; reconnect?: Account }) {
  const qc = useQueryClient();
  const [identifier, setIdentifier] = useState(reconnect ? reconnect.username.replace(/^@/, '') : '');
  const idBase = reconnect ? `bsky-re-${reconnect._id}` : `bsky-${profileId}`;
  const [appPassword, setAppPassword] = useState('');
  const connect = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/connect/bluesky/credentials', { body: { identifier: identifier.trim(), appPassword: appPassword.trim(), state: profileId } })),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['accounts'] }); void qc.invalidateQueries({ queryKey: ['accounts-health'] }); onDone(); },
  });
  // Sandbox mode: the local PDS's ready-made account (GET /v1/sandbox) is shown and filled in.
  const demo = useSandboxBluesky();
  useEffect(() => {
    if (!demo) return;
    setIdentifier((id) => (id === '' || id === demo.identifier ? demo.identifier : id));
    setAppPassword((pw) => (pw === '' && (identifier === '' || identifier === demo.identifier) ? demo.appPassword : pw));
    // Filled once, when the demo account is known; the user's edits stay.
  }, [demo]);
  return (
    <form className="connect-form" onSubmit={(e) => { e.preventDefault(); connect.mutate(); }} aria-label={reconnect ? `Reconnect Bluesky @${reconnect.username}` : 'Connect Bluesky'}>
      {demo
        ? <p className="alert alert-info sandbox-demo" data-testid="sandbox-bluesky">Sandbox mode: connect the demo account of the local Bluesky server. Handle <code>{demo.identifier}</code>, app password <code>{demo.appPassword}</code> (filled in below).</p>
        : <p className="hint">Use an app password (Bluesky → Settings → Privacy and security → App passwords), never your main password.</p>}
      <div className="form-row">
        <div className="field grow">
          <label htmlFor={`${idBase}-id`}>Handle or email</label>
          <input id={`${idBase}-id`} value={identifier} onChange={(e) => setIdentifier(e.target.value)} placeholder="you.bsky.social" required autoComplete="off" />
        </div>
        <div className="field grow">
          <label htmlFor={`${idBase}-pw`}>App password</label>
          <input id={`${idBase}-pw`} type="password" value={appPassword} onChange={(e) => setAppPassword(e.target.value)} placeholder="xxxx-xxxx-xxxx-xxxx" required autoComplete="off" />
        </div>
      </div>
      <ErrorBox error={connect.error} title={reconnect ? 'Could not reconnect Bluesky' : 'Could not connect Bluesky'} />
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={connect.isPending}>{connect.isPending ? 'Connecting…' : reconnect ? 'Reconnect Bluesky' : 'Connect Bluesky'}</button>
        <button type="button" className="btn" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

/** A chat (channel, group) a bot may post to, as `POST /v1/connect/{platform}/bot-token` and `GET .../select-chat` list it. */
interface BotChat { id: string; title: string; type: string; username?: string }
/** The answer of the bot-token call: a tempToken and what was found, or the account stored at once. */
interface BotTokenAnswer { message: string; tempToken?: string; chats?: BotChat[]; code?: string; botUsername?: string; instructions?: string[] }

/**
 * The connect form of a platform connected with a bot token (connect shape `bot-token`,
 * docs/decisions/0057-telegram.md): the token, then the chats the bot administers as the API
 * lists them (with its code and steps for a chat not found), and the choice. Names no platform:
 * the paths are the generic `/v1/connect/{platform}/bot-token` and `/select-chat`.
 */
function BotTokenConnect({ platform, profileId, onDone, reconnect }: { platform: PlatformName; profileId: string; onDone: () => void; reconnect?: Account }) {
  const qc = useQueryClient();
  const label = PLATFORM_RULES[platform].label;
  const idBase = reconnect ? `bot-re-${reconnect._id}` : `bot-${platform}-${profileId}`;
  const [token, setToken] = useState('');
  const [found, setFound] = useState<BotTokenAnswer | null>(null);
  const [chatId, setChatId] = useState('');
  // Typed by the generated client for one bot-token platform; the paths are the same for every one.
  const path = <S extends string>(suffix: S) => `/v1/connect/${platform}/${suffix}` as `/v1/connect/telegram/${S}`;
  const done = () => { void qc.invalidateQueries({ queryKey: ['accounts'] }); void qc.invalidateQueries({ queryKey: ['accounts-health'] }); onDone(); };
  const start = useMutation({
    mutationFn: async () => (await unwrap(api.POST(path('bot-token'), { body: { profileId, botToken: token.trim() } }))) as BotTokenAnswer,
    onSuccess: (answer) => { setFound(answer); setChatId(answer.chats?.[0]?.id ?? ''); },
  });
  const again = useMutation({
    mutationFn: async () => (await unwrap(api.GET(path('select-chat'), { params: { query: { profileId, tempToken: found!.tempToken! } } }))) as { chats: BotChat[] },
    onSuccess: (r) => setFound((f) => (f ? { ...f, chats: r.chats } : f)),
  });
  const choose = useMutation({
    mutationFn: () => unwrap(api.POST(path('select-chat'), { body: { profileId, tempToken: found!.tempToken!, chatId } })),
    onSuccess: done,
  });
  const chats = found?.chats ?? [];
  return (
    <div className="connect-form" role="group" aria-label={reconnect ? `Reconnect ${label} ${reconnect.username}` : `Connect ${label}`}>
      {!found ? (
        <form onSubmit={(e) => { e.preventDefault(); start.mutate(); }}>
          <p className="hint">Create a bot with @BotFather (send /newbot) and add it to your channel or group as an administrator allowed to post; then paste its token.</p>
          <div className="field grow">
            <label htmlFor={`${idBase}-token`}>Bot token</label>
            <input id={`${idBase}-token`} type="password" value={token} onChange={(e) => setToken(e.target.value)} placeholder="123456789:AA…" required autoComplete="off" />
          </div>
          <ErrorBox error={start.error} title={`Could not connect ${label}`} />
          <div className="button-row">
            <button type="submit" className="btn btn-primary" disabled={start.isPending}>{start.isPending ? 'Checking…' : 'Find my chats'}</button>
            <button type="button" className="btn" onClick={onDone}>Cancel</button>
          </div>
        </form>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); choose.mutate(); }}>
          {chats.length === 0
            ? <p className="hint" role="status">No chat found yet for @{found.botUsername}.</p>
            : (
              <fieldset>
                <legend>Where @{found.botUsername} posts</legend>
                {chats.map((c) => (
                  <label key={c.id} className="radio-row">
                    <input type="radio" name={`${idBase}-chat`} value={c.id} checked={chatId === c.id} onChange={() => setChatId(c.id)} /> {c.title} <span className="muted">({c.type}{c.username ? ` @${c.username}` : ''})</span>
                  </label>
                ))}
              </fieldset>
            )}
          {found.instructions && <ol className="hint">{found.instructions.map((s) => <li key={s}>{s}</li>)}</ol>}
          <ErrorBox error={again.error ?? choose.error} title={`Could not connect ${label}`} />
          <div className="button-row">
            <button type="submit" className="btn btn-primary" disabled={choose.isPending || !chatId}>{choose.isPending ? 'Connecting…' : `Connect ${label}`}</button>
            <button type="button" className="btn" onClick={() => again.mutate()} disabled={again.isPending}>Look again</button>
            <button type="button" className="btn" onClick={onDone}>Cancel</button>
          </div>
        </form>
      )}
    </div>
  );
}

/**
 * The instance form of a platform connected through an instance the user names (Mastodon): the
 * server first, then the browser goes to that server's consent page. `reconnect`: the account
 * whose server is filled in.
 */
function InstanceConnect({ platform, profileId, onDone, reconnect }: { platform: PlatformName; profileId: string; onDone: () => void; reconnect?: Account }) {
  const field = INSTANCE_PLATFORMS[platform]!;
  const [instance, setInstance] = useState(reconnect ? reconnect.username.split('@').pop() ?? '' : '');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = reconnect ? `inst-re-${reconnect._id}` : `inst-${platform}-${profileId}`;
  const label = PLATFORM_RULES[platform].label;
  return (
    <form className="connect-form" aria-label={reconnect ? `Reconnect ${label} ${reconnect.username}` : `Connect ${label}`}
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        setBusy(true);
        startOAuthFlow(platform, profileId, instance.trim()).catch(setError).finally(() => setBusy(false));
      }}>
      <div className="form-row">
        <div className="field grow">
          <label htmlFor={id}>{field.label} <span className="hint">{field.hint}</span></label>
          <input id={id} value={instance} onChange={(e) => setInstance(e.target.value)} placeholder={field.placeholder} required autoComplete="url" />
        </div>
      </div>
      <ErrorBox error={error} title={`Could not connect ${label}`} />
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Connecting…' : `Continue to ${label}`}</button>
        <button type="button" className="btn" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

function AccountRow({ a }: { a: Account }) {
  const qc = useQueryClient();
  const tz = browserTimeZone();
  const disconnect = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/accounts/{accountId}', { params: { path: { accountId: a._id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['accounts'] }),
  });
  const [reconnectError, setReconnectError] = useState<unknown>(null);
  const [reentering, setReentering] = useState(false);
  const broken = a.needsReconnection || !a.isActive;
  const connect = PLATFORM_RULES[a.platform as PlatformName]?.connect ?? 'oauth';
  const oauth = connect === 'oauth';
  const setting = ACCOUNT_CARD_SETTINGS[a.platform as PlatformName];
  return (
    <li className="account-row">
      <Avatar account={a} size={36} />
      <span className="account-name"><strong>{a.displayName || a.username}</strong> <span className="muted">@{a.username.replace(/^@/, '')}</span>
        <span className="account-platform"><PlatformBadge platform={a.platform} /></span></span>
      <span className="account-state">
        {broken
          ? <span className="state state-bad">Needs reconnection{a.inactiveReason ? `: ${a.inactiveReason}` : ''}</span>
          : <span className="state state-ok">Connected</span>}
        {/* Herald renews OAuth tokens by itself: an expiry date is information, not an alarm. */}
        {!broken && a.tokenExpiresAt && <span className="muted" title={`The current token is valid until ${formatInZone(a.tokenExpiresAt, tz, { dateStyle: 'medium' })}`}> · renews automatically</span>}
      </span>
      {broken && (
        <button type="button" className="btn btn-sm btn-primary" aria-expanded={oauth ? undefined : reentering}
          onClick={() => {
            setReconnectError(null);
            // An app-password platform (Bluesky) has no consent page: the password is entered again here;
            // an instance platform (Mastodon) asks its server again.
            if (!oauth) setReentering((x) => !x);
            else startOAuthFlow(a.platform as PlatformName, a.profileId).catch(setReconnectError);
          }}>
          Reconnect<span className="sr-only"> {a.username}</span>
        </button>
      )}
      {reconnectError ? <ErrorBox error={reconnectError} title="Could not start the reconnection" /> : null}
      {broken && connect === 'app-password' && reentering && <BlueskyConnect profileId={a.profileId} reconnect={a} onDone={() => setReentering(false)} />}
      {broken && connect === 'bot-token' && reentering && <BotTokenConnect platform={a.platform as PlatformName} profileId={a.profileId} reconnect={a} onDone={() => setReentering(false)} />}
      {broken && connect === 'instance-oauth' && reentering && <InstanceConnect platform={a.platform as PlatformName} profileId={a.profileId} reconnect={a} onDone={() => setReentering(false)} />}
      <ConfirmButton className="btn btn-sm btn-danger" title={`Disconnect ${a.username}?`} confirmLabel="Disconnect" onConfirm={() => disconnect.mutate()} isDisabled={disconnect.isPending}>Disconnect<span className="sr-only"> {a.username}</span></ConfirmButton>
      {disconnect.error && <ErrorBox error={disconnect.error} title="Could not disconnect" />}
      {setting && a.isActive && <AccountSetting a={a} spec={setting} />}
    </li>
  );
}

/** Starts an OAuth connect (or reconnect) of `platform` into a profile: the browser goes to the platform's consent page. */
async function startOAuthFlow(platform: PlatformName, profileId: string, instance?: string): Promise<void> {
  const query = { profileId, redirect_url: `${location.origin}/dashboard/profiles`, ...(instance ? { instance } : {}) };
  const answer = await api.GET('/v1/connect/{platform}', { params: { path: { platform }, query }, redirect: 'manual' });
  // A redirect answer (opaque to fetch): let the browser follow it.
  if (answer.response.type === 'opaqueredirect') return location.assign(`/v1/connect/${platform}?${new URLSearchParams(query).toString()}`);
  const body = await unwrap(Promise.resolve(answer));
  if (body.authUrl) location.assign(body.authUrl);
  else throw new Error(`The server did not return an authorization URL for ${PLATFORM_RULES[platform].label}`);
}

function ConnectButtons({ profileId }: { profileId: string }) {
  const [open, setOpen] = useState<PlatformName | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<PlatformName | null>(null);

  async function startOAuth(platform: PlatformName) {
    setError(null);
    setBusy(platform);
    try {
      await startOAuthFlow(platform, profileId);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="connect-area">
      <p className="connect-label">Connect an account:</p>
      <div className="connect-buttons">
        {PLATFORM_IDS.map((p) => (
          <button key={p} type="button" className="btn btn-sm" aria-expanded={PLATFORM_RULES[p].connect !== 'oauth' ? open === p : undefined} disabled={busy === p}
            onClick={() => (PLATFORM_RULES[p].connect !== 'oauth' ? setOpen(open === p ? null : p) : void startOAuth(p))}>
            <span className="pdot" style={{ background: PLATFORM_RULES[p].brand }} aria-hidden="true" /> {PLATFORM_RULES[p].label}
          </button>
        ))}
      </div>
      {open && PLATFORM_RULES[open].connect === 'app-password' && <BlueskyConnect profileId={profileId} onDone={() => setOpen(null)} />}
      {open && PLATFORM_RULES[open].connect === 'bot-token' && <BotTokenConnect platform={open} profileId={profileId} onDone={() => setOpen(null)} />}
      {open && PLATFORM_RULES[open].connect === 'instance-oauth' && <InstanceConnect platform={open} profileId={profileId} onDone={() => setOpen(null)} />}
      <ErrorBox error={error} title="Could not start the connection" />
    </div>
  );
}

function ProfileCard({ p, accounts, isOwner }: { p: Profile; accounts: Account[]; isOwner: boolean }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/profiles/{profileId}', { params: { path: { profileId: p._id } } })),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['profiles'] }); void qc.invalidateQueries({ queryKey: ['usage'] }); },
  });
  return (
    <section className="card profile-card" aria-labelledby={`profile-${p._id}`} style={{ borderTop: `5px solid ${p.color}` }}>
      {editing ? <ProfileForm initial={p} onDone={() => setEditing(false)} submitLabel="Save changes" /> : (
        <div className="profile-head">
          <div>
            <h2 id={`profile-${p._id}`}><span className="swatch" style={{ background: p.color }} aria-hidden="true" />{p.name} {p.isDefault && <span className="badge">Default</span>}</h2>
            {p.description && <p className="muted">{p.description}</p>}
          </div>
          <div className="button-row">
            <button type="button" className="btn btn-sm" onClick={() => setEditing(true)}>Edit<span className="sr-only"> {p.name}</span></button>
            <ConfirmButton className="btn btn-sm btn-danger" isDisabled={remove.isPending} title={`Delete the profile “${p.name}”?`} confirmLabel="Delete profile"
              onConfirm={() => remove.mutate()}>Delete<span className="sr-only"> {p.name}</span></ConfirmButton>
          </div>
        </div>
      )}
      <ErrorBox error={remove.error} title="Could not delete the profile" />
      <h3 className="small-title accounts-title">Accounts</h3>
      {accounts.length === 0 ? <p className="muted">No account connected yet.</p> : <ul className="account-list">{accounts.map((a) => <AccountRow key={a._id} a={a} />)}</ul>}
      <ConnectButtons profileId={p._id} />
      <ApprovalRuleSection profileId={p._id} isOwner={isOwner} />
      <FeedsSection profileId={p._id} accounts={accounts} />
    </section>
  );
}

/** `canCreateProfiles`: false for a team member scoped to some profiles (the API refuses them a new profile). */
export default function ProfilesPage({ canCreateProfiles = true, isOwner = false }: { canCreateProfiles?: boolean; isOwner?: boolean }) {
  const profiles = useProfiles();
  const accounts = useAccounts();
  const [creating, setCreating] = useState(false);
  const [params, setParams] = useState(() => new URLSearchParams(location.search));
  const dismiss = () => { history.replaceState(null, '', location.pathname); setParams(new URLSearchParams()); };
  const connectedPlatform = params.get('connected') ?? params.get('platform') ?? '';
  const platformName = PLATFORM_RULES[connectedPlatform as PlatformName]?.label ?? connectedPlatform;
  return (
    <>
      <PageTitle title="Profiles & accounts">
        {canCreateProfiles && <button type="button" className="btn btn-primary" onClick={() => setCreating(true)} disabled={creating}>New profile</button>}
      </PageTitle>
      {params.get('connected') && (
        <div className="alert alert-ok banner" role="status">
          <span>Connected {params.get('username') ? <strong>{params.get('username')}</strong> : 'the account'} on {platformName}.</span>
          <button type="button" className="btn btn-sm btn-ghost" onClick={dismiss}>Dismiss</button>
        </div>
      )}
      {params.get('error') && (
        <div className="alert alert-error banner" role="alert">
          <span>Connecting {platformName || 'the account'} failed: {params.get('error') === 'access_denied' ? 'the authorization was declined' : params.get('error')?.replace(/_/g, ' ')}.</span>
          <button type="button" className="btn btn-sm btn-ghost" onClick={dismiss}>Dismiss</button>
        </div>
      )}
      {creating && <section className="card" aria-label="New profile"><h2 className="small-title">New profile</h2><ProfileForm onDone={() => setCreating(false)} submitLabel="Create profile" /></section>}
      {profiles.isLoading && <Loading />}
      <ErrorBox error={profiles.error ?? accounts.error} />
      <AccountHealthPanel />
      {profiles.data?.length === 0 && !creating && <p className="empty">No profile yet. Create one to connect accounts and schedule posts.</p>}
      <div className="profile-grid">
        {profiles.data?.map((p) => <ProfileCard key={p._id} p={p} accounts={(accounts.data ?? []).filter((a) => a.profileId === p._id)} isOwner={isOwner} />)}
      </div>
    </>
  );
}
