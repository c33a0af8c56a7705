/** The week view's column packing (web/src/dashboard/calendar/layout.ts): overlapping cards side by side. */
import { describe, expect, it } from 'vitest';
import { packColumns } from '../../web/src/dashboard/calendar/layout.ts';

const at = (id: string, h: number, m = 0, len = 75) => ({ id, start: h * 60 + m, end: h * 60 + m + len });

describe('packColumns', () => {
  it('keeps an item alone at full width', () => {
    expect(Object.fromEntries(packColumns([at('a', 9)]))).toEqual({ a: { col: 0, cols: 1 } });
  });

  it('lays a 9:30 card beside the 9:00 one it overlaps, and a later one back at full width', () => {
    const p = packColumns([at('late', 14), at('nine-thirty', 9, 30), at('nine', 9)]);
    expect(p.get('nine')).toEqual({ col: 0, cols: 2 });
    expect(p.get('nine-thirty')).toEqual({ col: 1, cols: 2 });
    expect(p.get('late')).toEqual({ col: 0, cols: 1 });
  });

  it('reuses a column once its card has ended, and gives the whole cluster one width', () => {
    // a 9:00-10:15, b 9:30-10:45, c 10:15-11:30 (after a ends: a's column), d 10:20 (a third column).
    const p = packColumns([at('a', 9), at('b', 9, 30), at('c', 10, 15), at('d', 10, 20)]);
    expect(p.get('a')).toEqual({ col: 0, cols: 3 });
    expect(p.get('b')).toEqual({ col: 1, cols: 3 });
    expect(p.get('c')).toEqual({ col: 0, cols: 3 });
    expect(p.get('d')).toEqual({ col: 2, cols: 3 });
  });

  it('puts posts at the same minute side by side in a stable order', () => {
    const p = packColumns([at('y', 8), at('x', 8), at('z', 8)]);
    expect([p.get('x'), p.get('y'), p.get('z')]).toEqual([{ col: 0, cols: 3 }, { col: 1, cols: 3 }, { col: 2, cols: 3 }]);
  });

  it('starts a new cluster when a card starts exactly as the previous ones end', () => {
    const p = packColumns([at('a', 9, 0, 60), at('b', 10, 0, 60)]);
    expect(p.get('a')).toEqual({ col: 0, cols: 1 });
    expect(p.get('b')).toEqual({ col: 0, cols: 1 });
  });
});
