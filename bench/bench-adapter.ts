/**
 * A platform adapter for the benchmark: like test/support/scripted-adapter.ts (it
 * applies the real Bluesky rules in validate() and answers verify() from what it
 * committed), but every commit simulates a platform call of `commitMs` (50 ms by default;
 * 0: no timer, the call answers on the next turn of the event loop) and records when it
 * started and ended, so bench/run.ts can compute publish lag and spot duplicates.
 * `record: false` keeps only the count (`committed`): no record per commit and nothing for
 * verify, so that a long run's memory is Herald's alone (--worker-rss).
 */
import { BlueskyAdapter } from '../src/platforms/bluesky/adapter.ts';
import type {
  AccountContext, AdapterContext, PlatformAdapter, PublishRequest, PublishResult, VerifyResult,
} from '../src/platforms/types.ts';

export interface CommitRecord {
  accountId: string;
  text: string;
  /** Date.now() when commit() was entered. */
  startedAt: number;
  /** Date.now() when the simulated platform call returned. */
  endedAt: number;
}

export class BenchAdapter implements PlatformAdapter {
  readonly platform = 'bluesky' as const;
  private readonly rules = new BlueskyAdapter();
  readonly capabilities = this.rules.capabilities;
  readonly commits: CommitRecord[] = [];
  /** Commits that returned (with or without records). */
  committed = 0;
  private readonly published = new Map<string, PublishResult>();
  private seq = 0;
  readonly commitMs: number;
  private readonly record: boolean;

  constructor(opts: number | { commitMs?: number; record?: boolean } = 50) {
    const o = typeof opts === 'number' ? { commitMs: opts } : opts;
    this.commitMs = o.commitMs ?? 50;
    this.record = o.record ?? true;
  }

  validate(req: PublishRequest) {
    return this.rules.validate(req);
  }

  /** Its prepare only makes a token: a worker prepares it and writes its attempt row before a slot frees (decision 0076). */
  preparesOffline() {
    return true;
  }

  async prepare(_ctx: AdapterContext, account: AccountContext, req: PublishRequest) {
    return { token: `${account.id}:${req.text}:${++this.seq}` };
  }

  async commit(_ctx: AdapterContext, account: AccountContext, req: PublishRequest, prepared: Record<string, unknown>): Promise<PublishResult> {
    const startedAt = Date.now();
    await new Promise((r) => (this.commitMs > 0 ? setTimeout(r, this.commitMs) : setImmediate(r)));
    const endedAt = Date.now();
    const n = ++this.committed;
    const result = { platformPostId: `bench-${n}`, platformPostUrl: `https://example.test/bench/${n}` };
    if (!this.record) return result;
    this.commits.push({ accountId: account.id, text: req.text, startedAt, endedAt });
    this.published.set(String(prepared.token), result);
    return result;
  }

  async verify(_ctx: AdapterContext, _account: AccountContext, _req: PublishRequest, prepared: Record<string, unknown>): Promise<VerifyResult> {
    const r = this.published.get(String(prepared.token));
    return r ? { status: 'published', result: r } : { status: 'not_published' };
  }
}
