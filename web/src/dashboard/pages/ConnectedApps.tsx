/**
 * AI assistants (MCP): the MCP URL to paste into an assistant, with copy buttons, and the
 * connected apps (OAuth clients) with their profiles, capabilities and last use; disconnecting
 * one ends all its tokens at once (GET and DELETE /v1/me/connected-apps).
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { ErrorBox, Loading, PageTitle } from '../components.tsx';
import { browserTimeZone, formatInZone } from '../time.ts';
import { useProfiles } from '../queries/profiles.ts';

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="key-box">
      <span className="muted">{label}</span> <code data-testid={testId}>{value}</code>
      <button type="button" className="btn btn-sm" onClick={() => navigator.clipboard.writeText(value).then(() => setCopied(true), () => setCopied(false))}>
        {copied === null ? 'Copy' : copied ? 'Copied!' : 'Copy failed: select and copy it'}
      </button>
    </div>
  );
}

export default function ConnectedAppsPage() {
  const qc = useQueryClient();
  const tz = browserTimeZone();
  const mcpUrl = `${window.location.origin}/mcp`;
  const apps = useQuery({ queryKey: ['connected-apps'], queryFn: () => unwrap(api.GET('/v1/me/connected-apps')).then((r) => r.connectedApps) });
  const profiles = useProfiles();
  const revoke = useMutation({
    mutationFn: (clientId: string) => unwrap(api.DELETE('/v1/me/connected-apps/{clientId}', { params: { path: { clientId } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['connected-apps'] }),
  });
  const profileName = (id: string) => profiles.data?.find((p) => p._id === id)?.name ?? id;
  const claudeConfig = JSON.stringify({ mcpServers: { herald: { url: mcpUrl } } });

  return (
    <>
      <PageTitle title="AI assistants" />
      <p className="muted">Connect Claude, ChatGPT, Cursor or any MCP (Model Context Protocol) client to Herald: add this URL as a remote MCP server. The assistant opens a Herald page where you choose the profiles and what it may do. Scripts can send an API key instead (<a href="/docs#mcp">docs</a>).</p>
      <div className="card">
        <CopyField label="MCP URL" value={mcpUrl} testId="mcp-url" />
        <CopyField label="Cursor / JSON config" value={claudeConfig} testId="mcp-config" />
      </div>
      <h2 className="small-title">Connected apps</h2>
      {apps.isLoading && <Loading />}
      {apps.error && <ErrorBox error={apps.error} />}
      {revoke.error && <ErrorBox error={revoke.error} />}
      {apps.data && apps.data.length === 0 && <p className="muted" data-testid="no-connected-apps">No app is connected.</p>}
      {apps.data && apps.data.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Connected apps">
        <table className="table" data-testid="connected-apps">
          <thead><tr><th scope="col">App</th><th scope="col">Redirects to</th><th scope="col">May</th><th scope="col">Profiles</th><th scope="col">Last used</th><th scope="col">Tokens</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {apps.data.map((a) => (
              <tr key={a.clientId}>
                <td>{a.clientName} <span className="muted">(self-declared)</span></td>
                <td>{a.redirectHost ?? '—'}</td>
                <td>{a.scopes.join(', ')}</td>
                <td>{a.profileIds.map(profileName).join(', ')}</td>
                <td>{a.lastUsedAt ? formatInZone(a.lastUsedAt, tz) : 'never'}</td>
                <td>{a.tokenCount}</td>
                <td><button type="button" className="btn btn-sm btn-danger" disabled={revoke.isPending} onClick={() => revoke.mutate(a.clientId)}>Disconnect</button></td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </>
  );
}
