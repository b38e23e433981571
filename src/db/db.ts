// One interface over PGlite and node-postgres. A transaction is carried in AsyncLocalStorage, so
// code that runs inside one (a domain operation called under the idempotency layer, say) joins it
// as a savepoint, and plain db.query() calls inside it use the transaction's connection. That
// matters doubly on PGlite: it has one connection, and a query outside the open transaction would
// wait for that transaction forever.
import { AsyncLocalStorage } from 'node:async_hooks';

export type Row = Record<string, unknown>;

/**
 * Put first in a statement whose best plan depends on its parameters' values (search): it is
 * then planned with them on every call, never given the generic plan that named prepared
 * statements get after a few calls (src/db/drivers.ts). PGlite plans every statement that way.
 */
export const PLAN_EACH_CALL = '/* plan each call */ ';

export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/**
 * What the transactions of a database handle carry for the layers above this one, given to the
 * handle by the composition root (Db.carry): the outbox adds its event subscribers here by
 * declaration merging (src/outbox/emit.ts), so this layer names none of them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TxCarried {}

export interface Tx extends Queryable {
  /** What the handle was opened with (TxCarried); absent fields were not given. */
  readonly carried: Partial<TxCarried>;
  /**
   * Runs after the outermost transaction commits (cache invalidation, waking workers, work that
   * must see the change committed). Hooks run one by one, awaited: the outermost transaction()
   * call resolves after them, so its caller answers after their work.
   */
  afterCommit(fn: () => void | Promise<void>): void;
  /**
   * Runs the transaction's last statement and commits: on PostgreSQL the statement and the COMMIT
   * go out together (docs/performance.md R4: order creation's reservation). The statement must raise an error when the
   * transaction must not commit; its error rolls the transaction back and is thrown. Nothing may
   * run in the transaction after it, and the caller should return at once (the change is already
   * committed). Inside a savepoint, or on PGlite, it is a plain query and the COMMIT comes when
   * the transaction's function returns, as ever.
   */
  queryThenCommit<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in a transaction; inside another transaction it becomes a savepoint. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  /** How the connections are used right now (for GET /metrics). */
  stats(): PoolStats;
  /** LISTEN on a dedicated connection (PostgreSQL only; see Listener). Absent on PGlite. */
  listen?: Driver['listen'];
  /** A session-level advisory lock held on a dedicated connection (PostgreSQL only; see HeldLock). */
  holdLock?: Driver['holdLock'];
  /**
   * Gives every later transaction of this handle these values (TxCarried). The composition root
   * calls it when it builds the services on a handle, which may have been opened by its caller.
   */
  carry(values: Partial<TxCarried>): void;
  close(): Promise<void>;
}

/**
 * Notifications of one channel on a connection of their own, outside the pool, to the session URL
 * (DATABASE_SESSION_URL: never a transaction-mode pooler, docs/deployment.md "PgBouncer"). `onConnect` runs
 * each time the connection is (re)established: notifications sent while it was down are lost, so
 * the listener should look for work then.
 */
export interface ListenOptions {
  onNotify(payload: string): void;
  onConnect?(): void;
  onError?(error: unknown): void;
}

export interface Listener {
  close(): Promise<void>;
}

/**
 * Connection use at one instant. PGlite has one connection: max and total are 1, idle is 0 while
 * anything runs on it, and waiting counts the calls queued behind the one running.
 */
export interface PoolStats {
  /** Connections the pool may open. */
  max: number;
  /** Connections open now, idle or in use. */
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  /** Transactions open now (each holds a connection until COMMIT or ROLLBACK). */
  transactionsOpen: number;
}

/**
 * The advisory lock (key1, key2), taken in session mode on a connection of its own, outside the
 * pool, to the session URL (as Listener's): it lasts as long as this process's connection does, so other sessions can tell that the
 * process is alive by it (the Idempotency-Key claims' owners, src/http/claim-owners.ts). The
 * promise resolves once the lock is held. A lost connection is made again, and the lock taken
 * again, with backoff, until release().
 */
export interface HeldLock {
  release(): Promise<void>;
}

/** A connection-level driver the Db is built on. */
export interface Driver {
  readonly kind: 'pglite' | 'postgres';
  query(sql: string, params: readonly unknown[]): Promise<Row[]>;
  exec(sql: string): Promise<void>;
  /** Runs fn on one connection between BEGIN and COMMIT (ROLLBACK when it throws). */
  withTransaction<T>(fn: (conn: DriverConn) => Promise<T>): Promise<T>;
  stats(): PoolStats;
  listen?(channel: string, options: ListenOptions): Promise<Listener>;
  holdLock?(key1: number, key2: number, options: { onError?(error: unknown): void }): Promise<HeldLock>;
  close(): Promise<void>;
}

export interface DriverConn {
  query(sql: string, params: readonly unknown[]): Promise<Row[]>;
  /** The statement and the COMMIT sent together (see Tx.queryThenCommit); absent: a plain query. */
  queryThenCommit?(sql: string, params: readonly unknown[]): Promise<Row[]>;
}

interface TxState {
  db: object;
  carried: Partial<TxCarried>;
  conn: DriverConn;
  depth: number;
  afterCommit: Array<() => void | Promise<void>>;
}

// process state: the transaction of the current async context (each transaction's state is its own).
const current = new AsyncLocalStorage<TxState>();

export interface DbOptions {
  /**
   * Receives the error of an afterCommit hook that threw. The transaction has committed by then,
   * so the error must not reach its caller as if the change had failed (a caller could retry it
   * and make it twice). Default: a process warning, printed to stderr.
   */
  onAfterCommitError?: (error: unknown) => void;
}

const warn = (error: unknown) =>
  process.emitWarning(error instanceof Error ? error : new Error(String(error)), { code: 'AFTER_COMMIT_HOOK_FAILED' });

export function createDb(driver: Driver, options: DbOptions = {}): Db {
  const onHookError = options.onAfterCommitError ?? warn;
  let carried: Partial<TxCarried> = {};
  const db: Db = {
    kind: driver.kind,
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const state = current.getStore();
      const rows = state && state.db === db ? await state.conn.query(sql, params) : await driver.query(sql, params);
      return rows as T[];
    },
    async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      const outer = current.getStore();
      if (outer && outer.db === db) return savepoint(outer, fn);
      const state: TxState = { db, carried, conn: null as unknown as DriverConn, depth: 0, afterCommit: [] };
      const result = await driver.withTransaction((conn) => {
        state.conn = conn;
        return current.run(state, () => fn(txOf(state)));
      });
      for (const hook of state.afterCommit) {
        try {
          await hook();
        } catch (error) {
          onHookError(error);
        }
      }
      return result;
    },
    carry(values) {
      carried = { ...carried, ...values };
    },
    exec: (sql) => driver.exec(sql),
    stats: () => driver.stats(),
    close: () => driver.close(),
  };
  if (driver.listen) db.listen = driver.listen.bind(driver);
  if (driver.holdLock) db.holdLock = driver.holdLock.bind(driver);
  return db;
}

function txOf(state: TxState): Tx {
  const depth = state.depth;
  return {
    carried: state.carried,
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await state.conn.query(sql, params)) as T[],
    afterCommit: (hook) => state.afterCommit.push(hook),
    queryThenCommit: async <T>(sql: string, params: readonly unknown[] = []) => {
      // Only the outermost transaction commits; a savepoint's statement is a plain one.
      const rows = depth === 0 && state.conn.queryThenCommit ? await state.conn.queryThenCommit(sql, params) : await state.conn.query(sql, params);
      return rows as T[];
    },
  };
}

async function savepoint<T>(state: TxState, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const name = `sp_${++state.depth}`;
  const hooksBefore = state.afterCommit.length;
  await state.conn.query(`SAVEPOINT ${name}`, []);
  try {
    const result = await fn(txOf(state));
    await state.conn.query(`RELEASE SAVEPOINT ${name}`, []);
    return result;
  } catch (error) {
    await state.conn.query(`ROLLBACK TO SAVEPOINT ${name}`, []);
    state.afterCommit.length = hooksBefore;
    throw error;
  } finally {
    state.depth--;
  }
}

/** True when called inside a transaction of this db. */
export function inTransaction(db: Db): boolean {
  return current.getStore()?.db === db;
}

/**
 * Waits for every statement a transaction issued together, then throws the first failure: none
 * may still be using the transaction's connection when the transaction rolls back.
 */
export async function settleAll(pending: ReadonlyArray<Promise<unknown>>): Promise<void> {
  for (const result of await Promise.allSettled(pending)) if (result.status === 'rejected') throw result.reason;
}
