/**
 * Per-target times (decision 0064): a post's platforms[] entry may carry its own `scheduledFor`,
 * and that target runs then. Through the real app and a real publisher: the target's run_at is its
 * own time, the worker publishes it alone when it is due, the post is `publishing` until its last
 * target is out, edits keep or replace the time, the queue's reshuffle leaves it alone, and an
 * approval keeps a time that has not passed (else the target goes with the post). Bad times are
 * 400s naming `platforms.N.scheduledFor`, and a refused request stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/platforms/registry.ts';
import type { Publisher } from '../../src/publishing/publisher.ts';
import { createProfile, createTenant, createTestApp, insertAccount, type Tenant, type TestContext } from '../support/app.ts';
import { runDue, startTestPublisher } from '../support/publishing.ts';
import { ScriptedAdapter } from '../support/scripted-adapter.ts';

let ctx: TestContext;
let worker: Publisher;
let owner: Tenant;
let profileId: string;
let a1: string;
let a2: string;
const origin = { origin: 'http://localhost:80', host: 'localhost:80' };

const api = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });

async function targets(postId: string) {
  const { rows } = await ctx.db.query<{ account_id: string; status: string; run_at: Date | null; scheduled_for: Date | null }>(
    'SELECT account_id, status, run_at, scheduled_for FROM post_targets WHERE post_id = $1 ORDER BY position', [postId]);
  return rows;
}
const postStatus = async (id: string) => (await ctx.db.query<{ status: string }>('SELECT status FROM posts WHERE id = $1', [id])).rows[0].status;
const countPosts = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM posts WHERE tenant_id = $1', [owner.userId])).rows[0].n;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

beforeAll(async () => {
  ctx = await createTestApp({ deps: { adapters: createAdapterRegistry({ blueskyServiceUrl: 'http://127.0.0.1:9' }, { bluesky: new ScriptedAdapter() }) } });
  worker = await startTestPublisher(ctx, 'target-schedule');
  owner = await createTenant(ctx);
  profileId = await createProfile(ctx, owner, 'Timed brand');
  a1 = await insertAccount(ctx, owner, profileId);
  a2 = await insertAccount(ctx, owner, profileId);
});
afterAll(async () => { await ctx?.close(); });

describe('a target with its own scheduledFor', () => {
  it('runs at its own time, alone; the post is publishing until its last target is out', async () => {
    const own = inMs(1500);
    const res = await api('POST', '/v1/posts', owner.headers, {
      content: 'Staggered launch', scheduledFor: '2031-06-01T09:00', timezone: 'Europe/Paris',
      platforms: [{ platform: 'bluesky', accountId: a1 }, { platform: 'bluesky', accountId: a2, scheduledFor: own }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json().post;
    expect(post.scheduledFor).toBe('2031-06-01T07:00:00.000Z');
    expect(post.platforms[0]).not.toHaveProperty('scheduledFor');
    expect(post.platforms[1].scheduledFor).toBe(own);
    const [t1, t2] = await targets(post._id);
    expect(t1.run_at?.toISOString()).toBe('2031-06-01T07:00:00.000Z');
    expect(t2.run_at?.toISOString()).toBe(own);
    expect(t2.scheduled_for?.toISOString()).toBe(own);

    expect(await worker.claimDue(10)).toEqual([]); // not due yet
    await new Promise((r) => setTimeout(r, 1600));
    const claimed = await worker.claimDue(10);
    expect(claimed.map((t) => t.account_id)).toEqual([a2]);
    await Promise.all(claimed.map((t) => worker.runTarget(t)));
    expect((await targets(post._id)).map((t) => t.status)).toEqual(['pending', 'published']);
    expect(await postStatus(post._id)).toBe('publishing');
    const view = (await api('GET', `/v1/posts/${post._id}`, owner.headers)).json().post;
    expect(view.platforms[1]).toMatchObject({ status: 'published', scheduledFor: own });
    expect(view.platforms[1].lateSeconds).toBeLessThan(30); // measured from its own time, not the post's

    await runDue(ctx, worker, post._id);
    expect(await postStatus(post._id)).toBe('published');
  });

  it('a post given only per-target times is scheduled at the earliest; local times read in the post\'s timezone', async () => {
    const res = await api('POST', '/v1/posts', owner.headers, {
      content: 'Only target times', timezone: 'America/New_York',
      platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: '2031-07-02T10:00' }, { platform: 'bluesky', accountId: a2, scheduledFor: '2031-07-01T10:00:00Z' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().post).toMatchObject({ status: 'scheduled', isDraft: false, scheduledFor: '2031-07-01T10:00:00.000Z' });
    expect((await targets(res.json().post._id)).map((t) => t.run_at?.toISOString())).toEqual(['2031-07-02T14:00:00.000Z', '2031-07-01T10:00:00.000Z']);
  });

  it('refuses bad, past and conflicting times naming the field, storing nothing', async () => {
    const before = await countPosts();
    const cases: Array<[object, string, RegExp]> = [
      [{ scheduledFor: '2031-01-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: 'tomorrow' }] }, 'platforms.0.scheduledFor', /YYYY-MM-DD/],
      [{ scheduledFor: '2031-01-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: a1 }, { platform: 'bluesky', accountId: a2, scheduledFor: '2031-02-30T09:00' }] }, 'platforms.1.scheduledFor', /calendar/],
      [{ scheduledFor: '2031-01-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: '2020-01-01T09:00:00Z' }] }, 'platforms.0.scheduledFor', /past/],
      [{ publishNow: true, platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: '2031-01-01T09:00:00Z' }] }, 'platforms.0.scheduledFor', /publishNow/],
      [{ queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: '2031-01-01T09:00:00Z' }] }, 'platforms.0.scheduledFor', /queue/],
      [{ scheduledFor: '2031-01-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: 7 }] }, 'platforms/0/scheduledFor', /./],
    ];
    for (const [body, field, rule] of cases) {
      const res = await api('POST', '/v1/posts', owner.headers, { content: 'refused', ...body });
      expect(res.statusCode, res.body).toBe(400);
      const fields = res.json().details.fields as Record<string, string[]>;
      const key = Object.keys(fields).find((k) => k.replace(/\//g, '.').includes(field.replace(/\//g, '.')));
      expect(key, JSON.stringify(fields)).toBeDefined();
      expect(fields[key!].join(' ')).toMatch(rule);
    }
    expect(await countPosts()).toBe(before);
    // A draft keeps any time (it is checked when the draft goes out).
    const draft = await api('POST', '/v1/posts', owner.headers, { content: 'draft', isDraft: true, platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: '2020-01-01T09:00:00Z' }] });
    expect(draft.statusCode, draft.body).toBe(201);
    const promote = await api('PUT', `/v1/posts/${draft.json().post._id}`, owner.headers, { isDraft: false, scheduledFor: '2031-01-01T09:00:00Z' });
    expect(promote.statusCode).toBe(400);
    expect(promote.json().details.fields).toHaveProperty(['platforms.0.scheduledFor']);
    expect(await postStatus(draft.json().post._id)).toBe('draft');
  });

  it('an edit of the post\'s time leaves a target\'s own time; platforms[] replaces or clears it', async () => {
    const own = '2031-08-01T12:00:00.000Z';
    const id = (await api('POST', '/v1/posts', owner.headers, {
      content: 'Edited', scheduledFor: '2031-08-01T09:00:00Z', platforms: [{ platform: 'bluesky', accountId: a1 }, { platform: 'bluesky', accountId: a2, scheduledFor: own }],
    })).json().post._id as string;
    const moved = await api('PUT', `/v1/posts/${id}`, owner.headers, { scheduledFor: '2031-08-02T09:00:00Z' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await targets(id)).map((t) => t.run_at?.toISOString())).toEqual(['2031-08-02T09:00:00.000Z', own]);
    const replaced = await api('PUT', `/v1/posts/${id}`, owner.headers, {
      platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: '2031-08-03T09:00:00Z' }, { platform: 'bluesky', accountId: a2, scheduledFor: null }],
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().post.platforms.map((p: { scheduledFor?: string }) => p.scheduledFor ?? null)).toEqual(['2031-08-03T09:00:00.000Z', null]);
    expect((await targets(id)).map((t) => t.run_at?.toISOString())).toEqual(['2031-08-03T09:00:00.000Z', '2031-08-02T09:00:00.000Z']);
    const refused = await api('PUT', `/v1/posts/${id}`, owner.headers, { queuedFromProfile: profileId, platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: '2031-08-03T09:00:00Z' }] });
    expect(refused.statusCode).toBe(400);
    expect((await targets(id)).map((t) => t.run_at?.toISOString())).toEqual(['2031-08-03T09:00:00.000Z', '2031-08-02T09:00:00.000Z']);
  });
});

describe('per-target times and approvals', () => {
  it('an approval keeps a target\'s own time that has not passed, and sends one that has with the post (said in the note)', async () => {
    const tok = (await api('POST', '/v1/invite/tokens', owner.headers, { scope: 'all' })).json().token as string;
    const signup = await ctx.app.inject({ method: 'POST', url: '/auth/signup', headers: origin, payload: { inviteToken: tok, name: 'Timed member', email: `timed${Date.now()}@example.test`, password: 'member password 1' } });
    expect(signup.statusCode, signup.body).toBe(201);
    const member = { cookie: String(signup.headers['set-cookie']).split(';')[0], 'x-csrf-token': signup.json().csrfToken as string, ...origin };
    expect((await api('PUT', `/v1/profiles/${profileId}/approval-rule`, owner.headers, { required: true })).statusCode).toBe(200);
    try {
      const soon = inMs(60_000);
      const later = '2031-09-01T12:00:00.000Z';
      const res = await api('POST', '/v1/posts', member, {
        content: 'Needs a look', scheduledFor: '2031-09-01T09:00:00Z',
        platforms: [{ platform: 'bluesky', accountId: a1, scheduledFor: later }, { platform: 'bluesky', accountId: a2, scheduledFor: soon }],
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().post._id as string;
      expect(res.json().post.status).toBe('pending_approval');
      expect((await targets(id)).map((t) => [t.status, t.run_at, t.scheduled_for?.toISOString()])).toEqual([['draft', null, later], ['draft', null, soon]]);
      // The review takes an hour: the second target's own time has passed (beyond the minute's grace) when it is approved.
      await ctx.db.query(`UPDATE post_targets SET scheduled_for = scheduled_for - interval '1 hour' WHERE post_id = $1 AND account_id = $2`, [id, a2]);
      const approved = await api('POST', `/v1/posts/${id}/approve`, owner.headers, {});
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({ moved: true, scheduledFor: '2031-09-01T09:00:00.000Z' });
      expect(approved.json().message).toMatch(/own time .* has passed/);
      expect((await targets(id)).map((t) => [t.status, t.run_at?.toISOString(), t.scheduled_for?.toISOString() ?? null]))
        .toEqual([['pending', later, later], ['pending', '2031-09-01T09:00:00.000Z', null]]);
    } finally {
      await api('PUT', `/v1/profiles/${profileId}/approval-rule`, owner.headers, { required: false });
    }
  });
});
