/**
 * Account groups (`/v1/account-groups`, docs/decisions/0070-later-api-gaps.md): named sets of
 * connected accounts across profiles, for cross-posting. Create a group, rename it, change its
 * accounts, delete it; the composer's "Add an account group" then selects its accounts, from every
 * profile, in one pick. A team member limited to some profiles sees only those profiles'
 * accounts, and cannot change a group that reaches beyond them (the API answers 403).
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { ErrorBox, Loading, PageTitle, PlatformBadge } from '../components.tsx';
import { ConfirmButton } from '../ui/confirm.tsx';
import { useAccountGroups, useAccounts, type AccountGroup } from '../queries/accounts.ts';
import { useProfiles } from '../queries/profiles.ts';
import './account-groups.css';

/** The form: a new group (`id` null) or the group being edited. */
interface FormState { id: string | null; name: string; accountIds: string[] }
const EMPTY: FormState = { id: null, name: '', accountIds: [] };

export default function AccountGroupsPage() {
  const qc = useQueryClient();
  const groups = useAccountGroups();
  const accounts = useAccounts();
  const profiles = useProfiles();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['account-groups'] });

  const save = useMutation({
    mutationFn: () => {
      const body = { name: form.name.trim(), accountIds: form.accountIds };
      return form.id
        ? unwrap(api.PUT('/v1/account-groups/{groupId}', { params: { path: { groupId: form.id } }, body }))
        : unwrap(api.POST('/v1/account-groups', { body }));
    },
    onSuccess: (r) => {
      setNotice(form.id ? `Group “${r.group.name}” saved.` : `Group “${r.group.name}” created: pick it under “Add an account group” in New post.`);
      setForm(EMPTY);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (g: AccountGroup) => unwrap(api.DELETE('/v1/account-groups/{groupId}', { params: { path: { groupId: g._id } } })).then(() => g),
    onSuccess: (g) => {
      setNotice(`Group “${g.name}” deleted; its accounts stay connected.`);
      if (form.id === g._id) setForm(EMPTY);
      refresh();
    },
  });

  const byId = new Map((accounts.data ?? []).map((a) => [a._id, a]));
  const profileName = (id: string) => profiles.data?.find((p) => p._id === id)?.name ?? '';
  // The accounts to choose from, by profile (the profiles' order), each profile that has any.
  const sections = (profiles.data ?? []).map((p) => ({ profile: p, accounts: (accounts.data ?? []).filter((a) => a.profileId === p._id) })).filter((s) => s.accounts.length > 0);
  const chosenProfiles = new Set(form.accountIds.map((id) => byId.get(id)?.profileId)).size;
  const flip = (id: string) => setForm((f) => ({ ...f, accountIds: f.accountIds.includes(id) ? f.accountIds.filter((x) => x !== id) : [...f.accountIds, id] }));
  const edit = (g: AccountGroup) => {
    setNotice(null);
    setForm({ id: g._id, name: g.name, accountIds: [...g.accountIds] });
    document.getElementById('ag-name')?.focus();
  };

  return (
    <>
      <PageTitle title="Account groups" />
      <p className="muted">A group names accounts from any of your profiles that often post together. In <a href="/dashboard/compose">New post</a>, “Add an account group” selects all of its accounts at once, whichever profile each belongs to.</p>
      {notice && <div className="alert alert-ok" role="status"><p>{notice}</p></div>}

      <form className="card" onSubmit={(e) => { e.preventDefault(); setNotice(null); save.mutate(); }} aria-labelledby="ag-form-title">
        <h2 id="ag-form-title" className="small-title">{form.id ? 'Edit group' : 'New group'}</h2>
        <div className="field">
          <label htmlFor="ag-name">Name</label>
          <input id="ag-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required maxLength={100} placeholder="e.g. Launch week" />
        </div>
        {(accounts.isLoading || profiles.isLoading) && <Loading />}
        {accounts.data && accounts.data.length === 0 && <p className="muted">No connected account yet. <a href="/dashboard/profiles">Connect one</a> first.</p>}
        {sections.map(({ profile, accounts: list }) => (
          <fieldset key={profile._id} className="ag-profile">
            <legend>{profile.name}</legend>
            <div className="account-picks">
              {list.map((a) => (
                <label key={a._id} className={`account-pick${form.accountIds.includes(a._id) ? ' on' : ''}`}>
                  <input type="checkbox" checked={form.accountIds.includes(a._id)} onChange={() => flip(a._id)} />
                  <PlatformBadge platform={a.platform} /> <span>@{a.username.replace(/^@/, '')}</span>
                  {!a.isActive && <span className="state state-bad"> needs reconnect</span>}
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        <p className="muted small" id="ag-count">{form.accountIds.length} account{form.accountIds.length === 1 ? '' : 's'} chosen{form.accountIds.length ? ` in ${chosenProfiles} profile${chosenProfiles === 1 ? '' : 's'}` : ''}.</p>
        <ErrorBox error={save.error} title="Could not save the group" />
        <div className="button-row">
          <button type="submit" className="btn btn-primary" disabled={save.isPending || !form.name.trim() || form.accountIds.length === 0}>{form.id ? 'Save group' : 'Create group'}</button>
          {form.id && <button type="button" className="btn" onClick={() => setForm(EMPTY)}>Cancel</button>}
        </div>
      </form>

      <ErrorBox error={groups.error ?? remove.error} title={remove.error ? 'Could not delete the group' : undefined} />
      {groups.isLoading && <Loading />}
      {groups.data && groups.data.length === 0 && <p className="empty">No account groups yet.</p>}
      {groups.data && groups.data.length > 0 && (
        <ul className="ag-list" aria-label="Account groups">
          {groups.data.map((g) => (
            <li key={g._id} className="card ag-item">
              <div className="ag-head">
                <h2 className="small-title">{g.name}</h2>
                <span className="muted small">{g.accountIds.length} account{g.accountIds.length === 1 ? '' : 's'}</span>
              </div>
              <ul className="ag-accounts" aria-label={`Accounts of ${g.name}`}>
                {g.accountIds.map((id) => {
                  const a = byId.get(id);
                  return a
                    ? <li key={id}><PlatformBadge platform={a.platform} /> <span>@{a.username.replace(/^@/, '')}</span> <span className="muted small">{profileName(a.profileId)}</span></li>
                    : <li key={id} className="muted small">{id}</li>;
                })}
              </ul>
              <div className="button-row">
                <button type="button" className="btn btn-sm" onClick={() => edit(g)}>Edit<span className="sr-only"> {g.name}</span></button>
                <ConfirmButton className="btn btn-sm btn-danger" title={`Delete the group “${g.name}”?`} message="Its accounts stay connected; posts already made keep their accounts." confirmLabel="Delete group" onConfirm={() => remove.mutate(g)}>Delete<span className="sr-only"> {g.name}</span></ConfirmButton>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
