import pg from 'pg';
import { describe, expect, it } from 'vitest';
import './db.ts';

const parse = pg.types.getTypeParser(1184) as (v: string) => Date | number | string;

describe('timestamptz parser', () => {
  it('reads UTC values as PostgreSQL writes them, to the millisecond (fractions below truncated)', () => {
    expect(parse('2026-11-24 01:00:50.123456+00')).toEqual(new Date('2026-11-24T01:00:50.123Z'));
    expect(parse('2026-11-24 01:00:50+00')).toEqual(new Date('2026-11-24T01:00:50.000Z'));
    expect(parse('2026-11-24 01:00:50.1+00')).toEqual(new Date('2026-11-24T01:00:50.100Z'));
    expect(parse('2000-02-29 23:59:59.999999+00')).toEqual(new Date('2000-02-29T23:59:59.999Z'));
    let seed = 3;
    for (let i = 0; i < 1000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const d = new Date(seed * 1_900);
      expect(parse(`${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 23)}+00`)).toEqual(d);
    }
  });

  it('leaves other offsets, early years and infinity to pg', () => {
    expect(parse('2026-03-01 12:00:00.5-05:30')).toEqual(new Date('2026-03-01T17:30:00.500Z'));
    expect(parse('2026-11-24 01:00:50+01')).toEqual(new Date('2026-11-24T00:00:50.000Z'));
    expect((parse('0099-01-01 00:00:00+00') as Date).getUTCFullYear()).toBe(99);
    expect(parse('infinity')).toBe(Infinity);
  });
});
