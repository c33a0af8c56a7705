/**
 * A platform adapter whose outcomes are chosen by the post text, for testing the
 * publishing state machine (retries, partial results, status table) without a network.
 * It applies the real Bluesky rules in validate(), and records every commit.
 *   "#reject"    -> the platform rejects the post (permanent)
 *   "#transient" -> a network failure on every commit
 *   "#flaky"     -> a network failure on the first commit, then success
 *   "#slow"      -> the commit takes 500 ms
 *   "#held"      -> the commit waits until releaseHeld() (a platform call that answers when the test says)
 *   "#lost"      -> the first commit creates the post but its answer is lost (network error)
 *   "#http422"   -> the platform answers HTTP 422 (permanent), with an answer carrying a token
 *   "#ratelimit" -> the platform answers HTTP 429 (retry after 60 s)
 *   "#blind"     -> verify cannot tell (the platform's list cannot be read): always 'unknown'
 *   "#verifylimited" -> verify's look-up answers HTTP 429 (retry after 60 s) on its first two calls
 *   "#notsent"   -> the first commit fails before reaching the platform (a refused connection: `notSent`)
 * unpublish() deletes a published post (recorded in `deleted`); a post it does not have counts as gone.
 * Metrics (fetchMetrics): "likes:N" in the text gives N likes (else 1), 2 comments, reposts 0,
 * no impressions (Bluesky has none: null); "#nometrics" answers nothing for the post. Each read
 * adds one like (a post keeps being liked). `failNextMetrics` makes the next read throw.
 */
import { BlueskyAdapter } from '../../src/platforms/bluesky/adapter.ts';
import {
  AdapterError, mapMetrics, responseExcerpt, type AccountContext, type AdapterContext, type PlatformAdapter, type PostMetrics, type PublishedPost, type PublishRequest, type PublishResult, type VerifyResult,
} from '../../src/platforms/types.ts';

export class ScriptedAdapter implements PlatformAdapter {
  readonly platform = 'bluesky' as const;
  private readonly rules = new BlueskyAdapter();
  readonly capabilities = this.rules.capabilities;
  readonly commits: Array<{ accountId: string; text: string; token: string }> = [];
  /** Platform post ids unpublish() deleted. */
  readonly deleted: string[] = [];
  private readonly published = new Map<string, PublishResult>();
  private flakySeen = new Set<string>();
  private readonly texts = new Map<string, string>();
  private readonly reads = new Map<string, number>();
  /** fetchMetrics calls seen (one per account and pass). */
  metricsCalls = 0;
  /** Thrown by the next fetchMetrics call, then cleared. */
  failNextMetrics: AdapterError | null = null;

  validate(req: PublishRequest) {
    return this.rules.validate(req);
  }

  /**
   * Whether it says its prepare needs no request (it only makes a token; true by default): a worker then
   * prepares it and writes its attempt row before a slot frees (decision 0076). Tests set it false to
   * run it as a platform whose prepare calls out.
   */
  offline = true;
  /** Commit calls running now, and the most ever running at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** Commits of "#held" posts waiting for releaseHeld(); null once released (later ones answer at once). */
  private held: Array<() => void> | null = [];

  /** Answers every held commit, and every later "#held" one at once. */
  releaseHeld(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const answer of waiting) answer();
  }

  preparesOffline() {
    return this.offline;
  }

  async prepare(_ctx: AdapterContext, account: AccountContext, req: PublishRequest) {
    return { token: `${account.id}:${req.text}:${Math.random().toString(36).slice(2)}` };
  }

  async commit(_ctx: AdapterContext, account: AccountContext, req: PublishRequest, prepared: Record<string, unknown>): Promise<PublishResult> {
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    try {
      return await this.commitNow(account, req, prepared);
    } finally {
      this.inFlight--;
    }
  }

  private async commitNow(account: AccountContext, req: PublishRequest, prepared: Record<string, unknown>): Promise<PublishResult> {
    const token = String(prepared.token);
    if (req.text.includes('#slow')) await new Promise((r) => setTimeout(r, 500));
    if (req.text.includes('#held') && this.held) await new Promise<void>((r) => this.held!.push(r));
    if (req.text.includes('#reject')) throw new AdapterError('rejected', 'The platform rejected this post (scripted)');
    if (req.text.includes('#transient')) throw new AdapterError('transient', 'connection reset (scripted)');
    if (req.text.includes('#http422')) {
      throw new AdapterError('rejected', 'Invalid record (scripted)', { status: 422, endpoint: 'POST /xrpc/com.atproto.repo.createRecord',
        excerpt: responseExcerpt(JSON.stringify({ error: 'InvalidRequest', message: 'Invalid record (scripted)', accessJwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' })) });
    }
    if (req.text.includes('#ratelimit')) {
      throw new AdapterError('rate_limited', 'Rate limit exceeded (scripted)', { status: 429, endpoint: 'POST /xrpc/com.atproto.repo.createRecord', retryAfterMs: 60_000, excerpt: '{"error":"RateLimitExceeded"}' });
    }
    if (req.text.includes('#notsent') && !this.flakySeen.has(`notsent:${account.id}`)) {
      this.flakySeen.add(`notsent:${account.id}`);
      throw new AdapterError('transient', 'connect ECONNREFUSED (scripted)', { notSent: true });
    }
    if (req.text.includes('#flaky') && !this.flakySeen.has(account.id)) {
      this.flakySeen.add(account.id);
      throw new AdapterError('transient', 'connection reset (scripted, once)');
    }
    this.commits.push({ accountId: account.id, text: req.text, token });
    const n = this.commits.length;
    const result = { platformPostId: `scripted-${n}`, platformPostUrl: `https://example.test/post/${n}` };
    this.published.set(token, result);
    this.texts.set(result.platformPostId, req.text);
    if (req.text.includes('#lost') && !this.flakySeen.has(`lost:${account.id}`)) {
      this.flakySeen.add(`lost:${account.id}`);
      throw new AdapterError('transient', 'socket hang up after the request was sent (scripted)');
    }
    return result;
  }

  async unpublish(_ctx: AdapterContext, _account: AccountContext, post: PublishedPost): Promise<void> {
    if (this.texts.delete(post.platformPostId)) this.deleted.push(post.platformPostId);
  }

  async fetchMetrics(_ctx: AdapterContext, _account: AccountContext, ids: string[]): Promise<Map<string, PostMetrics>> {
    this.metricsCalls++;
    const fail = this.failNextMetrics;
    if (fail) { this.failNextMetrics = null; throw fail; }
    const out = new Map<string, PostMetrics>();
    for (const id of ids) {
      const text = this.texts.get(id);
      if (text === undefined || text.includes('#nometrics')) continue;
      const n = (this.reads.get(id) ?? 0) + 1;
      this.reads.set(id, n);
      const likes = Number(/likes:(\d+)/.exec(text)?.[1] ?? 1) + n - 1;
      out.set(id, mapMetrics('bluesky', { likeCount: likes, replyCount: 2, repostCount: 0, quoteCount: 0 }));
    }
    return out;
  }

  async verify(_ctx: AdapterContext, _account: AccountContext, req: PublishRequest, prepared: Record<string, unknown>): Promise<VerifyResult> {
    if (req.text.includes('#blind')) return { status: 'unknown', reason: 'the timeline could not be read (scripted)' };
    if (req.text.includes('#verifylimited')) {
      const n = (this.reads.get(`verify:${req.text}`) ?? 0) + 1;
      this.reads.set(`verify:${req.text}`, n);
      if (n <= 2) throw new AdapterError('rate_limited', 'Too many requests (scripted)', { status: 429, retryAfterMs: 60_000 });
    }
    const r = this.published.get(String(prepared.token));
    return r ? { status: 'published', result: r } : { status: 'not_published' };
  }
}
