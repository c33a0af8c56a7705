/**
 * The webhook delivery loop of the worker role: claims due outbox rows (FOR UPDATE SKIP LOCKED,
 * so several workers share them), sends up to `concurrency` at once, keeps the locks of slow
 * receivers fresh, and prunes logs older than 30 days every `pruneMs`. A worker killed mid-send
 * leaves its deliveries locked until the lock runs out; the next claim anywhere takes them again
 * (at least once). Docs: docs/decisions/0038-webhook-outbox.md.
 */
import { Counter, Histogram } from 'prom-client';
import type { WebhooksService } from '../modules/webhooks/service.ts';
import { registry } from '../observability/metrics.ts';

/** Delivery attempts by event and result: delivered, retry (another attempt is scheduled) or failed (given up). */
const deliveries = new Counter({
  name: 'herald_webhook_deliveries_total', help: 'Webhook delivery attempts by event and result (delivered, retry, failed)',
  labelNames: ['event', 'result'] as const, registers: [registry],
});
/** Time receivers took to answer, seconds. */
const deliveryDuration = new Histogram({
  name: 'herald_webhook_delivery_duration_seconds', help: 'Time webhook receivers took to answer, seconds',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
});

export interface WebhookWorkerOptions {
  webhooks: WebhooksService;
  workerId: string;
  /** Deliveries in flight at once (0: only the pruning runs). */
  concurrency: number;
  /** Longest sleep between claims when idle, ms. */
  pollMs?: number;
  /** Time between prunes of old logs, ms (default 1 hour). */
  pruneMs?: number;
  log?: { info(o: object, m?: string): void; error(o: object, m?: string): void };
}

export interface WebhookWorker {
  /** Stops claiming and waits for the deliveries in flight (each bounded by the receiver timeout). */
  stop(): Promise<void>;
}

export function startWebhookWorker(opts: WebhookWorkerOptions): WebhookWorker {
  const pollMs = opts.pollMs ?? 500;
  const running = new Map<string, Promise<void>>();
  let stopping = false;
  let wake: (() => void) | null = null;
  const poke = () => { const w = wake; wake = null; w?.(); };

  const lockTimer = setInterval(() => {
    opts.webhooks.extendLocks(opts.workerId, [...running.keys()]).catch((err) => opts.log?.error({ err }, 'webhook lock extension failed'));
  }, 30_000);
  lockTimer.unref();
  const prune = () => opts.webhooks.prune().then((r) => {
    if (r.logs || r.deliveries) opts.log?.info(r, 'old webhook logs pruned');
  }).catch((err) => opts.log?.error({ err }, 'webhook log pruning failed'));
  const pruneTimer = setInterval(prune, opts.pruneMs ?? 60 * 60_000);
  pruneTimer.unref();
  void prune();

  const loop = (async () => {
    while (!stopping) {
      try {
        const free = opts.concurrency - running.size;
        if (free > 0) {
          const claimed = await opts.webhooks.claimDue(opts.workerId, free);
          for (const d of claimed) {
            const p = opts.webhooks.deliver(d, opts.workerId)
              .then((r) => {
                deliveries.inc({ event: d.event, result: r.state === 'pending' ? 'retry' : r.state });
                deliveryDuration.observe(r.durationMs / 1000);
              })
              .catch((err) => opts.log?.error({ err, deliveryId: d.id }, 'webhook delivery could not be written; it is retried when its lock runs out'))
              .finally(() => { running.delete(d.id); poke(); });
            running.set(d.id, p);
          }
          // A full batch: more may be due at once.
          if (claimed.length === free) continue;
        }
        await new Promise<void>((resolve) => { wake = resolve; setTimeout(resolve, pollMs).unref(); });
      } catch (err) {
        opts.log?.error({ err }, 'webhook worker loop error');
        await new Promise((r) => setTimeout(r, pollMs).unref());
      }
    }
  })();

  return {
    async stop() {
      stopping = true;
      poke();
      await loop;
      clearInterval(lockTimer);
      clearInterval(pruneTimer);
      await Promise.allSettled(running.values());
    },
  };
}
