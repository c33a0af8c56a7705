/**
 * The whole OAuth flow of /mcp with the official SDK's client: discovery from the 401
 * (RFC 9728), authorization-server metadata (RFC 8414), dynamic registration (RFC 7591), consent
 * by the signed-in user in a real Chromium (the client's name and redirect host shown, profiles
 * and capabilities chosen), PKCE S256, token, refresh rotation, and revocation from the
 * dashboard's AI assistants page, which ends the client's tokens at once. A drafts-only grant for
 * profile A lists no publishing tool, cannot publish, and sees nothing of profile B.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MemoryOAuthProvider } from '../support/mcp-oauth-client.ts';
import { Zernio } from '@getlatedev/node';
import { axeViolations, chromiumAvailable, shootBothWidths, startDashboard, type DashboardHarness } from '../browser/support.ts';
import { createProfile, insertAccount } from '../support/app.ts';

const run = chromiumAvailable('MCP OAuth flow');
const REDIRECT = 'http://localhost:7/callback';

let h: DashboardHarness;
let profileB: string;
let postB: string;
let accountA: string;

beforeAll(async () => {
  if (!run) return;
  h = await startDashboard({ user: { email: 'owner@example.test', password: 'a long enough password 1', name: 'Owner' }, profile: 'Brand A', accounts: [{ platform: 'bluesky', username: 'brand-a.test' }] });
  accountA = h.accounts['brand-a.test'];
  profileB = await createProfile(h.ctx, h.tenant, 'Brand B');
  const accountB = await insertAccount(h.ctx, h.tenant, profileB, 'bluesky', { username: 'brand-b.test' });
  const res = await h.ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: h.tenant.headers, payload: { content: 'Secret of B', isDraft: true, platforms: [{ platform: 'bluesky', accountId: accountB }] } });
  postB = res.json().post._id;
  await h.signIn();
});
afterAll(async () => { await h?.close(); });

/** Runs the SDK's OAuth flow up to the browser, consents in Chromium with `capabilities` on Brand A, and finishes it. */
async function authorize(provider: MemoryOAuthProvider, capabilities: string[], check = false): Promise<void> {
  const transport = new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { authProvider: provider });
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.info?.client_id).toMatch(/^hmcp_/);
  const url = provider.authorizationUrl!;
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  const page = h.page;
  let callback = '';
  await page.route(`${REDIRECT}**`, (route) => { callback = route.request().url(); void route.fulfill({ body: 'done', contentType: 'text/plain' }); });
  await page.goto(url.toString());
  await page.getByTestId('oauth-consent').waitFor();
  expect(await page.getByTestId('consent-client-name').textContent()).toBe('Test Assistant');
  expect(await page.getByTestId('consent-redirect-host').textContent()).toBe('localhost:7');
  if (check) {
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'mcp-oauth-consent');
  }
  await page.getByLabel('Brand A').check();
  for (const c of ['read', 'drafts', 'publish', 'delete']) {
    const box = page.locator(`input[name="capability"][value="${c}"]`);
    if (capabilities.includes(c)) await box.check(); else await box.uncheck();
  }
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => callback).toContain('code=');
  await page.unroute(`${REDIRECT}**`);
  const code = new URL(callback).searchParams.get('code')!;
  expect(new URL(callback).searchParams.get('iss')).toBe(h.base);
  await transport.finishAuth(code);
  expect(provider.saved?.access_token).toMatch(/^hma_/);
  expect(provider.saved?.refresh_token).toMatch(/^hmr_/);
}

async function connected(provider: MemoryOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { authProvider: provider }));
  return client;
}

const json = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);
const mcpStatus = async (token: string) => (await fetch(`${h.base}/mcp`, {
  method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
})).status;
const tokenRequest = (form: Record<string, string>) => fetch(`${h.base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

describe.skipIf(!run)('MCP over OAuth, end to end', () => {
  const drafts = new MemoryOAuthProvider(REDIRECT, { client_name: 'Test Assistant', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });

  it('registers, consents in the browser, exchanges the code with PKCE; a drafts-only grant for Brand A', async () => {
    await authorize(drafts, ['read', 'drafts'], true);
    const client = await connected(drafts);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_posts', 'create_draft', 'get_post']));
    for (const n of ['schedule_post', 'publish_post_now', 'retry_post', 'retry_post_target', 'unpublish_post', 'delete_post']) expect(names).not.toContain(n);
    const refused = await client.callTool({ name: 'publish_post_now', arguments: { content: 'Go', platforms: [{ platform: 'bluesky', accountId: accountA }] } });
    expect(json(refused)).toMatchObject({ status: 403, code: 'insufficient_permissions' });
    const draft = await client.callTool({ name: 'create_draft', arguments: { content: 'Draft from OAuth', platforms: [{ platform: 'bluesky', accountId: accountA }] } });
    const post = json(draft).post;
    expect(post).toMatchObject({ isDraft: true, status: 'draft' });
    const rest = await h.ctx.app.inject({ method: 'GET', url: `/v1/posts/${post._id}`, headers: h.tenant.headers });
    expect(rest.json().post).toEqual(post);
    await client.close();
  });

  it('a grant for Brand A sees nothing of Brand B', async () => {
    const client = await connected(drafts);
    expect(json(await client.callTool({ name: 'list_profiles', arguments: {} })).profiles.map((p: { name: string }) => p.name)).toEqual(['Brand A']);
    expect(json(await client.callTool({ name: 'list_accounts', arguments: {} })).accounts.map((a: { username: string }) => a.username)).toEqual(['brand-a.test']);
    expect(json(await client.callTool({ name: 'list_posts', arguments: {} })).posts.map((p: { content: string }) => p.content)).not.toContain('Secret of B');
    expect(json(await client.callTool({ name: 'get_post', arguments: { postId: postB } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(json(await client.callTool({ name: 'list_posts', arguments: { profileId: profileB } })).posts ?? []).toEqual([]);
    await expect(client.readResource({ uri: `herald://profiles/${profileB}/queue` })).rejects.toThrow(/not found/);
    const intoB = await client.callTool({ name: 'create_draft', arguments: { content: 'Into B', platforms: [{ platform: 'bluesky', accountId: (await h.ctx.db.query("SELECT id FROM accounts WHERE profile_id = $1", [profileB])).rows[0].id }] } });
    expect(intoB.isError).toBe(true);
    await client.close();
  });

  it('rotates the refresh token; the old one no longer works and its reuse ends the grant', async () => {
    const other = new MemoryOAuthProvider(REDIRECT, { client_name: 'Test Assistant', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
    await authorize(other, ['read']);
    const first = other.saved!;
    const res = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: String(other.info!.client_id) });
    expect(res.status).toBe(200);
    const next = await res.json() as OAuthTokens;
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect(await mcpStatus(next.access_token)).toBe(200);
    const rows = (await h.ctx.db.query('SELECT token_hash FROM oauth_tokens')).rows as { token_hash: Buffer }[];
    expect(rows.some((r) => r.token_hash.toString('utf8').includes('hm'))).toBe(false);
    const again = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: String(other.info!.client_id) });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
    expect(await mcpStatus(next.access_token)).toBe(401);
  });

  it('lists the connected app for the owner (and the official client), and the dashboard revokes it: its token answers 401 at once', async () => {
    const sdk = new Zernio({ apiKey: h.tenant.apiKey, baseURL: h.base });
    const listed = await sdk.connectedapps.listConnectedApps();
    const app = listed.data?.connectedApps?.find((a: { clientId?: string }) => a.clientId === drafts.info!.client_id);
    expect(app).toMatchObject({ clientName: 'Test Assistant', redirectHost: 'localhost:7', scopes: ['read', 'drafts'] });
    expect(app!.tokenCount).toBeGreaterThanOrEqual(2);
    expect(await mcpStatus(drafts.saved!.access_token)).toBe(200);

    const page = h.page;
    await page.goto(`${h.base}/dashboard/connected-apps`);
    expect(await page.getByTestId('mcp-url').textContent()).toBe(`${h.base}/mcp`);
    await page.getByTestId('connected-apps').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shootBothWidths(page, 'mcp-connected-apps');
    const row = page.getByRole('row').filter({ hasText: 'Test Assistant' });
    await row.getByRole('button', { name: 'Disconnect' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await mcpStatus(drafts.saved!.access_token)).toBe(401);
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: drafts.saved!.refresh_token!, client_id: String(drafts.info!.client_id) });
    expect(refreshed.status).toBe(400);
  });
});
