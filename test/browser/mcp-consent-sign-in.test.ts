/**
 * The MCP consent page reached while signed out (docs/decisions/0049-oauth-for-mcp.md): an
 * assistant opens its authorization URL in a browser that has no Herald session; the dashboard
 * asks the user to sign in on the consent page's own address, and after signing in the user is on
 * the consent page of the same client and the same authorization request (client, redirect URI,
 * PKCE challenge, state), so allowing it gives the code the assistant's verifier redeems. At 1280
 * and 390 px, with axe, on both the sign-in and the consent step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { MemoryOAuthProvider } from '../support/mcp-oauth-client.ts';
import { axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from './support.ts';

const run = chromiumAvailable('MCP consent after signing in');
const REDIRECT = 'http://localhost:7/callback';

let h: DashboardHarness;
beforeAll(async () => {
  if (!run) return;
  h = await startDashboard({ user: { email: 'consent@example.test', password: 'a long enough password 1', name: 'Owner' }, profile: 'Brand A', accounts: [{ platform: 'bluesky', username: 'brand-a.test' }] });
});
afterAll(async () => { await h?.close(); });

describe.skipIf(!run)('the consent page while signed out', () => {
  it('asks to sign in on the consent address, then shows the same client and request, whose code the assistant redeems', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT, { client_name: 'Signed-out Assistant', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
    const transport = new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'test-assistant', version: '1.0.0' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = provider.authorizationUrl!;
    const asked = Object.fromEntries(authorizationUrl.searchParams);
    expect(asked).toMatchObject({ client_id: provider.info!.client_id, redirect_uri: REDIRECT, code_challenge_method: 'S256' });

    const page = h.page;
    let callback = '';
    await page.route(`${REDIRECT}**`, (route) => { callback = route.request().url(); void route.fulfill({ body: 'done', contentType: 'text/plain' }); });
    await page.goto(authorizationUrl.toString());
    // No session: the sign-in form, on the consent page's own address with the whole request.
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    const signInUrl = new URL(page.url());
    expect(signInUrl.pathname).toBe('/dashboard/oauth/consent');
    expect(Object.fromEntries(signInUrl.searchParams)).toEqual(asked);
    expect(await page.getByTestId('oauth-consent').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'mcp-consent-signed-out');

    await page.getByLabel('Email').fill(h.user.email);
    await page.getByLabel('Password').fill(h.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('oauth-consent').waitFor();
    // The same client and the same request: nothing of it was lost on the way through the sign-in.
    expect(new URL(page.url()).pathname).toBe('/dashboard/oauth/consent');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual(asked);
    expect(await page.getByTestId('consent-client-name').textContent()).toBe('Signed-out Assistant');
    expect(await page.getByTestId('consent-redirect-host').textContent()).toBe('localhost:7');
    expect(await page.getByLabel('Brand A').isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'mcp-consent-after-sign-in');

    await page.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => callback).toContain('code=');
    const back = new URL(callback);
    if (asked.state !== undefined) expect(back.searchParams.get('state')).toBe(asked.state);
    expect(back.searchParams.get('iss')).toBe(h.base);
    // The assistant's PKCE verifier (kept since it built the URL) redeems the code: it is this request's grant.
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^hma_/);
    const grants = await h.ctx.db.query<{ client_id: string; profile_ids: string[]; capabilities: string[] }>(
      'SELECT client_id, profile_ids, capabilities FROM oauth_grants WHERE tenant_id = $1', [h.tenant.userId]);
    expect(grants.rows).toEqual([{ client_id: provider.info!.client_id, profile_ids: [h.profileId], capabilities: ['read', 'drafts'] }]);
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { authProvider: provider }));
    const profiles = await client.callTool({ name: 'list_profiles', arguments: {} });
    expect(JSON.parse((profiles as { content: { text: string }[] }).content[0].text).profiles.map((p: { name: string }) => p.name)).toEqual(['Brand A']);
    await client.close();
  });
});
