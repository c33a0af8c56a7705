/**
 * A platform adapter for the benchmark: like test/support/scripted-adapter.ts (it
 * applies the real Bluesky rules in validate() and answers verify() from what it
 * committed), but every commit simulates a 50 ms platform call and records when it
 * started and ended, so bench/run.ts can compute publish lag and spot duplicates.
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
  private readonly published = new Map<string, PublishResult>();
  private seq = 0;

  constructor(private readonly commitMs = 50) {}

  validate(req: PublishRequest) {
    return this.rules.validate(req);
  }

  async prepare(_ctx: AdapterContext, account: AccountContext, req: PublishRequest) {
    return { token: `${account.id}:${req.text}:${++this.seq}` };
  }

  async commit(_ctx: AdapterContext, account: AccountContext, req: PublishRequest, prepared: Record<string, unknown>): Promise<PublishResult> {
    const startedAt = Date.now();
    await new Promise((r) => setTimeout(r, this.commitMs));
    const endedAt = Date.now();
    this.commits.push({ accountId: account.id, text: req.text, startedAt, endedAt });
    const n = this.commits.length;
    const result = { platformPostId: `bench-${n}`, platformPostUrl: `https://example.test/bench/${n}` };
    this.published.set(String(prepared.token), result);
    return result;
  }

  async verify(_ctx: AdapterContext, _account: AccountContext, _req: PublishRequest, prepared: Record<string, unknown>): Promise<VerifyResult> {
    const r = this.published.get(String(prepared.token));
    return r ? { status: 'published', result: r } : { status: 'not_published' };
  }
}
