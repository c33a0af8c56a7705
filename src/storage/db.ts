/**
 * PostgreSQL access: one pool per process, a transaction helper, and the
 * `Queryable` type that repositories take so they run inside or outside a transaction.
 */
import { createHash } from 'node:crypto';
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
  return { name: statementName(name), text };
}

/**
 * `expr` (a parameter with its type, e.g. `$3::char(24)[]`, or a constant) as a value the planner does not
 * look into: `(SELECT expr)`, evaluated once per execution. For a prepared statement whose plan must not
 * depend on the values: PostgreSQL plans a named statement with its values for five calls and keeps the
 * generic plan only if it is not dearer, so values that make a custom plan look cheaper (a one-element
 * array, a big profile, a status matching a partial index that its statistics show empty) had it planned on
 * every call. Unseen, custom and generic plans are estimated alike (docs/decisions/0073-generic-plans-for-hot-statements.md).
 */
export const unseen = (expr: string): string => `(SELECT ${expr})`;

/** Several parameters, each {@link unseen}, as a comma-separated list (the arrays an `unnest` reads). */
export const unseenEach = (...exprs: string[]): string => exprs.map(unseen).join(', ');

/**
 * `name` as PostgreSQL keeps it: identifiers are cut at 63 bytes (NAMEDATALEN - 1), so two long
 * names that share their first 63 bytes would be one statement to the server ("prepared statement
 * already exists"). A longer name becomes its first 46 characters and a hash of the whole.
 */
function statementName(name: string): string {
  if (Buffer.byteLength(name) <= 63) return name;
  return `${name.slice(0, 46)}#${createHash('sha256').update(name).digest('hex').slice(0, 16)}`;
}

/** Anything that runs a query: the pool or a client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string | PreparedStatement, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface Db extends Queryable {
  readonly pool: pg.Pool;
  /** Runs `fn` in a transaction (READ COMMITTED), committing on success and rolling back on throw. */
  tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /**
   * Runs one statement and gives up after `ms` wherever it waits (for a pool connection, for a new
   * connection, for the answer): GET /health's check, which must answer while the database does not.
   * @throws Error recognised by {@link isDatabaseUnavailable} when the time is up.
   */
  queryWithin<R extends pg.QueryResultRow = pg.QueryResultRow>(ms: number, text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /**
   * Runs `fn` on a connection of its own, outside the pool, without the statement timeouts (only
   * the connect timeout applies): for work known to take long, such as migrations (which also wait
   * for another process's migrations). The connection is closed afterwards.
   */
  unbounded<T>(fn: (client: pg.Client) => Promise<T>): Promise<T>;
  /**
   * A connection that keeps its session for as long as it is held (`LISTEN`): one of the pool when
   * the pool reaches PostgreSQL itself, a connection of its own to the direct URL behind a pooler in
   * transaction mode, null behind one without a direct URL (docs/decisions/0068-connection-pooler.md).
   * `release(destroy)` gives it back (a pool connection) or closes it (a connection of its own).
   */
  session(): Promise<SessionConnection> | null;
  close(): Promise<void>;
}

/** A connection whose session outlives its statements (see {@link Db.session}). */
export interface SessionConnection {
  readonly client: pg.ClientBase;
  release(destroy?: boolean): void;
}

/** What the URL given to {@link createDb} points at (HERALD_DB_POOLER, HERALD_DATABASE_DIRECT_URL in src/config.ts). */
export interface DbPooling {
  /**
   * `transaction`: a pooler in transaction mode (PgBouncer, a managed pooler), where each
   * transaction (or statement outside one) may run on another server connection. Then statements are
   * never named (a named prepared statement exists on one server connection only: PgBouncer before
   * 1.21 answers "prepared statement ... does not exist"), and statement_timeout is not sent as a
   * start-up parameter (PgBouncer refuses the connection: "unsupported startup parameter"); the
   * client-side wait stays. `transaction-prepared`: the same, but statements keep their names, for a
   * pooler that carries protocol-level named prepared statements itself (PgBouncer 1.21+ with
   * `max_prepared_statements` > 0 prepares them on whichever server connection runs them). `none`
   * (default): PostgreSQL itself, or a pooler in session mode.
   */
  pooler?: 'none' | 'transaction' | 'transaction-prepared';
  /** A URL to the database itself (its session kept): {@link Db.unbounded} and {@link Db.session} use it. */
  directUrl?: string;
}

/** Database timeouts (HERALD_DB_*_TIMEOUT_MS in src/config.ts; docs/decisions/0044-database-failures.md). */
export interface DbTimeouts {
  /** Longest wait for a connection, connecting a new one or waiting for a free one in the pool, ms; 0: none. */
  connectTimeoutMs: number;
  /** PostgreSQL's statement_timeout on the pool's connections, ms; 0: none (and no client-side wait either). */
  statementTimeoutMs: number;
}

/**
 * The client gives up on a statement this long after the statement timeout: PostgreSQL ends a
 * slow statement itself (and the connection stays usable); the client's own timer is for a server
 * that does not answer at all (frozen, or cut off by the network).
 */
export const QUERY_TIMEOUT_MARGIN_MS = 1_000;

/**
 * First TCP keepalive probe after this much silence on a connection, so that an idle pooled
 * connection to a server that vanished (a partition) errors out and leaves the pool
 * (https://node-postgres.com/apis/client: keepAlive, keepAliveInitialDelayMillis).
 */
const KEEPALIVE_DELAY_MS = 10_000;

const UNAVAILABLE = Symbol('herald.databaseUnavailable');

/** Node socket errors that, from a database connection, mean the server cannot be reached. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * Errors of node-postgres and pg-pool (which carry no code) for a connection that could not be
 * made in time, was cut, or timed out waiting for an answer.
 */
const DRIVER_MESSAGES = /^(timeout exceeded when trying to connect|Connection terminated( unexpectedly| due to connection timeout)?|Query read timeout|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Cannot use a pool after calling end on the pool)$/;

/**
 * SQLSTATEs that mean the database cannot serve now, not that the statement is wrong
 * (https://www.postgresql.org/docs/current/errcodes-appendix.html): class 08 (connection
 * exception), class 53 (insufficient resources: too many connections, out of memory, disk full),
 * 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 57014 query_canceled
 * (the statement timeout, or an administrator's cancel).
 */
function unavailableSqlState(code: string): boolean {
  return /^(08|53)/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '57014';
}

function isSocketError(err: unknown): boolean {
  const e = err as { code?: unknown; errors?: unknown };
  if (typeof e?.code === 'string' && SOCKET_CODES.has(e.code)) return true;
  // Node's connect to a host name with both addresses answers an AggregateError of the attempts.
  return Array.isArray(e?.errors) && e.errors.some(isSocketError);
}

/** Marks a socket error that came from the database's connection, so that {@link isDatabaseUnavailable} knows it is the database's. */
function markIfSocketError(err: unknown): unknown {
  if (err && typeof err === 'object' && isSocketError(err)) Object.defineProperty(err, UNAVAILABLE, { value: true });
  return err;
}

/**
 * True when `err` (or an error in its `cause` chain) says the database cannot be reached or cannot
 * serve now: refused, reset or timed-out connections (of the database's own connections), the
 * statement or client timeouts, an administrator's shutdown or cancel, a server starting up or
 * shutting down, too many connections. The HTTP layer answers these 503 DATABASE_UNAVAILABLE.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { [UNAVAILABLE]?: boolean })[UNAVAILABLE]) return true;
    if (e instanceof pg.DatabaseError && typeof e.code === 'string' && unavailableSqlState(e.code)) return true;
    if (e instanceof Error && e.constructor === Error && DRIVER_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/**
 * Creates the pool. `applicationName` shows in pg_stat_activity (herald-api, herald-worker, ...).
 * `timeouts` bound every wait on the database (runtime.ts passes the configured ones); without
 * them nothing is bounded (the test template's migration, the bench's seeding).
 */
export function createDb(url: string, opts: { max?: number; applicationName?: string; timeouts?: DbTimeouts } & DbPooling = {}): Db {
  const connectMs = opts.timeouts?.connectTimeoutMs ?? 0;
  const statementMs = opts.timeouts?.statementTimeoutMs ?? 0;
  const pooled = opts.pooler === 'transaction' || opts.pooler === 'transaction-prepared';
  const unnamed = opts.pooler === 'transaction';
  const connection = {
    connectionString: url,
    application_name: opts.applicationName ?? 'herald',
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    ...(connectMs > 0 ? { connectionTimeoutMillis: connectMs } : {}),
  };
  // The database itself, for what needs a session: the direct URL behind a pooler in transaction mode.
  const direct = opts.directUrl ? { ...connection, connectionString: opts.directUrl } : pooled ? null : connection;
  const pool = new pg.Pool({
    ...connection,
    max: opts.max ?? 20,
    idleTimeoutMillis: 30_000,
    // Sent with the connection's start-up parameters: every statement of the pool's connections
    // has it (https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-STATEMENT-TIMEOUT).
    // A pooler in transaction mode refuses it; there only the client's own wait applies, and the
    // server's limit is the role's setting (ALTER ROLE ... SET statement_timeout; decision 0068).
    ...(statementMs > 0 ? { ...(pooled ? {} : { statement_timeout: statementMs }), query_timeout: statementMs + QUERY_TIMEOUT_MARGIN_MS } : {}),
  });
  pool.on('error', () => {
    // Idle-client errors (the server restarting, a connection reset or terminated): pg-pool has
    // removed the client already; the next query opens a new connection or reports the failure.
  });
  pool.on('connect', (client) => {
    // A checked-out client whose connection dies emits 'error' too, and an 'error' without a
    // listener would end the process: its pending query (if any) gets the error instead.
    client.on('error', () => {});
    if (unnamed) unnameStatements(client);
  });
  return {
    pool,
    query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string | PreparedStatement, values?: unknown[]) {
      const q = typeof text === 'string' ? pool.query<R>(text, values) : pool.query<R>({ name: text.name, text: text.text, values });
      return q.catch((err: unknown) => { throw markIfSocketError(err); });
    },
    async tx(fn) {
      const client = await pool.connect().catch((err: unknown) => { throw markIfSocketError(err); });
      let broken: Error | undefined;
      try {
        await client.query('BEGIN').catch((err: unknown) => { throw markIfSocketError(err); });
        const result = await fn(client);
        await client.query('COMMIT').catch((err: unknown) => { throw markIfSocketError(err); });
        return result;
      } catch (err) {
        if (isDatabaseUnavailable(err)) {
          // No ROLLBACK on a connection that is gone or stuck (it would wait for the same timeout
          // again): the connection is dropped, and PostgreSQL rolls back what it had.
          broken = err as Error;
        } else {
          await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
            broken = rollbackErr as Error;
            // The connection failed under `fn`: a socket error `fn` met is the database's.
            markIfSocketError(err);
          });
        }
        throw err;
      } finally {
        client.release(broken);
      }
    },
    queryWithin<R extends pg.QueryResultRow = pg.QueryResultRow>(ms: number, text: string, values?: unknown[]) {
      return new Promise<pg.QueryResult<R>>((resolve, reject) => {
        const timer = setTimeout(() => reject(Object.assign(new Error(`The database did not answer within ${ms} ms`), { [UNAVAILABLE]: true })), ms);
        pool.query<R>({ text, values: values as unknown[], query_timeout: ms } as pg.QueryConfig)
          .then(resolve, (err: unknown) => reject(markIfSocketError(err)))
          .finally(() => clearTimeout(timer));
      });
    },
    async unbounded(fn) {
      const client = new pg.Client(direct ?? connection);
      if (!direct && unnamed) unnameStatements(client);
      client.on('error', () => {});
      try {
        await client.connect().catch((err: unknown) => { throw markIfSocketError(err); });
        return await fn(client).catch((err: unknown) => { throw markIfSocketError(err); });
      } finally {
        await client.end().catch(() => {});
      }
    },
    session() {
      if (!direct) return null;
      if (direct === connection) {
        return pool.connect().then((client) => ({ client, release: (destroy?: boolean) => client.release(destroy) }),
          (err: unknown) => { throw markIfSocketError(err); });
      }
      const client = new pg.Client(direct);
      client.on('error', () => {});
      return client.connect().then(() => ({ client, release: () => { void client.end().catch(() => {}); } }),
        async (err: unknown) => { await client.end().catch(() => {}); throw markIfSocketError(err); });
    },
    close: () => pool.end(),
  };
}

/**
 * Makes `client` send every statement unnamed: a named one (a {@link PreparedStatement}) is parsed
 * again each time instead of prepared once per connection. Behind a pooler in transaction mode a
 * connection's next statement may reach another server connection, which does not have it.
 */
function unnameStatements(client: pg.ClientBase): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) =>
    query(config && typeof config === 'object' && typeof (config as { name?: unknown }).name === 'string' && typeof (config as { submit?: unknown }).submit !== 'function'
      ? { ...(config as object), name: undefined } : config, ...rest);
}
