/**
 * POST /v1/posts/{postId}/edit on Reddit through the real app and the Reddit adapter against the
 * Reddit simulator, which enforces /api/editusertext (scope edit, the author's own self post,
 * NOT_SELF for link posts, the self-text limit): the body of a self post changes; a changed title
 * or a link post is refused before the call, naming the rule; the simulator refuses another
 * author's post and a link post on its own.
 */
import { describe, expect, it } from 'vitest';
import { startRedditSimulator, type RedditSimulator } from '../../sim/reddit/server.ts';
import { platformEnv, platformHarness } from '../support/harness.ts';

let sim: RedditSimulator;
const h = platformHarness({
  platform: 'reddit', tag: 'rdedit',
  async setup() {
    sim = await startRedditSimulator({});
    return { env: platformEnv('reddit', sim) };
  },
  teardown: async () => { await sim?.close(); },
});

const edit = (postId: string, content: string) => h.ctx.app.inject({ method: 'POST', url: `/v1/posts/${postId}/edit`, headers: h.tenant.headers, payload: { platform: 'reddit', content } });

describe('editing a Reddit post', () => {
  it('changes a self post\'s body; the title stays; a changed title is refused naming the rule', async () => {
    h.accountId ||= await h.connectNew();
    const res = await h.post({ content: 'Weekly thread\nFirst body', publishNow: true, platforms: [{ platform: 'reddit', accountId: h.accountId, platformSpecificData: { subreddit: 'test' } }] });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json().post;
    const p = sim.posts.find((x) => x.id === post.platforms[0].platformPostId)!;
    expect(p).toMatchObject({ kind: 'self', title: 'Weekly thread', selftext: 'First body' });
    const ok = await edit(post._id, 'Weekly thread\nA **better** body');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(p).toMatchObject({ title: 'Weekly thread', selftext: 'A **better** body', edited: expect.any(Number) });
    const retitled = await edit(post._id, 'Another title\nA body');
    expect(retitled.statusCode).toBe(400);
    expect(retitled.json().details.fields.content[0]).toMatch(/\[rule reddit\.edit\.title\]/);
    expect(sim.calls.get('POST /api/editusertext')).toBe(1);
  });

  it('a link post cannot be edited (400 naming the rule); the simulator says NOT_SELF and NOT_AUTHOR itself', async () => {
    const res = await h.post({ content: 'A link', publishNow: true, platforms: [{ platform: 'reddit', accountId: h.accountId, platformSpecificData: { subreddit: 'test', url: 'https://example.com/a' } }] });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json().post;
    const linked = await edit(post._id, 'A link, edited');
    expect(linked.statusCode).toBe(400);
    expect(linked.json().details.fields.content[0]).toMatch(/\[rule reddit\.edit\.self_only\]/);

    const token = (await h.credentials()).accessToken as string;
    const call = async (thing: string) => (await (await fetch(`${sim.url}/api/editusertext`, {
      method: 'POST', headers: { authorization: `bearer ${token}`, 'user-agent': 'herald-test/1.0', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_type: 'json', thing_id: thing, text: 'x' }),
    })).json()) as { json: { errors: string[][] } };
    expect((await call(`t3_${post.platforms[0].platformPostId}`)).json.errors[0][0]).toBe('NOT_SELF');
    const theirs = sim.addPost('test', 'Someone else\'s');
    theirs.author = 'someone_else';
    expect((await call(`t3_${theirs.id}`)).json.errors[0][0]).toBe('NOT_AUTHOR');
  });
});
