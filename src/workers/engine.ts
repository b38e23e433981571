// The job engine: runs the job kinds of one process. For each kind it claims due jobs in batches
// (job-queue.ts: a short transaction, a lease per job), runs their handlers with no transaction
// open, up to the kind's concurrency at once, and records each outcome in a second short
// transaction. It claims again when a slot frees while there may be more, when it is woken
// (wake.ts: LISTEN/NOTIFY, or the process's in-process signal), when the next job is due or a
// lease runs out by its reckoning, and at the latest every pollMs.
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Job, JobContext, JobKind, JobOutcome, Settled } from '../contracts/background.js';
import type { Deps as JobDeps } from '../contracts/deps.js';
import type { ResolvedJobKind } from './job-kinds.js';
import { resolveKind } from './job-kinds.js';
import { claimJobs, nextDueAtMs, RELEASE, settleJob } from './job-queue.js';
import { subscribeToWakeUps, type WakeSubscription } from './wake.js';

/** The part of a pino logger the engine uses. */
export interface EngineLog {
  error(details: object, message: string): void;
}

export interface EngineOptions {
  log: EngineLog;
  /** The longest wait between two looks at the table when nothing woke the engine. Default 5 s. */
  pollMs?: number;
  /** How long stop() lets handlers under way finish before it releases their jobs. Default 5 s. */
  stopGraceMs?: number;
  /** Names this process in jobs.locked_by. Default: host, pid and a random tag. */
  workerId?: string;
}

export interface JobEngine {
  readonly workerId: string;
  /** Ends claiming, waits for the handlers under way (up to stopGraceMs), then releases the rest. */
  stop(): Promise<void>;
}

const FAILURE_BACKOFF_MAX_MS = 10_000;

export function defaultWorkerId(): string {
  return `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;
}

/** Thrown into a handler's race when the worker stops: its job is released, not failed. */
class WorkerStopping extends Error {}

/** Resolves or rejects with `work`, or rejects with the signal's reason when it aborts first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One attempt: runs the handler until it reports, throws, or its signal aborts (shortly before
 * the lease ends: the attempt fails; the worker stopping: the job is released), then records it.
 */
export async function attemptJob(deps: JobDeps, kind: ResolvedJobKind, job: Job, stopping: AbortSignal): Promise<Settled> {
  const controller = new AbortController();
  const margin = Math.min(5_000, kind.leaseMs / 10);
  const leaseTimer = setTimeout(
    () => controller.abort(new Error(`attempt ran out of time (lease of ${kind.leaseMs / 1000} s)`)),
    kind.leaseMs - margin,
  );
  const onStop = () => controller.abort(new WorkerStopping('worker stopping'));
  stopping.addEventListener('abort', onStop, { once: true });
  const ctx: JobContext = { ...deps, now: new Date(deps.clock.nowMs() + job.clockOffsetMs), signal: controller.signal };
  let outcome: JobOutcome | typeof RELEASE;
  try {
    outcome = await untilAborted(
      Promise.resolve().then(() => kind.handle(job, ctx)),
      controller.signal,
    );
  } catch (error) {
    outcome = error instanceof WorkerStopping ? RELEASE : { status: 'retry', error: messageOf(error) };
  } finally {
    clearTimeout(leaseTimer);
    stopping.removeEventListener('abort', onStop);
  }
  return settleJob(deps, kind, job, outcome);
}

/**
 * Claims and runs due jobs of one kind until none is due or `max` ran, batch by batch, and
 * answers what was recorded. For tests and the test clock; the engine does this continuously.
 */
export async function runDueJobs(deps: JobDeps, kindDef: JobKind, options: { max?: number; workerId?: string; onlyKeys?: readonly string[] } = {}): Promise<Settled[]> {
  const kind = resolveKind(kindDef);
  if (!kind.enabled(deps.config)) return [];
  const max = options.max ?? 100;
  const workerId = options.workerId ?? defaultWorkerId();
  const never = new AbortController().signal;
  const results: Settled[] = [];
  while (results.length < max) {
    const want = Math.min(kind.batchSize, max - results.length);
    const { jobs } = await claimJobs(deps, kind, workerId, want, options.onlyKeys ?? null);
    results.push(...(await Promise.all(jobs.map((job) => attemptJob(deps, kind, job, never)))));
    if (jobs.length < want) break;
  }
  return results;
}

interface Shared {
  deps: JobDeps;
  log: EngineLog;
  workerId: string;
  pollMs: number;
  stopping: boolean;
  /** Aborted when the grace period of stop() is over. */
  release: AbortController;
  running: Set<Promise<void>>;
}

/** The claim loop of one kind in this process. */
class KindRunner {
  private inFlight = 0;
  private filling: Promise<void> | null = null;
  private again = false;
  /** The last claim found fewer jobs than it asked for: a freed slot alone is no reason to claim. */
  private drained = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private failures = 0;

  constructor(
    readonly kind: ResolvedJobKind,
    private readonly shared: Shared,
  ) {}

  /** Something may be due (a wake-up, a timer): claim. */
  wake(): void {
    this.drained = false;
    this.kick();
  }

  whenIdle(): Promise<void> {
    return this.filling ?? Promise.resolve();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private kick(): void {
    if (this.shared.stopping) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = this.fill().finally(() => {
      this.filling = null;
    });
  }

  /** Looks again in `ms` (real time), unless a look is already due sooner. */
  private wakeIn(ms: number): void {
    if (this.shared.stopping) return;
    const at = performance.now() + Math.max(0, ms);
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, Math.max(0, ms));
  }

  private async fill(): Promise<void> {
    const { deps, workerId, pollMs, log } = this.shared;
    let recheckedDue = false;
    try {
      while (!this.shared.stopping) {
        this.again = false;
        const want = Math.min(this.kind.batchSize, this.kind.concurrency - this.inFlight);
        if (want <= 0) return; // every slot is busy: a finishing job claims again
        const { jobs } = await claimJobs(deps, this.kind, workerId, want);
        this.failures = 0;
        for (const job of jobs) this.start(job);
        if (jobs.length === want || this.again) continue;
        this.drained = true;
        const next = await nextDueAtMs(deps, this.kind);
        if (this.again) continue;
        const now = deps.clock.nowMs();
        // Due but not claimed: it became due just now (look once more), or its key is at the cap
        // or another claim holds it (a finishing job, a wake-up or the poll will tell).
        if (next !== null && next <= now && !recheckedDue) {
          recheckedDue = true;
          continue;
        }
        this.wakeIn(next === null || next <= now ? pollMs : Math.min(pollMs, next - now));
        return;
      }
    } catch (err) {
      this.failures++;
      log.error({ err, kind: this.kind.name, failures: this.failures }, 'job claim failed');
      this.wakeIn(Math.min(FAILURE_BACKOFF_MAX_MS, 250 * 2 ** this.failures));
    }
  }

  private start(job: Job): void {
    const { deps, log, release, running } = this.shared;
    this.inFlight++;
    const run: Promise<void> = attemptJob(deps, this.kind, job, release.signal)
      .then(
        (settled) => {
          // This process knows when its retry is due: look then rather than at the next poll.
          if (settled.result === 'retrying' && settled.nextRunAt) this.wakeIn(settled.nextRunAt.getTime() - settled.at.getTime());
          if (settled.result === 'failed') log.error({ kind: job.kind, job: job.id, error: settled.error }, 'job failed for good');
          if (settled.result === 'lost') log.error({ kind: job.kind, job: job.id }, 'job outcome dropped: its lease had passed to another worker');
        },
        (err: unknown) => log.error({ err, kind: job.kind, job: job.id }, 'job outcome could not be recorded; the job runs again once its lease ends'),
      )
      .finally(() => {
        this.inFlight--;
        running.delete(run);
        if (!this.drained) this.kick();
      });
    running.add(run);
  }
}

/** Starts claiming and running the enabled kinds; returns at once (the LISTEN connection comes up meanwhile). */
export function startJobEngine(deps: JobDeps, kinds: readonly JobKind[], options: EngineOptions): JobEngine {
  const shared: Shared = {
    deps,
    log: options.log,
    workerId: options.workerId ?? defaultWorkerId(),
    pollMs: options.pollMs ?? 5_000,
    stopping: false,
    release: new AbortController(),
    running: new Set(),
  };
  // Every job in flight listens to it: hundreds are expected.
  setMaxListeners(0, shared.release.signal);
  const runners = new Map<string, KindRunner>();
  for (const kind of kinds.map(resolveKind)) {
    if (runners.has(kind.name)) throw new Error(`job kind '${kind.name}' is registered twice`);
    if (kind.enabled(deps.config)) runners.set(kind.name, new KindRunner(kind, shared));
  }
  const onWake = (kind: string) => {
    if (kind === '') for (const runner of runners.values()) runner.wake();
    else runners.get(kind)?.wake();
  };
  const subscription: Promise<WakeSubscription | null> =
    runners.size === 0
      ? Promise.resolve(null)
      : subscribeToWakeUps(deps.db, deps.background.wakeUps, onWake, (err) => options.log.error({ err }, 'job wake-up connection failed')).catch((err: unknown) => {
          options.log.error({ err }, 'job wake-ups unavailable; polling');
          return null;
        });
  for (const runner of runners.values()) runner.wake();

  return {
    workerId: shared.workerId,
    async stop() {
      shared.stopping = true;
      for (const runner of runners.values()) runner.stop();
      await (await subscription)?.close();
      await Promise.all([...runners.values()].map((runner) => runner.whenIdle()));
      const grace = options.stopGraceMs ?? 5_000;
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, grace)));
      await Promise.race([Promise.all([...shared.running]), graceOver]);
      clearTimeout(graceTimer);
      shared.release.abort();
      while (shared.running.size > 0) await Promise.all([...shared.running]);
    },
  };
}
