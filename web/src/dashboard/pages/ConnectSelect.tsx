/**
 * Selection screens of the connect flows: a Facebook page, or LinkedIn personal/organization.
 * The OAuth callback lands here with `profileId` and `tempToken`; the lists and the choice go
 * through the public API (GET/POST /v1/connect/facebook/select-page,
 * POST /v1/connect/linkedin/select-organization). Until those adapters exist, the API's error shows.
 */
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { rawRequest } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';

interface FbPage { id: string; name: string; category?: string; tasks?: string[] }

export function FacebookSelectPage() {
  const q = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const profileId = q.get('profileId') ?? '';
  const tempToken = q.get('tempToken') ?? '';
  const [pageId, setPageId] = useState('');
  const pages = useQuery({
    queryKey: ['fb-pages', profileId, tempToken],
    queryFn: () => rawRequest<{ pages: FbPage[] }>('GET', `/v1/connect/facebook/select-page?profileId=${encodeURIComponent(profileId)}&tempToken=${encodeURIComponent(tempToken)}`),
  });
  const choose = useMutation({
    mutationFn: () => rawRequest('POST', '/v1/connect/facebook/select-page', { profileId, pageId, tempToken, userProfile: {} }),
    onSuccess: () => navigate('/profiles?connected=facebook'),
  });
  return (
    <>
      <PageTitle title="Choose a Facebook page" />
      <p className="muted">Herald posts to a page you administer, never to your personal profile.</p>
      {pages.isLoading && <Loading />}
      <ErrorBox error={pages.error} title="Could not list your pages" />
      {pages.data && (
        <form className="card" onSubmit={(e) => { e.preventDefault(); choose.mutate(); }}>
          <fieldset><legend>Pages</legend>
            {pages.data.pages.map((p) => (
              <label key={p.id} className="check"><input type="radio" name="page" value={p.id} checked={pageId === p.id} onChange={() => setPageId(p.id)} /> {p.name} {p.category && <span className="muted">({p.category})</span>}</label>
            ))}
          </fieldset>
          <ErrorBox error={choose.error} title="Could not connect the page" />
          <button type="submit" className="btn btn-primary" disabled={!pageId || choose.isPending}>Connect this page</button>
        </form>
      )}
    </>
  );
}

export function LinkedInSelectOrganization() {
  const q = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const [accountType, setAccountType] = useState<'personal' | 'organization'>('personal');
  const [orgId, setOrgId] = useState('');
  const [orgName, setOrgName] = useState('');
  const choose = useMutation({
    mutationFn: () => rawRequest('POST', '/v1/connect/linkedin/select-organization', {
      profileId: q.get('profileId') ?? '', tempToken: q.get('tempToken') ?? '', userProfile: {}, accountType,
      ...(accountType === 'organization' ? { selectedOrganization: { id: orgId, urn: `urn:li:organization:${orgId}`, name: orgName } } : {}),
    }),
    onSuccess: () => navigate('/profiles?connected=linkedin'),
  });
  return (
    <>
      <PageTitle title="Post as you or as a company page" />
      <form className="card" onSubmit={(e) => { e.preventDefault(); choose.mutate(); }}>
        <fieldset><legend>LinkedIn account type</legend>
          <label className="check"><input type="radio" name="t" checked={accountType === 'personal'} onChange={() => setAccountType('personal')} /> Personal profile</label>
          <label className="check"><input type="radio" name="t" checked={accountType === 'organization'} onChange={() => setAccountType('organization')} /> Company page (you must be an admin)</label>
        </fieldset>
        {accountType === 'organization' && (
          <div className="form-row">
            <div className="field grow"><label htmlFor="li-id">Numeric company id</label><input id="li-id" inputMode="numeric" pattern="[0-9]+" value={orgId} onChange={(e) => setOrgId(e.target.value)} placeholder="107655573" required /><span className="hint">From linkedin.com/company/107655573/ (not the vanity name)</span></div>
            <div className="field grow"><label htmlFor="li-name">Company name</label><input id="li-name" value={orgName} onChange={(e) => setOrgName(e.target.value)} required /></div>
          </div>
        )}
        <ErrorBox error={choose.error} title="Could not finish connecting LinkedIn" />
        <button type="submit" className="btn btn-primary" disabled={choose.isPending}>Continue</button>
      </form>
    </>
  );
}
