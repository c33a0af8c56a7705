import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../core/errors.ts';
import { createAdapterRegistry } from '../../platforms/registry.ts';
import { checkTargetTimes, earliestTargetTime, targetRunAt } from './targets.ts';

const adapters = createAdapterRegistry({ blueskyServiceUrl: 'https://bsky.social' });
const now = new Date('2030-01-01T10:00:00Z');
const post = new Date('2030-01-02T09:00:00Z');
const own = new Date('2030-01-03T18:00:00Z');

describe('the run-at rule with a target\'s own time (decision 0064)', () => {
  it('a target runs at its own time, else at its post\'s', () => {
    expect(targetRunAt(adapters, 'bluesky', post, now, own)).toEqual(own);
    expect(targetRunAt(adapters, 'bluesky', post, now, null)).toEqual(post);
    expect(targetRunAt(adapters, 'bluesky', null, now, own)).toEqual(own);
  });

  it('a platform that uploads ahead (YouTube) runs at once for a far own time, and at it for a near one', () => {
    expect(targetRunAt(adapters, 'youtube', post, now, own)).toEqual(now);
    const near = new Date(now.getTime() + 30_000);
    expect(targetRunAt(adapters, 'youtube', post, now, near)).toEqual(near);
  });

  it('earliestTargetTime: the earliest own time, null without one', () => {
    expect(earliestTargetTime([{ scheduledFor: own }, { scheduledFor: null }, { scheduledFor: post }])).toEqual(post);
    expect(earliestTargetTime([{ scheduledFor: null }])).toBeNull();
  });

  it('checkTargetTimes: not in the past, not with publishNow or a queue; a draft keeps any time', () => {
    const past = new Date(now.getTime() - 61_000);
    const fields = (targets: Array<{ scheduledFor: Date | null }>, ctx: Parameters<typeof checkTargetTimes>[1]) => {
      const errors = new FieldErrorCollector();
      checkTargetTimes(targets, ctx, errors);
      try { errors.throwIfAny(); return {}; } catch (err) { return (err as { details: { fields: Record<string, string[]> } }).details.fields; }
    };
    expect(fields([{ scheduledFor: null }, { scheduledFor: past }], { mode: 'scheduled', queued: false, now })).toEqual({ 'platforms.1.scheduledFor': [expect.stringMatching(/past/)] });
    expect(fields([{ scheduledFor: new Date(now.getTime() - 30_000) }], { mode: 'scheduled', queued: false, now })).toEqual({});
    expect(fields([{ scheduledFor: own }], { mode: 'now', queued: false, now })).toEqual({ 'platforms.0.scheduledFor': [expect.stringMatching(/publishNow/)] });
    expect(fields([{ scheduledFor: own }], { mode: 'scheduled', queued: true, now })).toEqual({ 'platforms.0.scheduledFor': [expect.stringMatching(/queuedFromProfile/)] });
    expect(fields([{ scheduledFor: past }], { mode: 'draft', queued: false, now })).toEqual({});
  });
});
