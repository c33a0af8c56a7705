import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, prepared } from './db.ts';

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

describe('isDatabaseUnavailable', () => {
  const sqlError = (code: string, message = 'x') => Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });

  it('knows the SQLSTATEs of a database that cannot serve now, not those of a wrong statement', () => {
    for (const code of ['57P01', '57P02', '57P03', '57014', '08006', '08001', '08P01', '53300', '53100']) expect(isDatabaseUnavailable(sqlError(code)), code).toBe(true);
    for (const code of ['23505', '23503', '40001', '40P01', '42P01', '22P02', '57P04']) expect(isDatabaseUnavailable(sqlError(code)), code).toBe(false);
  });

  it('knows the driver\'s own timeouts and cut connections, also as the cause of another error', () => {
    for (const m of ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout', 'Connection terminated unexpectedly', 'Query read timeout', 'Client has encountered a connection error and is not queryable']) {
      expect(isDatabaseUnavailable(new Error(m)), m).toBe(true);
      expect(isDatabaseUnavailable(new Error('migration 0001_x.sql failed', { cause: new Error(m) })), m).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Query read timeout, and more'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('Query read timeout'))).toBe(false);
  });

  it('leaves socket errors that did not come from a database connection alone (a platform or S3 call)', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable('Query read timeout')).toBe(false);
  });
});

describe('prepared statement names', () => {
  it('keeps names PostgreSQL would cut at 63 bytes apart: two long names sharing 63 bytes stay two statements', () => {
    const stem = 'posts.page.visible.status.creator.platform.profile.from.to.search.scheduled-desc';
    const a = prepared(`${stem}.10`, 'SELECT 1');
    const b = prepared(`${stem}.100`, 'SELECT 2');
    expect(Buffer.byteLength(a.name)).toBeLessThanOrEqual(63);
    expect(Buffer.byteLength(b.name)).toBeLessThanOrEqual(63);
    expect(a.name).not.toBe(b.name);
    expect(prepared('targets.claim-due-test', 'SELECT 3').name).toBe('targets.claim-due-test');
  });
});
