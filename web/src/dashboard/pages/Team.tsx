/**
 * The Team page (account owner): team members with their profile access, inviting a member
 * (all profiles or chosen ones; the invite link is shown once to copy), pending invites,
 * changing a member's access and removing a member (their sessions end at once).
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Paths, type Profile } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { browserTimeZone, formatInZone } from '../time.ts';
import './team.css';
import { toast } from '../ui/toast.ts';
import { ConfirmButton } from '../ui/confirm.tsx';
import { useProfiles } from '../queries/profiles.ts';
import { ScopePicker, type Scope } from '../ui/scope-picker.tsx';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** A team member, as GET /v1/users answers it. */
type TeamUser = Json<Paths['/v1/users']['get']['responses'][200]>['users'][number];
function MemberRow({ user, profiles, tz }: { user: TeamUser; profiles: Profile[]; tz: string }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [scope, setScope] = useState<Scope>(user.profileAccess[0] === 'all' ? { scope: 'all', profileIds: [] } : { scope: 'profiles', profileIds: user.profileAccess });
  const names = (ids: string[]) => ids.map((id) => profiles.find((p) => p._id === id)?.name ?? id).join(', ');
  const save = useMutation({
    mutationFn: () => unwrap(api.PUT('/v1/users/{userId}', { params: { path: { userId: user._id } }, body: scope })),
    onSuccess: () => { setEditing(false); void qc.invalidateQueries({ queryKey: ['team'] }); },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/users/{userId}', { params: { path: { userId: user._id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['team'] }),
  });
  return (
    <li className="card team-member" data-testid={`member-${user.email}`}>
      <div className="team-member-head">
        <div>
          <strong>{user.name || user.email}</strong> <span className="badge">{user.isRoot ? 'Owner' : 'Member'}</span>
          <div className="muted small-text">{user.email}</div>
          <div className="small-text">{user.profileAccess[0] === 'all' ? 'All profiles' : `Profiles: ${names(user.profileAccess)}`}</div>
          <div className="muted small-text">Joined {formatInZone(user.createdAt, tz)}{user.lastLoginAt ? ` · last sign-in ${formatInZone(user.lastLoginAt, tz)}` : ''}</div>
        </div>
        {!user.isRoot && (
          <div className="team-actions">
            <button type="button" className="btn btn-sm" aria-expanded={editing} onClick={() => setEditing(!editing)}>Change access</button>
            <ConfirmButton className="btn btn-sm btn-danger" isDisabled={remove.isPending} title={`Remove ${user.name || user.email} from the team?`}
              message="They are signed out at once and lose access to every profile." confirmLabel="Remove" onConfirm={() => remove.mutate()}>Remove</ConfirmButton>
          </div>
        )}
      </div>
      {editing && (
        <form onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
          <ScopePicker id={`m-${user._id}`} value={scope} onChange={setScope} profiles={profiles} />
          <ErrorBox error={save.error} title="Could not change access" />
          <button type="submit" className="btn btn-primary btn-sm" disabled={save.isPending || (scope.scope === 'profiles' && scope.profileIds.length === 0)}>Save access</button>
        </form>
      )}
      <ErrorBox error={remove.error} title="Could not remove the member" />
    </li>
  );
}

export default function TeamPage() {
  const qc = useQueryClient();
  const tz = browserTimeZone();
  const users = useQuery({ queryKey: ['team', 'users'], queryFn: () => unwrap(api.GET('/v1/users')).then((r) => r.users) });
  const invites = useQuery({ queryKey: ['team', 'invites'], queryFn: () => unwrap(api.GET('/v1/invite/tokens')).then((r) => r.invites) });
  const profiles = useProfiles();
  const [scope, setScope] = useState<Scope>({ scope: 'all', profileIds: [] });
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/invite/tokens', { body: scope })),
    onSuccess: (r) => { setLink(r.inviteUrl); setCopied(false); void qc.invalidateQueries({ queryKey: ['team', 'invites'] }); },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/v1/invite/tokens/{inviteId}', { params: { path: { inviteId: id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['team', 'invites'] }),
  });
  const all = profiles.data ?? [];
  const names = (ids: string[]) => ids.map((id) => all.find((p) => p._id === id)?.name ?? id).join(', ');

  return (
    <>
      <PageTitle title="Team" />
      <p className="muted">Team members use the dashboard with their own sign-in. They see only the profiles you give them, and never see API keys or billing.</p>

      <form className="card" onSubmit={(e) => { e.preventDefault(); create.mutate(); }} aria-labelledby="t-invite">
        <h2 id="t-invite" className="small-title">Invite a team member</h2>
        <ScopePicker id="invite" value={scope} onChange={setScope} profiles={all} />
        <ErrorBox error={create.error} title="Could not create the invite" />
        <button type="submit" className="btn btn-primary" disabled={create.isPending || (scope.scope === 'profiles' && scope.profileIds.length === 0)}>Create invite link</button>
        {link && (
          <div className="alert alert-ok key-created" role="status">
            <p><strong>Invite link created.</strong> Send it to the person you invite; it works once and expires in 7 days.</p>
            <div className="key-box"><code data-testid="invite-url">{link}</code>
              <button type="button" className="btn btn-sm" onClick={() => navigator.clipboard.writeText(link).then(() => setCopied(true), () => toast({ title: 'Could not copy', body: 'Your browser refused access to the clipboard: select the text and copy it yourself.', tone: 'error' }))}>{copied ? 'Copied!' : 'Copy'}</button>
            </div>
          </div>
        )}
      </form>

      <h2 className="small-title team-heading">Members</h2>
      {users.isLoading || profiles.isLoading ? <Loading /> : <ErrorBox error={users.error ?? profiles.error} />}
      <ul className="team-list">
        {(users.data ?? []).map((u) => <MemberRow key={`${u._id}:${u.profileAccess.join(',')}`} user={u} profiles={all} tz={tz} />)}
      </ul>

      <h2 className="small-title team-heading">Pending invites</h2>
      <ErrorBox error={invites.error ?? revoke.error} />
      {invites.data && invites.data.length === 0 && <p className="muted">No pending invites.</p>}
      <ul className="team-list">
        {(invites.data ?? []).map((i) => (
          <li key={i._id} className="card team-member">
            <div className="team-member-head">
              <div>
                <div>{i.scope === 'all' ? 'All profiles' : `Profiles: ${names(i.invitedProfileIds)}`}</div>
                <div className="muted small-text">Expires {formatInZone(i.expiresAt, tz)}</div>
              </div>
              <button type="button" className="btn btn-sm" onClick={() => revoke.mutate(i._id)} disabled={revoke.isPending}>Revoke</button>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
