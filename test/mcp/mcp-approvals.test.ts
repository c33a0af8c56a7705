/**
 * The approval tools of /mcp (decision 0064), driven by the official SDK's client over real HTTP
 * with API keys: an agent submits a draft for review, lists what waits, comments with an @mention,
 * requests changes, submits again and approves; each tool is its /v1 route run as the caller, so a
 * key without `posts:approve` neither lists nor runs the deciding tools, and another tenant's post
 * answers 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let base: string;
let owner: Tenant;
let other: Tenant;
let profileId: string;
let accountId: string;
let otherPostId: string;

beforeAll(async () => {
  ctx = await createTestApp({ listen: true });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  owner = await createTenant(ctx);
  other = await createTenant(ctx);
  profileId = await createProfile(ctx, owner, 'Reviewed brand');
  accountId = await insertAccount(ctx, owner, profileId);
  const rule = await ctx.app.inject({ method: 'PUT', url: `/v1/profiles/${profileId}/approval-rule`, headers: owner.headers, payload: { required: true } });
  expect(rule.statusCode, rule.body).toBe(200);
  const otherProfile = await createProfile(ctx, other);
  const otherAccount = await insertAccount(ctx, other, otherProfile);
  otherPostId = (await ctx.app.inject({ method: 'POST', url: '/v1/posts', headers: other.headers,
    payload: { content: 'other tenant', isDraft: true, platforms: [{ platform: 'bluesky', accountId: otherAccount }] } })).json().post._id;
});
afterAll(async () => { await ctx.close(); });

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'herald-approvals-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

const json = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);
const status = async (id: string) => (await ctx.db.query<{ status: string }>('SELECT status FROM posts WHERE id = $1', [id])).rows[0].status;

describe('approval tools over MCP', () => {
  it('lists the approval tools with their routes\' schemas', async () => {
    const client = await connect(owner.apiKey);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const n of ['list_pending_approvals', 'get_post_approval', 'submit_post_for_approval', 'approve_post', 'request_post_changes', 'comment_on_post']) expect(byName.has(n), n).toBe(true);
    expect(byName.get('request_post_changes')!.inputSchema.required).toEqual(expect.arrayContaining(['postId', 'comment']));
    expect(byName.get('approve_post')!.inputSchema.required).toEqual(['postId']);
    expect(byName.get('list_pending_approvals')!.inputSchema.properties).not.toHaveProperty('status');
    expect(byName.get('list_pending_approvals')!.annotations).toMatchObject({ readOnlyHint: true });
    await client.close();
  });

  it('submit, list pending, comment, request changes, submit again, approve', async () => {
    const client = await connect(owner.apiKey);
    const draft = json(await client.callTool({ name: 'create_draft', arguments: {
      content: 'Agent draft for review', scheduledFor: '2031-05-05T09:00:00Z', platforms: [{ platform: 'bluesky', accountId }] } })).post;
    const submitted = await client.callTool({ name: 'submit_post_for_approval', arguments: { postId: draft._id } });
    expect(submitted.isError, JSON.stringify(submitted)).toBeFalsy();
    expect(json(submitted).post.status).toBe('pending_approval');
    const pending = json(await client.callTool({ name: 'list_pending_approvals', arguments: { profileId } }));
    expect(pending.posts.map((p: { _id: string; status: string }) => [p._id, p.status])).toEqual([[draft._id, 'pending_approval']]);

    const comment = await client.callTool({ name: 'comment_on_post', arguments: { postId: draft._id, body: 'Looks fine, but the hashtag?' } });
    expect(comment.isError).toBeFalsy();
    expect(json(comment).comment).toMatchObject({ visibility: 'internal', body: 'Looks fine, but the hashtag?' });

    const noComment = await client.callTool({ name: 'request_post_changes', arguments: { postId: draft._id } });
    expect(json(noComment)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { fields: { comment: expect.any(Array) } } });
    expect(await status(draft._id)).toBe('pending_approval');
    const back = await client.callTool({ name: 'request_post_changes', arguments: { postId: draft._id, comment: 'Add the campaign hashtag' } });
    expect(back.isError, JSON.stringify(back)).toBeFalsy();
    expect(json(back).post.status).toBe('draft');
    expect(json(await client.callTool({ name: 'list_pending_approvals', arguments: { profileId } })).posts).toEqual([]);

    expect(json(await client.callTool({ name: 'submit_post_for_approval', arguments: { postId: draft._id } })).post.status).toBe('pending_approval');
    const approved = await client.callTool({ name: 'approve_post', arguments: { postId: draft._id, comment: 'Go' } });
    expect(approved.isError, JSON.stringify(approved)).toBeFalsy();
    expect(json(approved)).toMatchObject({ post: { status: 'scheduled', scheduledFor: '2031-05-05T09:00:00.000Z' }, moved: false });
    const review = json(await client.callTool({ name: 'get_post_approval', arguments: { postId: draft._id } })).approval;
    expect(review).toMatchObject({ state: 'approved', canApprove: true });
    expect(review.events.map((e: { kind: string }) => e.kind)).toEqual(['submitted', 'changes_requested', 'submitted', 'approved']);
    // Approving twice is the route's 409.
    expect(json(await client.callTool({ name: 'approve_post', arguments: { postId: draft._id } }))).toMatchObject({ status: 409, code: 'INVALID_STATE' });
    await client.close();
  });

  it('another tenant\'s post answers 404 and changes nothing', async () => {
    const client = await connect(owner.apiKey);
    for (const [name, args] of [['approve_post', {}], ['request_post_changes', { comment: 'x' }], ['submit_post_for_approval', {}], ['comment_on_post', { body: 'x' }], ['get_post_approval', {}]] as const) {
      const r = await client.callTool({ name, arguments: { postId: otherPostId, ...args } });
      expect(json(r), name).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    expect(await status(otherPostId)).toBe('draft');
    expect((await ctx.db.query('SELECT count(*)::int AS n FROM post_comments WHERE post_id = $1', [otherPostId])).rows[0].n).toBe(0);
    await client.close();
  });

  it('a key without posts:approve lists no deciding tool and is refused one', async () => {
    const writer = await createTenant(ctx, { permissions: ['posts:read', 'posts:write', 'profiles:read', 'accounts:read'] });
    const client = await connect(writer.apiKey);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_pending_approvals', 'submit_post_for_approval', 'comment_on_post']));
    expect(names).not.toContain('approve_post');
    expect(names).not.toContain('request_post_changes');
    const refused = await client.callTool({ name: 'approve_post', arguments: { postId: otherPostId } });
    expect(json(refused)).toMatchObject({ status: 403, code: 'insufficient_permissions', details: { required: 'posts:approve' } });
    await client.close();
  });
});
