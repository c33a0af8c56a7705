/**
 * Client onboarding (docs/decisions/0037-platform-invites-and-shared-credentials.md): platform invites, links that let a client connect one of their
 * social accounts to a profile without a Herald login (POST/GET/DELETE /v1/platform-invites), and
 * sharing an already connected account with another profile (POST /v1/profiles/{id}/clone-connection).
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { ErrorBox, Loading, PageTitle, PlatformBadge } from '../components.tsx';
import { PLATFORMS, PLATFORM_LABELS, type PlatformId } from '../../../../src/shared/platforms.ts';
import { browserTimeZone, formatInZone } from '../time.ts';
import { toast } from '../ui/toast.ts';
import { ConfirmButton } from '../ui/confirm.tsx';
import { useProfiles } from '../queries/profiles.ts';

/** The link a client opens (the API answers it at creation only; the list gives the token). */
const linkOf = (token: string) => `${location.origin}/v1/platform-invites/${token}/connect`;

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button type="button" className="btn btn-sm" onClick={() => navigator.clipboard.writeText(text).then(() => setCopied(true), () => toast({ title: 'Could not copy', body: 'Your browser refused access to the clipboard: select the text and copy it yourself.', tone: 'error' }))}>
      {copied ? 'Copied!' : 'Copy link'}<span className="sr-only"> {label}</span>
    </button>
  );
}

export default function ClientInvitesPage() {
  const qc = useQueryClient();
  const tz = browserTimeZone();
  const profiles = useProfiles();
  const invites = useQuery({ queryKey: ['platform-invites'], queryFn: () => unwrap(api.GET('/v1/platform-invites')).then((r) => r.invites) });
  const accounts = useQuery({ queryKey: ['accounts'], queryFn: () => unwrap(api.GET('/v1/accounts')).then((r) => r.accounts) });
  const [profileId, setProfileId] = useState('');
  const [platform, setPlatform] = useState<PlatformId>('instagram');
  const [created, setCreated] = useState<{ url: string; platform: string; profile: string } | null>(null);
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [shared, setShared] = useState<string | null>(null);

  const chosenProfile = profileId || profiles.data?.[0]?._id || '';
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/platform-invites', { body: { profileId: chosenProfile, platform } })),
    onSuccess: (r) => {
      setCreated({ url: r.invite.inviteUrl, platform: r.invite.platform, profile: profiles.data?.find((p) => p._id === r.invite.profileId)?.name ?? '' });
      void qc.invalidateQueries({ queryKey: ['platform-invites'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/v1/platform-invites', { params: { query: { id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['platform-invites'] }),
  });
  const clone = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/profiles/{profileId}/clone-connection', { params: { path: { profileId: target } }, body: { sourceAccountId: source } })),
    onSuccess: (r) => {
      setShared(`@${r.connection.username} now also publishes for ${profiles.data?.find((p) => p._id === r.connection.profileId)?.name ?? 'the profile'}.`);
      void qc.invalidateQueries({ queryKey: ['accounts'] });
    },
  });
  const profileName = (id: string) => profiles.data?.find((p) => p._id === id)?.name ?? '';
  const now = Date.now();

  return (
    <>
      <PageTitle title="Client invites" />
      <p className="muted">Send a client a link to connect their own social account to one of your profiles. They need no Herald login and get no access to anything else; each link works once, for 7 days.</p>
      {created && (
        <div className="alert alert-ok key-created" role="status">
          <p><strong>Invite created</strong> for a {PLATFORM_LABELS[created.platform as PlatformId] ?? created.platform} account on {created.profile}. Send this link to your client:</p>
          <div className="key-box"><code data-testid="invite-url">{created.url}</code><CopyButton text={created.url} label="of the new invite" /></div>
          <button type="button" className="btn btn-sm" onClick={() => setCreated(null)}>Done</button>
        </div>
      )}
      <form className="card" onSubmit={(e) => { e.preventDefault(); create.mutate(); }} aria-labelledby="inv-new">
        <h2 id="inv-new" className="small-title">Invite a client</h2>
        <div className="form-row">
          <div className="field grow"><label htmlFor="inv-profile">Profile</label>
            <select id="inv-profile" value={chosenProfile} onChange={(e) => setProfileId(e.target.value)}>
              {(profiles.data ?? []).map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}
            </select>
          </div>
          <div className="field grow"><label htmlFor="inv-platform">Platform</label>
            <select id="inv-platform" value={platform} onChange={(e) => setPlatform(e.target.value as PlatformId)}>
              {PLATFORMS.map((p) => <option key={p} value={p}>{PLATFORM_LABELS[p]}</option>)}
            </select>
          </div>
        </div>
        <ErrorBox error={create.error} title="Could not create the invite" />
        <button type="submit" className="btn btn-primary" disabled={create.isPending || !chosenProfile}>Create invite link</button>
      </form>

      <h2 className="small-title" style={{ marginTop: 22 }}>Invites</h2>
      <ErrorBox error={invites.error ?? revoke.error} />
      {invites.isLoading && <Loading />}
      {invites.data && invites.data.length === 0 && <p className="empty">No invites yet.</p>}
      {invites.data && invites.data.length > 0 && (
        <div className="table-wrap card flush">
          <table>
            <thead><tr><th scope="col">Profile</th><th scope="col">Platform</th><th scope="col">Status</th><th scope="col">Expires</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {invites.data.map((i) => {
                const expired = !i.isUsed && Date.parse(i.expiresAt) <= now;
                const label = `${i.profileId.name} ${PLATFORM_LABELS[i.platform as PlatformId] ?? i.platform}`;
                return (
                  <tr key={i._id}>
                    <td>{i.profileId.name}</td>
                    <td><PlatformBadge platform={i.platform} /></td>
                    <td>{i.isUsed ? <span className="state-ok">Connected</span> : expired ? <span className="state-warn">Expired</span> : 'Waiting'}</td>
                    <td className="nowrap">{formatInZone(i.expiresAt, tz, { dateStyle: 'medium' })}</td>
                    <td>
                      {!i.isUsed && !expired && (
                        <div className="button-row">
                          <CopyButton text={linkOf(i.token)} label={label} />
                          <ConfirmButton className="btn btn-sm btn-danger" title={`Revoke this ${PLATFORM_LABELS[i.platform as PlatformId] ?? i.platform} invite?`} message="The link stops working at once." confirmLabel="Revoke invite" onConfirm={() => revoke.mutate(i._id)}>Revoke<span className="sr-only"> {label}</span></ConfirmButton>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <form className="card" onSubmit={(e) => { e.preventDefault(); setShared(null); clone.mutate(); }} aria-labelledby="share-new" style={{ marginTop: 18 }}>
        <h2 id="share-new" className="small-title">Share a connected account with another profile</h2>
        <p className="muted">The same account publishes for both profiles with one authorization: reconnecting or disconnecting it in one profile leaves the other working.</p>
        <div className="form-row">
          <div className="field grow"><label htmlFor="share-source">Account</label>
            <select id="share-source" value={source} onChange={(e) => setSource(e.target.value)} required>
              <option value="">Choose an account</option>
              {(accounts.data ?? []).map((a) => <option key={a._id} value={a._id}>{PLATFORM_LABELS[a.platform as PlatformId] ?? a.platform} @{a.username} ({profileName(a.profileId)})</option>)}
            </select>
          </div>
          <div className="field grow"><label htmlFor="share-target">Also publish for</label>
            <select id="share-target" value={target} onChange={(e) => setTarget(e.target.value)} required>
              <option value="">Choose a profile</option>
              {(profiles.data ?? []).map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}
            </select>
          </div>
        </div>
        <ErrorBox error={clone.error} title="Could not share the account" />
        {shared && <p className="ok-text" role="status">{shared}</p>}
        <button type="submit" className="btn btn-primary" disabled={clone.isPending || !source || !target}>Share account</button>
      </form>
    </>
  );
}
