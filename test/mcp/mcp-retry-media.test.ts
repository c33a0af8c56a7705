/**
 * The MCP tools retry_post_target (POST /v1/posts/{postId}/retry with a target) and
 * upload_media_from_url (POST /v1/media/from-url), through the official SDK client over real
 * HTTP: their input schemas are their routes' schemas, they answer what the routes answer, their
 * errors carry the field, and keys without the routes' permissions do not see them.
 */
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { startMediaServer, type MediaServer } from '../support/media-server.ts';
import { makePng } from '../support/png.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

let ctx: TestContext;
let base: string;
let media: MediaServer;

beforeAll(async () => {
  ctx = await createTestApp({ listen: true, deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  media = await startMediaServer();
});
afterAll(async () => { await media.close(); await ctx.close(); });

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'herald-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}
const json = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);

describe('MCP: retry_post_target', () => {
  it('is listed with the route\'s body fields; retry_post is not given them', async () => {
    const t = await createTenant(ctx);
    const client = await connect(t.apiKey);
    const { tools } = await client.listTools();
    const one = tools.find((x) => x.name === 'retry_post_target')!;
    expect(Object.keys(one.inputSchema.properties ?? {}).sort()).toEqual(['accountId', 'platform', 'postId']);
    expect(one.inputSchema.required).toEqual(['postId']);
    expect(one.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(Object.keys(tools.find((x) => x.name === 'retry_post')!.inputSchema.properties ?? {})).toEqual(['postId']);
    await client.close();
  });

  it('retries only the named failed target, and refuses a target that is not failed naming the field', async () => {
    const t: Tenant = await createTenant(ctx);
    const profileId = await createProfile(ctx, t);
    const ok = await insertAccount(ctx, t, profileId);
    const b = await insertAccount(ctx, t, profileId);
    const c = await insertAccount(ctx, t, profileId);
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: t.headers, payload: {
      content: 'agent retry', publishNow: true,
      platforms: [{ platform: 'bluesky', accountId: ok }, { platform: 'bluesky', accountId: b, customContent: 'b #reject' }, { platform: 'bluesky', accountId: c, customContent: 'c #reject' }],
    } });
    const postId = created.json().post._id;
    const client = await connect(t.apiKey);

    const notFailed = await client.callTool({ name: 'retry_post_target', arguments: { postId, accountId: ok } });
    expect(notFailed.isError).toBe(true);
    expect(json(notFailed)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { fields: { accountId: [expect.stringMatching(/not failed/)] } } });
    const noTarget = await client.callTool({ name: 'retry_post_target', arguments: { postId } });
    expect(json(noTarget)).toMatchObject({ status: 400, details: { fields: { accountId: [expect.stringMatching(/required/)] } } });
    const smuggled = await client.callTool({ name: 'retry_post', arguments: { postId, accountId: b } });
    expect(json(smuggled)).toMatchObject({ status: 400, details: { fields: { accountId: ['is not an allowed field'] } } });

    const res = await client.callTool({ name: 'retry_post_target', arguments: { postId, accountId: b } });
    expect(res.isError).toBeFalsy();
    const statuses = Object.fromEntries(json(res).post.platforms.map((p: { accountId: { _id: string }; status: string }) => [p.accountId._id, p.status]));
    expect(statuses).toEqual({ [ok]: 'published', [b]: 'pending', [c]: 'failed' });
    await client.close();
  });
});

describe('MCP: upload_media_from_url', () => {
  it('stores the file and answers the route\'s files entry; a bad URL is a tool error naming url', async () => {
    const t = await createTenant(ctx);
    const client = await connect(t.apiKey);
    const tool = (await client.listTools()).tools.find((x) => x.name === 'upload_media_from_url')!;
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['filename', 'url']);
    expect(tool.inputSchema.required).toEqual(['url']);
    const bytes = makePng();
    const res = await client.callTool({ name: 'upload_media_from_url', arguments: { url: media.put('/agent.png', bytes, 'image/png') } });
    expect(res.isError).toBeFalsy();
    expect(json(res).files).toEqual([{ type: 'image', url: expect.any(String), filename: 'agent.png', size: bytes.length, mimeType: 'image/png' }]);
    const listed = await client.callTool({ name: 'list_media', arguments: {} });
    expect(json(listed).files.map((f: { url: string }) => f.url)).toEqual([json(res).files[0].url]);
    const bad = await client.callTool({ name: 'upload_media_from_url', arguments: { url: `${media.url}/missing.png` } });
    expect(json(bad)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { fields: { url: [expect.stringMatching(/HTTP 404/)] } } });
    await client.close();
  });

  it('is not listed for a key without media:write, nor retry_post_target without posts:write', async () => {
    const reader = await createTenant(ctx, { permissions: ['posts:read', 'media:read'] });
    const client = await connect(reader.apiKey);
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).toContain('list_media');
    expect(names).not.toContain('upload_media_from_url');
    expect(names).not.toContain('retry_post_target');
    await client.close();
  });
});
