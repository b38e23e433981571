// The two drivers: PGlite (embedded, one connection) and a node-postgres pool.
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import pg from 'pg';
import { PLAN_EACH_CALL, type Driver, type DriverConn, type HeldLock, type Listener, type ListenOptions, type Row } from './db.js';
import type { StatementLog } from './statement-log.js';

// bigint columns hold money and counters well below 2^53: read them as numbers on both drivers.
const INT8_OID = 20;
const NUMERIC_OID = 1700;
pg.types.setTypeParser(INT8_OID, (value) => Number(value));

export async function pgliteDriver(dataDir: string | null): Promise<Driver> {
  const lite = await PGlite.create(dataDir ?? undefined, {
    // Search's migration creates the unaccent extension (migrations/0009_search.sql), the bookings'
    // btree_gist (migrations/0036_bookings.sql: the exclusion constraint of booked_seats).
    extensions: { unaccent, btree_gist },
    parsers: { [INT8_OID]: (value: string) => Number(value), [NUMERIC_OID]: (value: string) => Number(value) },
  });
  const run = async (conn: { query: PGlite['query'] }, sql: string, params: readonly unknown[]): Promise<Row[]> =>
    (await conn.query<Row>(sql, params as unknown[])).rows;
  // PGlite runs one call at a time and queues the rest: counted here for stats().
  let calls = 0;
  let transactionOpen = false;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    calls++;
    try {
      return await work();
    } finally {
      calls--;
    }
  };
  return {
    kind: 'pglite',
    query: (sql, params) => counted(() => run(lite, sql, params)),
    exec: (sql) =>
      counted(async () => {
        await lite.exec(sql);
      }),
    withTransaction: (fn) =>
      counted(() =>
        lite.transaction(async (tx) => {
          transactionOpen = true;
          try {
            const conn: DriverConn = { query: (sql, params) => run(tx, sql, params) };
            return await fn(conn);
          } finally {
            transactionOpen = false;
          }
        }),
      ),
    stats: () => ({
      max: 1,
      total: lite.closed ? 0 : 1,
      idle: !lite.closed && calls === 0 ? 1 : 0,
      waiting: Math.max(0, calls - 1),
      transactionsOpen: transactionOpen ? 1 : 0,
    }),
    close: () => lite.close(),
  };
}

// Statements with parameters run as named prepared statements: PostgreSQL parses and plans each
// distinct text once per connection instead of on every call (an order's creation runs about ten
// statements, a third of its database time was parsing and planning). One name per distinct text,
// numbered in order of first use, so two texts never share a name; the set of texts is the code's,
// so it stays small, and past MAX_PREPARED_STATEMENTS (texts assembled from many optional filters,
// like search's) new texts run unnamed, so neither this map nor each connection's set of prepared
// statements can grow without bound. Statements without parameters (BEGIN, SAVEPOINT, scripts)
// stay unnamed, and so do statements that begin with PLAN_EACH_CALL (src/db/db.ts): a named
// statement gets a generic plan after its fifth call, one chosen without the parameters' values,
// which is wrong where the values decide the plan (search: a rare word wants the text index, a
// common one a walk of the newest-first index, docs/search.md). An unnamed statement is planned
// with its values on every call.
const MAX_PREPARED_STATEMENTS = 2000;
/** The socket writes issued so far (the statement log's `write`): each cork, or each statement outside a transaction. */
// process state: a counter of the process's socket writes, read only by the statement log.
let writes = 0;
// cache: prepared statement names by SQL text, the same on every connection of the process.
const statementNames = new Map<string, string>();
// Through a pooler in transaction mode (PostgreSQL options: preparedStatements false) every
// statement runs unnamed: a statement prepared in one transaction's server session is unknown to
// the next one's (PgBouncer before 1.21 cannot keep them; docs/deployment.md, "PgBouncer").
function prepared(sql: string, params: readonly unknown[], named: boolean): pg.QueryConfig {
  if (params.length === 0) return { text: sql };
  if (!named) return { text: sql, values: params as unknown[] };
  if (sql.startsWith(PLAN_EACH_CALL)) return { text: sql, values: params as unknown[] };
  let name = statementNames.get(sql);
  if (name === undefined) {
    if (statementNames.size >= MAX_PREPARED_STATEMENTS) return { text: sql, values: params as unknown[] };
    name = `s${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return { name, text: sql, values: params as unknown[] };
}

// The pool's connections run in pipeline mode: a statement is written to the socket when it is
// issued, not when the one before it has answered. Code that awaits each statement in turn sees no
// difference; a transaction gains where it does not wait: BEGIN goes out with the first statement,
// statements issued together (Promise.all) share one round trip, and queryThenCommit sends its
// statement and the COMMIT together (docs/performance.md R3, R4). Each statement still has its own Sync, so one that fails
// fails alone (and, in a transaction, every later one fails with it until the ROLLBACK).
// `log` (DB_STATEMENT_LOG) records each statement as it is issued, with its transaction and write.
export interface PostgresOptions {
  /**
   * Where the sessions of listen() and holdLock() connect (DATABASE_SESSION_URL): PostgreSQL
   * itself when connectionString is a transaction pooler. Default: connectionString.
   */
  sessionUrl?: string;
  /** false: statements with parameters run unnamed (a transaction pooler). Default true. */
  preparedStatements?: boolean;
}

export function postgresDriver(connectionString: string, max = 10, log?: StatementLog, options: PostgresOptions = {}): Driver {
  const pool = new pg.Pool({ connectionString, max, pipeline: true });
  const sessionUrl = options.sessionUrl ?? connectionString;
  const named = options.preparedStatements ?? true;
  let transactions = 0;
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  let transactionsOpen = 0;
  return {
    kind: 'postgres',
    query: async (sql, params) => {
      log?.({ sql, values: params, tx: null, write: ++writes });
      return (await pool.query(prepared(sql, params, named))).rows as Row[];
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    async withTransaction(fn) {
      const client = await pool.connect();
      let broken = false;
      let committed = false;
      transactionsOpen++;
      // Not awaited alone: it goes out with the first statement, and its failure (the connection
      // lost) surfaces through that statement or the COMMIT.
      const corked = corkPerTick(client);
      const tx = ++transactions;
      const logged = (sql: string, params: readonly unknown[]) => log?.({ sql, values: params, tx, write: writes });
      const begin = corked(() => (logged('BEGIN', []), client.query('BEGIN')));
      begin.catch(() => undefined);
      const run = async (sql: string, params: readonly unknown[]) =>
        (await corked(() => (logged(sql, params), client.query(prepared(sql, params, named))))).rows as Row[];
      try {
        const conn: DriverConn = {
          query: async (sql, params) => {
            const [, rows] = await Promise.all([begin, run(sql, params)]);
            return rows;
          },
          queryThenCommit: async (sql, params) => {
            const statement = run(sql, params);
            const commit = corked(() => (logged('COMMIT', []), client.query('COMMIT')));
            // The statement's error is the one to report; a COMMIT after it answers ROLLBACK.
            commit.catch(() => undefined);
            committed = true;
            await begin;
            const rows = await statement;
            await commit;
            return rows;
          },
        };
        const result = await fn(conn);
        if (!committed) {
          await begin;
          writes++;
          logged('COMMIT', []);
          await client.query('COMMIT');
        }
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw error;
      } finally {
        transactionsOpen--;
        client.release(broken);
      }
    },
    stats: () => ({
      max,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      transactionsOpen,
    }),
    listen: (channel, listenOptions) => listenOn(sessionUrl, channel, listenOptions),
    holdLock: (key1, key2, lockOptions) => holdLockOn(sessionUrl, key1, key2, lockOptions),
    close: () => pool.end(),
  };
}

/**
 * Statements issued in one tick leave in one socket write. Each statement is a write of its own
 * otherwise (node-postgres corks per statement), and a write costs a system call that, on a
 * loaded machine, weighs more than the rest of the statement's client work (a CPU profile of
 * order creation: a fifth of the API's CPU in writev). The stream is corked at the first statement
 * of a tick and uncorked at the next tick, after the statements issued with it.
 */
function corkPerTick(client: pg.PoolClient): <T>(issue: () => T) => T {
  const stream = (client as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
  if (!stream?.cork || !stream.uncork) {
    return (issue) => {
      writes++;
      return issue();
    };
  }
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork!();
  };
  return (issue) => {
    if (!corked) {
      corked = true;
      writes++;
      stream.cork!();
      process.nextTick(uncork);
    }
    return issue();
  };
}

const RECONNECT_MAX_MS = 10_000;

/**
 * A host that vanishes without closing its connection (power lost, network cut) is noticed by
 * the server after about 5 + 3 × 2 = 11 s of silence, instead of the system's default of hours:
 * only then does its session end and its lock go.
 */
const KEEPALIVE = 'SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3';

interface SessionOptions {
  /** Made on each new connection before it counts as up (LISTEN, taking a lock). */
  setUp(client: pg.Client): Promise<void>;
  keepAlive: boolean;
  /**
   * true: a first connection that fails is retried like a lost one (listen: the caller polls
   * meanwhile). false: it throws, and only a session that was up once is made again (holdLock).
   */
  retryFirst: boolean;
  onUp?(): void;
  onError?(error: unknown): void;
}

/**
 * A session on a client of its own, outside the pool (a pooled connection would be handed to
 * queries and lose what the session set up). A lost connection is made again with backoff, 100 ms
 * doubling to 10 s, and set up again, until close().
 */
async function keepSession(connectionString: string, options: SessionOptions): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let everUp = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let failures = 0;

  const scheduleReconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch(() => undefined);
    }, Math.min(RECONNECT_MAX_MS, 100 * 2 ** failures++));
    retry.unref();
  };

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString, keepAlive: options.keepAlive });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (current === client) current = null;
      client.end().catch(() => undefined);
      if (closed || (!everUp && !options.retryFirst)) return;
      if (error !== undefined) options.onError?.(error);
      scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await options.setUp(client);
    } catch (error) {
      onLost(error);
      if (options.retryFirst) return;
      throw error;
    }
    if (closed) {
      lost = true;
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
    failures = 0;
    everUp = true;
    options.onUp?.();
  }

  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const client = current;
      current = null;
      await client?.end().catch(() => undefined);
    },
  };
}

/** LISTEN on a session of its own; the first connection failing does not throw (the caller polls meanwhile). */
async function listenOn(connectionString: string, channel: string, options: ListenOptions): Promise<Listener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name '${channel}'`);
  return keepSession(connectionString, {
    keepAlive: false,
    retryFirst: true,
    setUp: async (client) => {
      client.on('notification', (message) => {
        if (message.channel === channel) options.onNotify(message.payload ?? '');
      });
      await client.query(`LISTEN ${channel}`);
    },
    onUp: options.onConnect,
    onError: options.onError,
  });
}

/**
 * Holds the advisory lock (key1, key2) in session mode on a session of its own (Driver.holdLock).
 * The first connection failing throws; a connection lost later is made again and the lock taken again.
 */
async function holdLockOn(connectionString: string, key1: number, key2: number, options: { onError?(error: unknown): void }): Promise<HeldLock> {
  const session = await keepSession(connectionString, {
    keepAlive: true,
    retryFirst: false,
    setUp: async (client) => {
      await client.query(KEEPALIVE);
      await client.query('SELECT pg_advisory_lock($1, $2)', [key1, key2]);
    },
    onError: options.onError,
  });
  return { release: () => session.close() };
}
