// The kinds of background work a module may declare in its manifest (docs/background.md): timers
// (database-only work at a time of a mode's clock, run inside their claim), job kinds (work that
// talks to the network, run between two short transactions), periodic jobs, worker components
// (loops of their own), figures for GET /metrics, and hooks run after a test-clock advance.
// src/workers/ holds the machinery that runs them; src/app/wiring.ts gathers them.
import type { Config } from '../config.js';
import type { Db, Tx } from '../db/db.js';
import type { Mode, Scope } from '../scope.js';
import type { Deps } from './deps.js';
import type { ComponentDeps, ComponentLoop } from './engine.js';

export interface DueTimer {
  id: string;
  kind: string;
  subjectId: string;
  payload: unknown;
  runAt: Date;
  attempts: number;
}

/**
 * Handles one timer inside its transaction; `now` is the mode's clock. Throw to retry later. `deps`
 * are the worker's (or the test clock's): the hooks a timer's move may need (an order's payment).
 */
export type TimerHandler = (tx: Tx, scope: Scope, timer: DueTimer, now: Date, deps: Deps) => Promise<void>;

/** A handler with its own attempt accounting; a bare handler gets the defaults. */
export interface TimerKind {
  handle: TimerHandler;
  /** Failed attempts before the timer is recorded failed. Default 20 (about 12 hours of retries). */
  maxAttempts?: number;
  /** The wait after failed attempt n (from 1). Default 5 s doubling, at most 1 hour. */
  backoffMs?(attempt: number): number;
}

export type TimerHandlers = Record<string, TimerHandler | TimerKind>;

/** A claimed job, as its handler sees it. */
export interface Job {
  id: number;
  kind: string;
  /** The owner: one marketplace's mode, or (marketplaceId and mode null) one workspace. */
  marketplaceId: string | null;
  mode: Mode | null;
  workspaceId: string | null;
  /** The row the job works on (an email, a webhook delivery). */
  subjectId: string | null;
  concurrencyKey: string | null;
  payload: unknown;
  /** The clock run_at is on (the kind's when it was enqueued). */
  clock: JobClock;
  /** When it was due, on that clock. */
  runAt: Date;
  /** This attempt's number, from 1. */
  attempt: number;
  /** The worker holding the lease and when the lease ends (real time). */
  lockedBy: string;
  lockedUntil: Date;
  /** The job's mode's test-clock offset when claimed (0 on real-clock jobs). */
  clockOffsetMs: number;
}

export interface JobContext extends Deps {
  /** Now on the kind's clock. */
  now: Date;
  /**
   * Aborted shortly before the lease ends, or when the worker stops: the I/O should stop then.
   * The engine stops waiting for the handler at that moment in any case.
   */
  signal: AbortSignal;
}

/**
 * What a handler reports. `retry` is a failed attempt: tried again after `delayMs` (the kind's
 * backoff otherwise), or recorded failed when it was the last allowed attempt. `failed` gives up
 * at once. A handler that throws reports `retry` with the error's message. `detail` is for the
 * handler's own bookkeeping in onSettled (the email kind says "sent" or "skipped").
 */
export type JobOutcome =
  | { status: 'succeeded'; detail?: string }
  | { status: 'retry'; error: string; delayMs?: number }
  | { status: 'failed'; error: string };

/**
 * What the engine recorded. `lost`: the lease had already passed to another worker (this one ran
 * past it), so nothing was recorded and onSettled is not called. `released`: the worker stopped
 * before the handler finished; the job is due again at once and the attempt does not count.
 */
export interface Settled {
  result: 'succeeded' | 'retrying' | 'failed' | 'lost' | 'released';
  detail?: string;
  error?: string;
  /** When it runs again (retrying), on the kind's clock. */
  nextRunAt?: Date;
  /** When the outcome was recorded, on the kind's clock. */
  at: Date;
}

export type JobClock = 'real' | 'mode';

export interface JobKind {
  name: string;
  handle(job: Job, ctx: JobContext): Promise<JobOutcome>;
  /** Writes the domain's side of a recorded outcome, in the transaction that records it. */
  onSettled?(tx: Tx, job: Job, settled: Settled): Promise<void>;
  /** False leaves the kind's jobs queued (email without SMTP_URL). Default: always. */
  enabled?(config: Config): boolean;
  /** Attempts before a recorded permanent failure. Default 10. */
  maxAttempts?: number;
  /** The wait after failed attempt n (from 1). Default: 10 s doubling, at most 1 hour. */
  backoffMs?(attempt: number): number;
  /** How long a claim holds a job; a worker that dies holding one frees it after this. Default 60 s. */
  leaseMs?: number;
  /** Jobs of this kind in flight at once in one process. Default 10. */
  concurrency?: number;
  /** Rows claimed by one statement. Default: the concurrency, at most 100. */
  batchSize?: number;
  /**
   * Jobs of one concurrency key (a webhook endpoint) running at once across every process, so a
   * slow key cannot hold all the slots. Default: no cap.
   */
  perKeyLimit?: number | null;
  /**
   * Which clock run_at is on: real time (workspace work, email) or the clock of the job's mode
   * (webhook retry times), due when run_at <= real now + the mode's offset. Default real.
   */
  clock?: JobClock;
}

/** Where a periodic job writes what it must never keep silent (the worker's pino logger). */
export interface PeriodicLog {
  error(details: object, message: string): void;
}

export interface PeriodicJob {
  name: string;
  /** How often to run it when it finds nothing to do. */
  everyMs: number;
  /**
   * Does one round of work. Returning a count above 0 says there may be more: the job runs again
   * on the worker's next pass instead of waiting everyMs, so a backlog drains at full speed.
   * Database-only work: anything that talks to the network is a job kind instead.
   */
  run(deps: Deps, log: PeriodicLog, memory: PeriodicMemory): Promise<number | void>;
}

/**
 * What a periodic job notes between its runs in one worker (when it last did its full pass): a
 * field of the worker that runs it, so the job itself keeps no module-level state.
 */
export type PeriodicMemory = Map<string, number>;

/**
 * Runs after a test-clock advance, once the mode's due timers have run and before the answer.
 * Hooks start work that the worker would pick up on its own anyway, only later (webhook attempts
 * that became due, say), so a hook that fails is logged and the advance still answers.
 */
export interface ClockAdvanceHook {
  name: string;
  run(deps: Deps, scope: Scope, now: Date): Promise<void>;
}

/** A module's component: how the root builds its loop for a process. */
export interface WorkerComponent {
  name: string;
  create(deps: ComponentDeps): ComponentLoop;
}

/**
 * Figures for GET /metrics of work kept in a module's own rows rather than as jobs or timers (the
 * webhook deliveries), read at each scrape beside backgroundWorkStats' own rows and converted with
 * them: one row per kind that has work, none otherwise.
 */
export interface WorkStatsSource {
  name: string;
  stats(db: Db, nowMs: number): Promise<WorkStatsRow[]>;
}

/** One kind's figures as a statement reads them (jobs, timers, and each WorkStatsSource). */
export interface WorkStatsRow {
  kind: string;
  queued: number;
  in_flight: number;
  failed: number;
  oldest: number | null;
}

/**
 * A counter for GET /metrics whose value lives in the database (so a worker process without an
 * HTTP server counts it too, and it survives restarts): read at each scrape, one value per label.
 * The rows it counts must only grow (the ledger's invariant violations).
 */
export interface CounterSource {
  name: string;
  help: string;
  labelName: string;
  read(db: Db): Promise<Array<{ label: string; value: number }>>;
}
