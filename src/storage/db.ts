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
const UTC_TIMESTAMP = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?\+00$/;
/**
 * timestamptz as Date. On a server whose TimeZone is UTC (the embedded one's) values come as
 * `2026-11-24 01:00:50.123456+00`: read those directly (a post view has four of them, a page of
 * posts forty); anything else (another offset, years before 100, BC dates, infinity) goes to
 * pg's own parser.
 */
pg.types.setTypeParser(1184, (v: string) => {
  const m = UTC_TIMESTAMP.exec(v);
  if (!m || m[1] < '0100') return parseTimestamptz(v);
  const ms = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms));
});

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
