/**
 * The OAuth consent page of Herald's MCP authorization server (docs/decisions/0049-oauth-for-mcp.md):
 * the signed-in user sees the client's self-declared name and the host it will send the browser
 * back to, and chooses the profiles and the capabilities the client gets, or refuses.
 */
import { useEffect, useState } from 'react';
import { rawRequest } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';

interface ConsentInfo {
  client: { clientId: string; clientName: string; redirectHost: string | null; redirectUri: string } | null;
  redirectTo?: string;
  profiles: { _id: string; name: string }[];
  capabilities: { id: string; label: string }[];
}

/** The authorization request's parameters, as the authorization endpoint passed them on. */
function requestParams(): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(window.location.search));
}

export default function OAuthConsentPage() {
  const [params] = useState(requestParams);
  const [info, setInfo] = useState<ConsentInfo | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [profiles, setProfiles] = useState<Set<string>>(new Set());
  const [caps, setCaps] = useState<Set<string>>(new Set(['read', 'drafts']));
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // rawRequest: /oauth/consent is the OAuth server's consent route outside /v1, not in the OpenAPI document.
    rawRequest<ConsentInfo>('GET', `/oauth/consent?${new URLSearchParams(params).toString()}`).then((i) => {
      if (i.redirectTo) { window.location.assign(i.redirectTo); return; }
      setInfo(i);
      if (i.profiles.length === 1) setProfiles(new Set([i.profiles[0]._id]));
    }, setError);
  }, [params]);

  const decide = async (allow: boolean) => {
    setBusy(true);
    setError(null);
    try {
      // rawRequest: /oauth/consent is the OAuth server's consent route outside /v1, not in the OpenAPI document.
      const r = await rawRequest<{ redirectTo: string }>('POST', '/oauth/consent', { params, allow, profileIds: [...profiles], capabilities: [...caps] });
      window.location.assign(r.redirectTo);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const toggle = (set: Set<string>, put: (s: Set<string>) => void, id: string) => { const n = new Set(set); if (n.has(id)) n.delete(id); else n.add(id); put(n); };

  if (error && !info) return <><PageTitle title="Connect an app" /><ErrorBox error={error} title="This authorization request cannot be answered" /></>;
  if (!info?.client) return <Loading />;
  return (
    <>
      <PageTitle title="Connect an app" />
      <div className="card" data-testid="oauth-consent">
        <p><strong data-testid="consent-client-name">{info.client.clientName}</strong> (the name it gave itself) asks to use Herald for you through MCP.</p>
        <p>After your answer the browser goes back to <strong data-testid="consent-redirect-host">{info.client.redirectHost ?? info.client.redirectUri}</strong>. Continue only if you started this from that app.</p>
        <fieldset>
          <legend>Profiles it may use</legend>
          {info.profiles.length === 0 && <p className="muted">You have no profile yet.</p>}
          {info.profiles.map((p) => (
            <label key={p._id} className="check-row"><input type="checkbox" name="profile" value={p._id} checked={profiles.has(p._id)} onChange={() => toggle(profiles, setProfiles, p._id)} /> {p.name}</label>
          ))}
        </fieldset>
        <fieldset>
          <legend>What it may do</legend>
          {info.capabilities.map((c) => (
            <label key={c.id} className="check-row"><input type="checkbox" name="capability" value={c.id} checked={caps.has(c.id)} onChange={() => toggle(caps, setCaps, c.id)} /> {c.label}</label>
          ))}
        </fieldset>
        {error !== null && <ErrorBox error={error} />}
        <div className="form-row">
          <button type="button" className="btn btn-primary" disabled={busy || profiles.size === 0 || caps.size === 0} onClick={() => void decide(true)}>Allow</button>
          <button type="button" className="btn" disabled={busy} onClick={() => void decide(false)}>Deny</button>
        </div>
      </div>
    </>
  );
}
