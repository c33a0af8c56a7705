/**
 * Selection screens of the connect flows: a Facebook page, LinkedIn personal/organization, or a
 * Google Business Profile location. The OAuth callback lands here with `profileId` and
 * `tempToken`; the lists and the choice go through the public API (GET/POST
 * /v1/connect/facebook/select-page, GET/POST /v1/connect/linkedin/select-organization,
 * GET/POST /v1/connect/googlebusiness/select-location).
 */
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';

export function FacebookSelectPage() {
  const q = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const profileId = q.get('profileId') ?? '';
  const tempToken = q.get('tempToken') ?? '';
  const [pageId, setPageId] = useState('');
  const pages = useQuery({
    queryKey: ['fb-pages', profileId, tempToken],
    queryFn: () => unwrap(api.GET('/v1/connect/facebook/select-page', { params: { query: { profileId, tempToken } } })),
  });
  const choose = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/connect/facebook/select-page', { body: { profileId, pageId, tempToken, userProfile: {} } })),
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
          <fieldset className="choice-list"><legend>Pages</legend>
            {pages.data.pages.map((p) => (
              <label key={p.id} className={`choice${pageId === p.id ? ' on' : ''}`}>
                <input type="radio" name="page" value={p.id} checked={pageId === p.id} onChange={() => setPageId(p.id)} />
                <span className="choice-text"><strong>{p.name}</strong>{p.category && <span className="hint">{p.category}</span>}</span>
              </label>
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
  const profileId = q.get('profileId') ?? '';
  const tempToken = q.get('tempToken') ?? '';
  const [choice, setChoice] = useState<string>('personal');
  const orgs = useQuery({
    queryKey: ['linkedin-orgs', profileId, tempToken],
    queryFn: () => unwrap(api.GET('/v1/connect/linkedin/select-organization', { params: { query: { profileId, tempToken } } })),
  });
  const choose = useMutation({
    mutationFn: () => {
      const org = orgs.data?.organizations.find((o) => o.id === choice);
      return unwrap(api.POST('/v1/connect/linkedin/select-organization', {
        body: {
          profileId, tempToken, userProfile: {}, accountType: org ? 'organization' : 'personal',
          ...(org ? { selectedOrganization: { id: org.id, urn: org.urn, name: org.name } } : {}),
        },
      }));
    },
    onSuccess: () => navigate('/profiles?connected=linkedin'),
  });
  return (
    <>
      <PageTitle title="Post as you or as a company page" />
      {orgs.isLoading && <p className="muted">Loading the pages you administer…</p>}
      <ErrorBox error={orgs.error} title="Could not load your LinkedIn pages" />
      {orgs.data && (
        <form className="card" onSubmit={(e) => { e.preventDefault(); choose.mutate(); }}>
          <fieldset className="choice-list"><legend>Publish on LinkedIn as</legend>
            <label className={`choice${choice === 'personal' ? ' on' : ''}`}>
              <input type="radio" name="li-author" checked={choice === 'personal'} onChange={() => setChoice('personal')} />
              <span className="choice-text"><strong>Your personal profile</strong></span>
            </label>
            {orgs.data.organizations.map((o) => (
              <label key={o.id} className={`choice${choice === o.id ? ' on' : ''}`}>
                <input type="radio" name="li-author" checked={choice === o.id} onChange={() => setChoice(o.id)} />
                <span className="choice-text"><strong>{o.name}</strong><span className="hint">Company page {o.id}</span></span>
              </label>
            ))}
          </fieldset>
          <ErrorBox error={choose.error} title="Could not finish connecting LinkedIn" />
          <button type="submit" className="btn btn-primary" disabled={choose.isPending}>Continue</button>
        </form>
      )}
    </>
  );
}

export function GoogleBusinessSelectLocation() {
  const q = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const profileId = q.get('profileId') ?? '';
  const tempToken = q.get('tempToken') ?? '';
  const [locationId, setLocationId] = useState('');
  const locations = useQuery({
    queryKey: ['gbp-locations', profileId, tempToken],
    queryFn: () => unwrap(api.GET('/v1/connect/googlebusiness/select-location', { params: { query: { profileId, tempToken } } })),
  });
  const choose = useMutation({
    mutationFn: () => {
      const loc = locations.data?.locations.find((l) => l.id === locationId);
      return unwrap(api.POST('/v1/connect/googlebusiness/select-location', { body: { profileId, tempToken, locationId, ...(loc ? { accountId: loc.accountId } : {}) } }));
    },
    onSuccess: () => navigate('/profiles?connected=googlebusiness'),
  });
  return (
    <>
      <PageTitle title="Choose a Google Business Profile location" />
      <p className="muted">Each location is its own account: connect again for another location.</p>
      {locations.isLoading && <Loading />}
      <ErrorBox error={locations.error} title="Could not list your locations" />
      {locations.data && (
        <form className="card" onSubmit={(e) => { e.preventDefault(); choose.mutate(); }}>
          <fieldset className="choice-list"><legend>Locations</legend>
            {locations.data.locations.map((l) => (
              <label key={l.id} className={`choice${locationId === l.id ? ' on' : ''}`}>
                <input type="radio" name="location" value={l.id} checked={locationId === l.id} onChange={() => setLocationId(l.id)} />
                <span className="choice-text"><strong>{l.name}</strong><span className="hint">{[l.address, l.accountName].filter(Boolean).join(' · ')}</span></span>
              </label>
            ))}
          </fieldset>
          <ErrorBox error={choose.error} title="Could not connect the location" />
          <button type="submit" className="btn btn-primary" disabled={!locationId || choose.isPending}>Connect this location</button>
        </form>
      )}
    </>
  );
}
