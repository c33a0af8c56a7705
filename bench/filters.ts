/**
 * (c2) The dashboard's filters at `--scale` (web/src/dashboard/pages/Posts.tsx: status, platform, date range,
 * search and the sort orders, each alone and on the biggest profile; the queue editor's upcoming posts of a
 * profile, web/src/dashboard/queue/QueueEditor.tsx): one request at a time through Herald's
 * own list function (`listPostPage`, the statements `GET /v1/posts` sends), a page of 10 with its exact
 * total. Prints the time per page and the total, so that what is still O(the matching posts) shows:
 * the counts of filtered lists (the counters keep only the tenant's and a profile's unfiltered totals,
 * decisions 0034 and 0072) and a page whose filter matches few rows.
 *
 * Each combination runs until 20 calls or 3 s (after one call to prepare it), so a slow one costs the run
 * little; the first call's time is printed too.
 */
import { performance } from 'node:perf_hooks';
import { listPostPage, type PostFilters } from '../src/modules/posts/list-queries.ts';
import type { Db } from '../src/storage/db.ts';
import { line } from './load.ts';

export async function runDashboardFilters(db: Db, o: { tenantId: string; profileId: string; platform: string }): Promise<void> {
  const year = new Date().getUTCFullYear();
  const month = { from: new Date(`${year - 1}-06-01T00:00:00Z`), to: new Date(`${year - 1}-06-30T23:59:59.999Z`) };
  const profile = { tenantId: o.tenantId, profileId: o.profileId };
  const cases: Array<[string, PostFilters, number]> = [
    ['profile, newest (scheduled-desc)', { ...profile, sortBy: 'scheduled-desc' }, 0],
    ['profile, page 1000', { ...profile, sortBy: 'scheduled-desc' }, 9_990],
    ['profile + status failed', { ...profile, sortBy: 'scheduled-desc', status: 'failed' }, 0],
    [`profile + platform ${o.platform}`, { ...profile, sortBy: 'scheduled-desc', platform: o.platform }, 0],
    ['profile + a month', { ...profile, sortBy: 'scheduled-desc', ...month }, 0],
    ['profile + search', { ...profile, sortBy: 'scheduled-desc', search: 'post 12' }, 0],
    ['profile, scheduled from now (queue editor)', { ...profile, status: 'scheduled', from: new Date() }, 0],
    ['profile, sorted by status', { ...profile, sortBy: 'status' }, 0],
    ['tenant, newest', { tenantId: o.tenantId }, 0],
    ['tenant + status failed', { tenantId: o.tenantId, status: 'failed' }, 0],
    [`tenant + platform ${o.platform}`, { tenantId: o.tenantId, platform: o.platform }, 0],
    ['tenant + a month', { tenantId: o.tenantId, ...month }, 0],
    ['tenant + search', { tenantId: o.tenantId, search: 'post 12' }, 0],
  ];
  console.log('\n(c2) the dashboard\'s filters at scale, one request at a time (listPostPage: the page of 10 and its exact total)');
  for (const [name, f, offset] of cases) {
    const t0 = performance.now();
    await listPostPage(db, f, 10, offset);
    const first = performance.now() - t0;
    let calls = 0;
    let total = 0;
    const t1 = performance.now();
    while (calls < 20 && performance.now() - t1 < 3_000) {
      total = (await listPostPage(db, f, 10, offset)).total;
      calls++;
    }
    const each = (performance.now() - t1) / calls;
    line(`  ${name}`, `${each.toFixed(2).padStart(9)} ms a page (${calls} calls; first ${first.toFixed(1)} ms); total ${total.toLocaleString('en-US')}`);
  }
}
