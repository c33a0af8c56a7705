/**
 * PostgreSQL access: one pool per process, a transaction helper, and the
 * `Queryable` type that repositories take so they run inside or outside a transaction.
 */
import pg from 'pg';

// int8 (counts, sums) as JS numbers; values stay far below 2^53 here.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
// numeric as number
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

const parseTimestamptz = pg.types.getTypeParser(1184);

/** Digit at `i` of `v`, or NaN (which poisons the sums below) when it is not one. */
const digit = (v: string, i: number) => { const c = v.charCodeAt(i) - 48; return c >= 0 && c <= 9 ? c : NaN; };

/**
 * `YYYY-MM-DD HH:MM:SS[.ffffff]+00` (years 0100 on) as a Date, read with char codes; null for
 * any other form. A page of posts has forty timestamps, so this is on the hot path.
 */
function utcTimestamp(v: string): Date | null {
  const n = v.length;
  if (n < 22 || n > 29 || v.charCodeAt(n - 3) !== 43 || v.charCodeAt(n - 2) !== 48 || v.charCodeAt(n - 1) !== 48) return null;
  if (v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45 || v.charCodeAt(10) !== 32 || v.charCodeAt(13) !== 58 || v.charCodeAt(16) !== 58) return null;
  const year = digit(v, 0) * 1000 + digit(v, 1) * 100 + digit(v, 2) * 10 + digit(v, 3);
  let ms = 0;
  if (n > 22) {
    if (v.charCodeAt(19) !== 46) return null;
    // One to six fraction digits; milliseconds are the first three (missing ones are 0).
    for (let i = 20, scale = 100; i < n - 3; i++, scale /= 10) {
      const c = digit(v, i);
      if (Number.isNaN(c)) return null;
      if (scale >= 1) ms += c * scale;
    }
  } else if (n !== 22) return null;
  const t = Date.UTC(year, digit(v, 5) * 10 + digit(v, 6) - 1, digit(v, 8) * 10 + digit(v, 9),
    digit(v, 11) * 10 + digit(v, 12), digit(v, 14) * 10 + digit(v, 15), digit(v, 17) * 10 + digit(v, 18), ms);
  return Number.isNaN(t) || year < 100 ? null : new Date(t);
}

/**
 * timestamptz as Date. On a server whose TimeZone is UTC (the embedded one's) values come as
 * `2026-11-24 01:00:50.123456+00` and are read directly; anything else (another offset, years
 * before 100, BC dates, infinity) goes to pg's own parser.
 */
pg.types.setTypeParser(1184, (v: string) => utcTimestamp(v) ?? parseTimestamptz(v));

/**
 * A named prepared statement: each connection has PostgreSQL parse and plan it once, on its
 * first use, and then only binds values, which for the long statements of the hot paths (a
 * post with its targets, a page of posts) halves the database's CPU per call. The text must not
 * depend on the values (pass them as parameters) and must name its columns instead of `*`: a
 * prepared `*` fails with "cached plan must not change result type" once a migration adds a
 * column while the process runs. Make one with {@link prepared}.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

const preparedNames = new Map<string, string>();

/**
 * A {@link PreparedStatement} named `name` (unique per text in this process).
 * @throws Error when `name` is already used for another text.
 */
export function prepared(name: string, text: string): PreparedStatement {
  const seen = preparedNames.get(name);
  if (seen !== undefined && seen !== text) throw new Error(`prepared statement name ${name} is already used for another statement`);
  preparedNames.set(name, text);
  return { name, text };
}

/** Anything that runs a query: the pool or a client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string | PreparedStatement, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface Db extends Queryable {
  readonly pool: pg.Pool;
  /** Runs `fn` in a transaction (READ COMMITTED), committing on success and rolling back on throw. */
  tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Creates the pool. `applicationName` shows in pg_stat_activity (herald-api, herald-worker, ...). */
export function createDb(url: string, opts: { max?: number; applicationName?: string } = {}): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 20,
    application_name: opts.applicationName ?? 'herald',
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', () => {
    // Idle-client errors (e.g. the server restarting) are surfaced by the next query.
  });
  return {
    pool,
    query: (text, values) => (typeof text === 'string' ? pool.query(text, values as unknown[]) : pool.query({ name: text.name, text: text.text, values: values as unknown[] })),
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
