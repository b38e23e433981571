// Wake-ups: how a worker learns at once that a job was enqueued (or a key slot freed) instead of
// finding it on its next poll. Two paths, both taken on every enqueue:
// - pg_notify in the enqueuing transaction: PostgreSQL delivers it at commit to every process
//   that LISTENs (each worker keeps one dedicated connection for it; db.listen).
// - an in-process signal after commit (tx.afterCommit): the embedded database (PGlite) has no
//   other process to tell, and a worker in the same process need not wait for the round trip.
// The payload is the job's kind, or '' for "look at every kind" (a test-clock advance).
// Polling stays as the fallback, for a lost connection or a notification missed meanwhile.
import { EventEmitter } from 'node:events';
import type { Db, Queryable, Tx } from '../db/db.js';

export const JOBS_CHANNEL = 'background_jobs';

const local = new EventEmitter();
local.setMaxListeners(0);

/** Tells the workers of this process that work of `kind` (every kind when '') may be due. */
export function signalJobs(kind: string): void {
  local.emit('wake', kind);
}

/** Wakes every worker, in this process and (on PostgreSQL) in the others, for `kind`. */
export async function notifyJobs(q: Queryable, kind: string): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, kind]);
  signalJobs(kind);
}

/**
 * The same from inside a transaction: delivered when (and only if) it commits. Handed a plain
 * Queryable (a statement that commits on its own), it signals at once.
 */
export async function notifyJobsOnCommit(q: Queryable | Tx, kind: string): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, kind]);
  if ('afterCommit' in q) q.afterCommit(() => signalJobs(kind));
  else signalJobs(kind);
}

export interface WakeSubscription {
  close(): Promise<void>;
}

/**
 * Calls `onWake(kind)` on every signal of this process and, where the database can LISTEN, on
 * every notification; `onWake('')` also after the LISTEN connection is (re)made.
 */
export async function subscribeToWakeUps(
  db: Db,
  onWake: (kind: string) => void,
  onError: (error: unknown) => void,
): Promise<WakeSubscription> {
  local.on('wake', onWake);
  const listener = db.listen
    ? await db.listen(JOBS_CHANNEL, { onNotify: onWake, onConnect: () => onWake(''), onError })
    : null;
  return {
    async close() {
      local.off('wake', onWake);
      await listener?.close();
    },
  };
}
