// What a PostgreSQL URL reaches, found at start before anything else uses it: PostgreSQL itself, a
// pooler that keeps one server session per client session (PgBouncer pool_mode=session), or one
// that hands each transaction whichever server session is free (pool_mode=transaction). The
// settings say which URL is which (DATABASE_URL, DATABASE_SESSION_URL, DATABASE_POOL_MODE); the
// probe refuses the start when they do not match what the connections show, since every such
// mismatch would break quietly later: a named prepared statement unknown to the next transaction's
// session, a LISTEN that hears nothing, an advisory lock left on a pooled server session after its
// process died (docs/deployment.md, "PgBouncer").
//
// How it tells:
// - PostgreSQL itself names its backend in the BackendKeyData of the connection's start; a pooler
//   cannot (the backend changes), so it hands out a key of its own: a process id that is not
//   `pg_backend_pid()`. Equal: direct, and the probe ends there.
// - A pooler in transaction mode: client A asks for its backend's pid, then client B, inside a
//   transaction, asks for its own, then A again. PostgreSQL never gives one backend to two live
//   sessions, nor does a session-mode pooler (A keeps its server session while connected); a
//   transaction-mode pooler gives B the server session A has just freed (PgBouncer takes the most
//   recently freed first), or A another one while B holds its own. Either is proof; a few rounds
//   allow for other clients taking server sessions meanwhile. No proof: session mode.
import { randomInt } from 'node:crypto';
import pg from 'pg';
import { ConfigError } from '../config.js';

export type ConnectionKind = 'direct' | 'session_pooler' | 'transaction_pooler';

const ROUNDS = 5;
/** The advisory lock namespace of the probe's same-database check (claim owners use 727_310_003). */
export const PROBE_LOCK = 727_310_004;

async function backendPid(client: pg.Client): Promise<number> {
  const [row] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
  return row!.pid;
}

async function withClients<T>(url: string, count: number, fn: (clients: pg.Client[]) => Promise<T>): Promise<T> {
  const clients: pg.Client[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      clients.push(client);
      await client.connect();
    }
    return await fn(clients);
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}

/** What `url` reaches (see the file's comment). */
export async function probeConnection(url: string): Promise<ConnectionKind> {
  const direct = await withClients(url, 1, async ([a]) => (a as unknown as { processID: number }).processID === (await backendPid(a!)));
  if (direct) return 'direct';
  return withClients(url, 2, async ([a, b]) => {
    for (let round = 0; round < ROUNDS; round++) {
      const first = await backendPid(a!);
      await b!.query('BEGIN');
      try {
        const other = await backendPid(b!);
        const again = await backendPid(a!);
        if (other === first || again !== first) return 'transaction_pooler';
      } finally {
        await b!.query('COMMIT');
      }
    }
    return 'session_pooler';
  });
}

/**
 * Whether an advisory lock held by a session of `sessionUrl` is seen through `url`: both reach the
 * same database of the same server (the claim owners' locks are checked through DATABASE_URL,
 * and LISTEN hears only the NOTIFYs of its own database).
 */
export async function sameDatabase(url: string, sessionUrl: string): Promise<boolean> {
  const key = randomInt(1, 2 ** 31 - 1);
  return withClients(sessionUrl, 1, async ([session]) => {
    await session!.query('SELECT pg_advisory_lock($1, $2)', [PROBE_LOCK, key]);
    const seen = await withClients(url, 1, async ([pooled]) => {
      const [row] = (await pooled!.query<{ free: boolean }>('SELECT pg_try_advisory_xact_lock_shared($1, $2) AS free', [PROBE_LOCK, key])).rows;
      return !row!.free;
    });
    await session!.query('SELECT pg_advisory_unlock($1, $2)', [PROBE_LOCK, key]);
    return seen;
  });
}

export interface ConnectionSettings {
  databaseUrl: string;
  databaseSessionUrl: string;
  databasePoolMode: 'session' | 'transaction';
}

const DOCS = 'docs/deployment.md, "PgBouncer"';

/**
 * Refuses (a ConfigError naming the setting) a combination that would break quietly; answers what
 * each URL reaches otherwise.
 */
export async function checkConnections(settings: ConnectionSettings): Promise<{ pooled: ConnectionKind; session: ConnectionKind }> {
  const { databaseUrl, databaseSessionUrl, databasePoolMode } = settings;
  const separate = databaseSessionUrl !== databaseUrl;
  const [pooled, session] = await Promise.all([probeConnection(databaseUrl), separate ? probeConnection(databaseSessionUrl) : null]);
  if (pooled === 'transaction_pooler' && databasePoolMode !== 'transaction') {
    throw new ConfigError(
      'DATABASE_POOL_MODE',
      `DATABASE_URL reaches a connection pooler in transaction mode (its transactions ran on different server sessions), where named prepared statements, LISTEN and session advisory locks break: set DATABASE_POOL_MODE=transaction and DATABASE_SESSION_URL to PostgreSQL itself (${DOCS})`,
    );
  }
  if (session === 'transaction_pooler') {
    throw new ConfigError(
      'DATABASE_SESSION_URL',
      `reaches a connection pooler in transaction mode (its transactions ran on different server sessions): the claim owners' advisory locks, LISTEN and migrations need sessions of their own; point it at PostgreSQL itself (${DOCS})`,
    );
  }
  if (separate && !(await sameDatabase(databaseUrl, databaseSessionUrl))) {
    throw new ConfigError(
      'DATABASE_SESSION_URL',
      `does not reach the database DATABASE_URL reaches (an advisory lock held through it is not seen through DATABASE_URL): both must name the same database of the same server (${DOCS})`,
    );
  }
  return { pooled, session: session ?? pooled };
}
