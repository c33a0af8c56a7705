/** The `stripe_events` table (owner: this module): Stripe events already applied, by event id. */
import type { Queryable } from '../../storage/db.ts';

/**
 * Within the applying transaction: records an event id. False when it was recorded before
 * (a redelivery): the caller then applies nothing, so each event is applied exactly once.
 */
export async function recordEvent(q: Queryable, e: { id: string; type: string; tenantId: string | null; createdAt: Date }): Promise<boolean> {
  const { rowCount } = await q.query(
    'INSERT INTO stripe_events (id, type, tenant_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
    [e.id, e.type, e.tenantId, e.createdAt]);
  return (rowCount ?? 0) > 0;
}
