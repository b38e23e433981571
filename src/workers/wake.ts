// Wake-ups: how this process's claim loops learn at once that work may be due (a job enqueued, a
// key slot freed, webhook deliveries written) instead of finding it on their next poll. One
// WakeUps per process, built by the composition root (src/app/runtime.ts), carried by its
// database handle to every transaction (tx.carried.wakeUps) and handed to the engine (Deps).
// Two paths for jobs, both taken on every enqueue:
// - pg_notify in the enqueuing transaction: PostgreSQL delivers it at commit to every process
//   that LISTENs (each worker keeps one dedicated connection for it; db.listen).
// - an in-process signal after commit (tx.afterCommit): the embedded database (PGlite) has no
//   other process to tell, and a worker in the same process need not wait for the round trip.
// A job's topic is its kind, or '' for "look at every kind" (a test-clock advance). Other topics
// (webhook deliveries) are in-process only: other processes find that work by polling.
// Polling stays as the fallback, for a lost connection or a notification missed meanwhile.
import { EventEmitter } from 'node:events';
import type { WakeUps as WakeUpsContract } from '../contracts/engine.js';
import type { Db, Queryable, Tx } from '../db/db.js';

export const JOBS_CHANNEL = 'background_jobs';

declare module '../db/db.js' {
  interface TxCarried {
    /** The process's wake-ups (this file), carried so that a commit can wake its claim loops. */
    wakeUps: WakeUpsContract;
  }
}

/** The in-process signals of one process. */
export class WakeUps implements WakeUpsContract {
  private readonly local = new EventEmitter();

  constructor() {
    this.local.setMaxListeners(0);
  }

  signal(topic: string): void {
    this.local.emit('wake', topic);
  }

  on(listener: (topic: string) => void): () => void {
    this.local.on('wake', listener);
    return () => this.local.off('wake', listener);
  }
}

/** The wake-ups the composition root gave the transaction's database handle. */
export function wakeUpsOf(tx: Tx): WakeUpsContract {
  const wakeUps = tx.carried.wakeUps;
  if (!wakeUps) throw new Error('this database handle carries no wake-ups: build services on it (src/app/runtime.ts createServices)');
  return wakeUps;
}

/** Wakes every worker, in this process and (on PostgreSQL) in the others, for `kind`. */
export async function notifyJobs(q: Queryable, wakeUps: WakeUpsContract, kind: string): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, kind]);
  wakeUps.signal(kind);
}

/**
 * The same from inside a transaction: delivered when (and only if) it commits. `wakeUps`: the
 * transaction's (wakeUpsOf), or the engine's own when it records an outcome.
 */
export async function notifyJobsOnCommit(tx: Tx, wakeUps: WakeUpsContract, kind: string): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, kind]);
  tx.afterCommit(() => wakeUps.signal(kind));
}

/** Wakes this process's loops of `topic` once the transaction commits (no other process is told). */
export function signalOnCommit(tx: Tx, topic: string): void {
  const wakeUps = wakeUpsOf(tx);
  tx.afterCommit(() => wakeUps.signal(topic));
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
  wakeUps: WakeUpsContract,
  onWake: (kind: string) => void,
  onError: (error: unknown) => void,
): Promise<WakeSubscription> {
  const off = wakeUps.on(onWake);
  const listener = db.listen
    ? await db.listen(JOBS_CHANNEL, { onNotify: onWake, onConnect: () => onWake(''), onError })
    : null;
  return {
    async close() {
      off();
      await listener?.close();
    },
  };
}
