import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type CreateKeyBody } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { ALL_PERMISSIONS, RESOURCES, type Permission } from '../../../../src/shared/permissions.ts';
import { browserTimeZone, formatInZone } from '../time.ts';
import { toast } from '../ui/toast.ts';
import { ConfirmButton } from '../ui/confirm.tsx';
import { ScopePicker, type Scope } from '../ui/scope-picker.tsx';
import { useProfiles } from '../queries/profiles.ts';


export default function ApiKeysPage() {
  const qc = useQueryClient();
  const tz = browserTimeZone();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => unwrap(api.GET('/v1/api-keys')).then((r) => r.apiKeys) });
  const [name, setName] = useState('');
  const [perms, setPerms] = useState<Set<Permission>>(new Set(['posts:read', 'posts:write']));
  const [expires, setExpires] = useState('');
  // A key limited to some profiles (decision 0063), as a team member can be.
  const profiles = useProfiles();
  const [scope, setScope] = useState<Scope>({ scope: 'all', profileIds: [] });
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);

  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/api-keys', { body: {
      name: name.trim(), permissions: [...perms] as CreateKeyBody['permissions'], ...(expires ? { expiresIn: Number(expires) } : {}),
      ...(scope.scope === 'profiles' ? { scope: 'profiles' as const, profileIds: scope.profileIds } : {}),
    } })),
    onSuccess: (r) => {
      setCreated({ name: r.apiKey.name, key: r.apiKey.key ?? '' }); setCopied(false); setName(''); setScope({ scope: 'all', profileIds: [] });
      void qc.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => unwrap(api.DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['api-keys'] }),
  });

  const toggle = (p: Permission) => setPerms((s) => { const n = new Set(s); if (n.has(p)) n.delete(p); else n.add(p); return n; });

  return (
    <>
      <PageTitle title="API keys" />
      <p className="muted">Keys authenticate scripts and integrations against the <a href="/docs#authentication">/v1 API</a>. A key is shown once, when it is created.</p>
      {created && (
        <div className="alert alert-ok key-created" role="status">
          <p><strong>Key “{created.name}” created.</strong> Copy it now: it will not be shown again.</p>
          <div className="key-box"><code data-testid="new-key">{created.key}</code>
            <button type="button" className="btn btn-sm" onClick={() => navigator.clipboard.writeText(created.key).then(() => setCopied(true), () => toast({ title: 'Could not copy', body: 'Your browser refused access to the clipboard: select the text and copy it yourself.', tone: 'error' }))}>{copied ? 'Copied!' : 'Copy'}</button>
          </div>
          <button type="button" className="btn btn-sm" onClick={() => setCreated(null)}>Done</button>
        </div>
      )}
      <form className="card" onSubmit={(e) => { e.preventDefault(); create.mutate(); }} aria-labelledby="k-new">
        <h2 id="k-new" className="small-title">Create a key</h2>
        <div className="form-row">
          <div className="field grow"><label htmlFor="k-name">Name</label><input id="k-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="e.g. CI publisher" /></div>
          <div className="field"><label htmlFor="k-exp">Expires in (days)</label><input id="k-exp" type="number" min={1} max={3650} value={expires} onChange={(e) => setExpires(e.target.value)} placeholder="never" /></div>
        </div>
        <ScopePicker id="k-profiles" legend="Profiles the key reaches" value={scope} onChange={setScope} profiles={profiles.data ?? []} />
        {scope.scope === 'profiles' && <p className="muted small-text">The key sees and posts only to these profiles&apos; accounts, posts and media; it cannot manage the team, profiles or webhooks.</p>}
        <fieldset className="perm-grid">
          <legend>Permissions</legend>
          <div className="perm-head" aria-hidden="true"><span /> <span>read</span> <span>write</span></div>
          {RESOURCES.map((r) => (
            <div key={r} className="perm-row">
              <span>{r}</span>
              {(['read', 'write'] as const).map((a) => {
                const p = `${r}:${a}` as Permission;
                return <label key={a} className="perm-check"><input type="checkbox" checked={perms.has(p)} onChange={() => toggle(p)} /><span className="sr-only">{p}</span></label>;
              })}
            </div>
          ))}
          <label className="check small"><input type="checkbox" checked={perms.has('posts:approve')} onChange={() => toggle('posts:approve')} /> posts:approve (approve posts, request changes, client review links)</label>
          <div className="button-row">
            <button type="button" className="btn btn-sm" onClick={() => setPerms(new Set(ALL_PERMISSIONS))}>All</button>
            <button type="button" className="btn btn-sm" onClick={() => setPerms(new Set(RESOURCES.map((r) => `${r}:read` as Permission)))}>Read only</button>
          </div>
        </fieldset>
        <ErrorBox error={create.error} title="Could not create the key" />
        <button type="submit" className="btn btn-primary" disabled={create.isPending || !name.trim() || perms.size === 0 || (scope.scope === 'profiles' && scope.profileIds.length === 0)}>Create key</button>
      </form>
      <ErrorBox error={keys.error ?? revoke.error} />
      {keys.isLoading && <Loading />}
      {keys.data && (
        <div className="table-wrap card flush">
          <table>
            <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Permissions</th><th scope="col">Profiles</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td><td><code>{k.keyPreview}</code></td>
                  <td className="perm-list">{k.permissions.length >= ALL_PERMISSIONS.length ? 'all' : k.permissions.join(', ')}</td>
                  <td className="perm-list">{k.scope === 'profiles' ? (k.profileIds ?? []).map((p) => p.name).join(', ') || '(deleted profiles)' : 'all'}</td>
                  <td className="nowrap">{k.expiresAt ? formatInZone(k.expiresAt, tz, { dateStyle: 'medium' }) : 'never'}</td>
                  <td className="nowrap">{k.lastUsedAt ? formatInZone(k.lastUsedAt, tz) : '—'}</td>
                  <td><ConfirmButton className="btn btn-sm btn-danger" title={`Revoke the key “${k.name}”?`} message="It stops working at once." confirmLabel="Revoke key" onConfirm={() => revoke.mutate(k.id)}>Revoke<span className="sr-only"> {k.name}</span></ConfirmButton></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
