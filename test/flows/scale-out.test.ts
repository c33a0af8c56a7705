/**
 * Scale-out: two `herald api` and two `herald worker` processes on one PostgreSQL (the
 * deployment the README describes). 1,000 posts are created through both API processes, due
 * within the same three seconds; one worker is killed with SIGKILL while it publishes. Then,
 * counted on the platform's side (the X simulator in its own process): every post exists
 * exactly once; and a webhook receiver here, which checks every signature, got `post.published`
 * for every post (at least once; the same event id when sent again). The scenario is
 * test/support/scale-out-scenario.ts; scale-out-pgbouncer.test.ts runs it through PgBouncer.
 */
import { scaleOutSuite } from '../support/scale-out-scenario.ts';

scaleOutSuite({ title: 'scale-out: two API and two worker processes on one PostgreSQL', label: 'scale-out' });
