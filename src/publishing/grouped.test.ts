import { describe, expect, it } from 'vitest';
import { grouped } from './grouped.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('grouped', () => {
  it('runs a lone call at once and groups the calls that arrive while a statement runs', async () => {
    const groups: number[][] = [];
    const write = grouped<number, number>(async (items) => { groups.push(items); await tick(); return items.map((i) => i * 10); });
    const first = write(1);
    const rest = [write(2), write(3), write(4)];
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(groups).toEqual([[1], [2, 3, 4]]);
    expect(write.pending).toBe(0);
  });

  it('keeps groups within maxGroup', async () => {
    const sizes: number[] = [];
    const write = grouped<number, number>(async (items) => { sizes.push(items.length); await tick(); return items; }, 3);
    await Promise.all(Array.from({ length: 8 }, (_, i) => write(i)));
    expect(sizes).toEqual([1, 3, 3, 1]);
  });

  it('runs the calls of a failed group again alone, so one bad item fails only its own call', async () => {
    const seen: number[][] = [];
    const write = grouped<number, string>(async (items) => {
      seen.push(items);
      await tick();
      if (items.includes(13)) throw new Error('bad row 13');
      return items.map(String);
    });
    const lone = write(1);
    const results = await Promise.allSettled([write(12), write(13), write(14)]);
    await lone;
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['12', 'bad row 13', '14']);
    expect(seen).toEqual([[1], [12, 13, 14], [12], [13], [14]]);
  });

  it('with maxInFlight 2, a call that arrives while one statement runs starts a second at once', async () => {
    const groups: number[][] = [];
    let running = 0;
    let most = 0;
    const write = grouped<number, number>(async (items) => {
      groups.push(items);
      most = Math.max(most, ++running);
      await tick();
      running--;
      return items;
    }, 100, 2);
    const first = write(1);
    const second = write(2);
    const rest = [write(3), write(4)];
    expect(await Promise.all([first, second, ...rest])).toEqual([1, 2, 3, 4]);
    expect(groups).toEqual([[1], [2], [3, 4]]);
    expect(most).toBe(2);
    expect(write.pending).toBe(0);
  });
});
