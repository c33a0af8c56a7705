/**
 * The scale-out flow (test/support/scale-out-scenario.ts: two `herald api` and two `herald worker`
 * processes, 1,000 posts due within three seconds, one worker killed with SIGKILL mid-burst, every
 * post counted on the X simulator's side) with every Herald process reaching PostgreSQL through a
 * real PgBouncer in transaction mode, as behind a managed pooler: `DATABASE_URL` is PgBouncer's,
 * `HERALD_DB_POOLER=transaction`, and no direct URL, so the workers poll instead of LISTEN and the
 * passes hold row leases (docs/decisions/0068-connection-pooler.md). PgBouncer has 20 server
 * connections (its default pool size) for the processes' 40 client connections.
 * Skipped with a message where PgBouncer is not installed (apt-get install -y pgbouncer).
 */
import { describe, inject, it } from 'vitest';
import { pgbouncerAvailable, pgbouncerVersion, startPgBouncer } from '../support/pgbouncer.ts';
import { scaleOutSuite } from '../support/scale-out-scenario.ts';

const TITLE = 'scale-out through PgBouncer in transaction mode: two API and two worker processes';

if (pgbouncerAvailable('test/flows/scale-out-pgbouncer.test.ts')) {
  scaleOutSuite({
    title: TITLE, label: 'scale-out through PgBouncer',
    database: async (databaseUrl) => {
      const bouncer = await startPgBouncer({ upstream: inject('pgAdminUrl'), poolSize: 20 });
      return {
        env: { DATABASE_URL: bouncer.url(new URL(databaseUrl).pathname.slice(1)), HERALD_DB_POOLER: 'transaction' },
        describe: `${pgbouncerVersion()}, pool_mode transaction, default_pool_size 20, no direct URL`,
        stop: () => bouncer.stop(),
      };
    },
  });
} else {
  describe.skip(TITLE, () => { it('needs PgBouncer (apt-get install -y pgbouncer)', () => {}); });
}
