// A kind of job: a name, a handler that does the I/O, and how the engine runs it. Adding a kind is
// one object (src/modules/emails/sender.ts is the one to copy) and one line in the registry
// (src/modules/background.ts). The handler runs with no transaction open; what it reports is
// recorded by the engine in a short transaction of its own, where onSettled writes the domain's
// side of it (the email's status) atomically with the job's.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db, Tx } from '../db/db.js';
import type { Mode } from '../scope.js';

/** What the engine and handlers need of the services. */
export interface JobDeps {
  db: Db;
  clock: Clock;
  config: Config;
}

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

export interface JobContext extends JobDeps {
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

export type ResolvedJobKind = Required<Omit<JobKind, 'onSettled'>> & Pick<JobKind, 'onSettled'>;

/** `baseMs` after the first failure, doubling, at most `maxMs`. */
export function exponentialBackoff(baseMs: number, maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

export function resolveKind(kind: JobKind): ResolvedJobKind {
  const concurrency = kind.concurrency ?? 10;
  const resolved: ResolvedJobKind = {
    name: kind.name,
    handle: kind.handle,
    onSettled: kind.onSettled,
    enabled: kind.enabled ?? (() => true),
    maxAttempts: kind.maxAttempts ?? 10,
    backoffMs: kind.backoffMs ?? exponentialBackoff(10_000, 60 * 60 * 1000),
    leaseMs: kind.leaseMs ?? 60_000,
    concurrency,
    batchSize: kind.batchSize ?? Math.min(concurrency, 100),
    perKeyLimit: kind.perKeyLimit ?? null,
    clock: kind.clock ?? 'real',
  };
  if (!Number.isInteger(resolved.maxAttempts) || resolved.maxAttempts < 1) throw new Error(`${kind.name}: maxAttempts must be 1 or more`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`${kind.name}: concurrency must be 1 or more`);
  if (resolved.perKeyLimit !== null && (!Number.isInteger(resolved.perKeyLimit) || resolved.perKeyLimit < 1)) {
    throw new Error(`${kind.name}: perKeyLimit must be 1 or more`);
  }
  if (resolved.leaseMs < 1000) throw new Error(`${kind.name}: leaseMs must be at least 1000`);
  return resolved;
}
