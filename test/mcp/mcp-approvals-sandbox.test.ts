/**
 * The approval tools and a per-target time in sandbox mode (decision 0064), end to end: an agent
 * with the owner's API key drafts a post on the sandbox X account whose target has its own time a
 * few seconds ahead (the post's own time is years away), submits it for approval on a profile that
 * requires it, sees it in list_pending_approvals, approves it, and a worker publishes it to the X
 * simulator at the target's time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SANDBOX_SIMULATORS, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { startTestPublisher } from '../support/publishing.ts';
import { startWorker, type Worker } from '../../src/publishing/worker.ts';
import { createProfile, createTestApp, type TestContext } from '../support/app.ts';
import { freePort, waitFor } from '../support/net.ts';

let sandbox: Sandbox;
let ctx: TestContext;
let worker: Worker;
let base: string;
let apiKey: string;
let profileId: string;
let accountId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ simulators: SANDBOX_SIMULATORS.filter((s) => s.platform === 'twitter'), bluesky: false });
  const port = await freePort();
  ctx = await createTestApp({ listen: true, env: { HERALD_SANDBOX: 'on', PORT: String(port) }, deps: { sandbox } });
  base = `http://127.0.0.1:${port}`;
  const publisher = await startTestPublisher(ctx, 'mcp-appr');
  worker = await startWorker({ db: ctx.db, publisher, concurrency: 2, pollMs: 200, staleMs: 5_000 });
  const { userId } = await ctx.services.users.createRootUser({ email: 'sandbox-approver@example.test', password: 'a long enough password 1', name: 'Owner', plan: 'advanced' });
  apiKey = (await ctx.services.apiKeys.create({ tenantId: userId, userId }, { name: 'agent' })).key;
  const headers = { authorization: `Bearer ${apiKey}` };
  profileId = await createProfile(ctx, { userId, apiKey, headers }, 'Sandbox reviewed brand');
  const start = await ctx.app.inject({ method: 'GET', url: `/v1/connect/twitter?profileId=${profileId}`, headers });
  const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
  const callback = new URL(consent.headers.get('location')!);
  await ctx.app.inject({ method: 'GET', url: callback.pathname + callback.search });
  accountId = (await ctx.app.inject({ method: 'GET', url: `/v1/accounts?profileId=${profileId}`, headers })).json().accounts[0]._id;
  expect((await ctx.app.inject({ method: 'PUT', url: `/v1/profiles/${profileId}/approval-rule`, headers, payload: { required: true } })).statusCode).toBe(200);
});
afterAll(async () => {
  await worker?.stop();
  await ctx?.close();
  await sandbox?.close();
});

const json = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);

describe('approvals over MCP in sandbox mode', () => {
  it('draft with a per-target time, submit, list pending, approve: published to the X simulator at the target\'s time', async () => {
    const client = new Client({ name: 'sandbox-approver', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
    const own = new Date(Date.now() + 4_000).toISOString();
    const content = `Reviewed in the sandbox ${Date.now()}`;
    const draft = json(await client.callTool({ name: 'create_draft', arguments: {
      content, scheduledFor: '2031-01-01T09:00:00Z', platforms: [{ platform: 'twitter', accountId, scheduledFor: own }] } })).post;
    expect(draft.platforms[0].scheduledFor).toBe(own);
    expect(json(await client.callTool({ name: 'submit_post_for_approval', arguments: { postId: draft._id } })).post.status).toBe('pending_approval');
    expect(json(await client.callTool({ name: 'list_pending_approvals', arguments: {} })).posts.map((p: { _id: string }) => p._id)).toEqual([draft._id]);
    const approved = await client.callTool({ name: 'approve_post', arguments: { postId: draft._id, comment: 'Ship it' } });
    expect(approved.isError, JSON.stringify(approved.content)).toBeFalsy();
    const published = await waitFor(async () => {
      const post = json(await client.callTool({ name: 'get_post', arguments: { postId: draft._id } })).post;
      return post.status === 'published' ? post : null;
    }, { timeoutMs: 30_000, intervalMs: 500, what: 'the approved post to publish at its target\'s time' });
    expect(published.platforms[0]).toMatchObject({ platform: 'twitter', status: 'published', scheduledFor: own, platformPostId: expect.stringMatching(/^\d+$/) });
    expect(new Date(published.platforms[0].publishedAt).getTime()).toBeGreaterThanOrEqual(new Date(own).getTime());
    expect(published.scheduledFor).toBe('2031-01-01T09:00:00.000Z');
    await client.close();
  });
});
