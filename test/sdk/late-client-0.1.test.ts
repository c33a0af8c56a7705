/**
 * The official client as it was at 0.1.0 (`getlatedev-node-0.1.0`, an npm alias of
 * `@getlatedev/node@0.1.0`), the last line of versions with `invites.create/list/delete` for
 * platform invites (removed from 0.1.28 on), against a running Herald over real HTTP. One client
 * instance per file: versions up to 0.2.4 share one global client. Clone connection is in no
 * client version; test/api/clone-connection.test.ts drives it over plain HTTP.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Late, LateApiError } from 'getlatedev-node-0.1.0';
import { createProfile, createTenant, createTestApp, type Tenant, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let t: Tenant;
let late: Late;

beforeAll(async () => {
  ctx = await createTestApp({ listen: true });
  t = await createTenant(ctx);
  const { port } = ctx.app.server.address() as AddressInfo;
  late = new Late({ apiKey: t.apiKey, baseURL: `http://127.0.0.1:${port}` });
});
afterAll(async () => { await ctx?.close(); });

describe('platform invites through the official client 0.1.0', () => {
  it('creates, lists (profile populated) and revokes; a foreign profile and a used invite reject with the SDK\'s error', async () => {
    const profileId = await createProfile(ctx, t, 'Client Brand');
    const created = await late.invites.create({ body: { profileId, platform: 'bluesky' } });
    const invite = created.data!.invite!;
    expect(invite).toMatchObject({ platform: 'bluesky', userId: t.userId, isUsed: false, profileId });
    expect((invite as { inviteUrl?: string }).inviteUrl).toBe(`${ctx.services.publicUrl}/v1/platform-invites/${invite.token}/connect`);

    const listed = await late.invites.list({ query: { profileId } });
    expect(listed.data!.invites).toEqual([expect.objectContaining({ _id: invite._id, token: invite.token, profileId: { _id: profileId, name: 'Client Brand' }, isUsed: false })]);

    const used = await late.invites.create({ body: { profileId, platform: 'bluesky' } });
    await ctx.db.query('UPDATE platform_invites SET used_at = now() WHERE id = $1', [used.data!.invite!._id]);
    const refused = await late.invites.delete({ query: { id: used.data!.invite!._id! } }).then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(LateApiError);
    expect((refused as LateApiError).statusCode).toBe(400);
    expect((refused as LateApiError).message).toMatch(/already used/);

    const removed = await late.invites.delete({ query: { id: invite._id! } });
    expect(removed.data).toMatchObject({ message: expect.stringMatching(/revoked/i) });
    expect((await late.invites.list({ query: { profileId } })).data!.invites!.map((i: { _id?: string }) => i._id)).toEqual([used.data!.invite!._id]);

    const other = await createTenant(ctx);
    const foreign = await late.invites.create({ body: { profileId: await createProfile(ctx, other), platform: 'bluesky' } }).then(() => null, (e: unknown) => e);
    expect(foreign).toBeInstanceOf(LateApiError);
    expect((foreign as LateApiError).statusCode).toBe(404);
    const badPlatform = await late.invites.create({ body: { profileId, platform: 'googlebusiness' } }).then(() => null, (e: unknown) => e);
    expect((badPlatform as LateApiError).statusCode).toBe(400);
    // X has no app configured on this server: no link is made that could only fail.
    const unconfigured = await late.invites.create({ body: { profileId, platform: 'twitter' } }).then(() => null, (e: unknown) => e);
    expect(unconfigured).toBeInstanceOf(LateApiError);
    expect((unconfigured as LateApiError).statusCode).toBe(400);
    expect((unconfigured as LateApiError).message).toMatch(/X \(Twitter\) cannot be connected on this server: .*HERALD_TWITTER_CLIENT_ID/);
  });
});
