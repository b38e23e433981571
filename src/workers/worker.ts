// The background worker: runs due timers and the periodic jobs of jobs.ts in a loop. Any number of
// worker processes may run against one PostgreSQL: timers are claimed row by row with FOR UPDATE
// SKIP LOCKED inside the transaction that handles them (timers.ts), and periodic jobs are written
// to be safe when several processes run them. The loop polls every idleMs when there was nothing
// to do and goes again at once when there was; an error is logged and the loop carries on.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Services } from '../http/types.js';
import { timerHandlers } from './handlers.js';
import { periodicJobs, type PeriodicJob } from './jobs.js';
import { runDueTimers, type TimerHandlers } from './timers.js';

/** The part of a pino logger the worker uses. */
export interface WorkerLog {
  error(details: object, message: string): void;
}

export interface WorkerOptions {
  log: WorkerLog;
  handlers?: TimerHandlers;
  jobs?: readonly PeriodicJob[];
  /** Pause between passes that found nothing to do. */
  idleMs?: number;
  /** Timers per pass, so periodic jobs still get their turn while a backlog of timers drains. */
  timersPerPass?: number;
}

export interface Worker {
  /** Ends the loop once the pass under way has finished; resolves when it has. */
  stop(): Promise<void>;
}

const MAX_BACKOFF_MS = 10_000;

export function startWorker(services: Services, options: WorkerOptions): Worker {
  const { log } = options;
  const handlers = options.handlers ?? timerHandlers;
  const jobs = options.jobs ?? periodicJobs;
  const idleMs = options.idleMs ?? 250;
  const timersPerPass = options.timersPerPass ?? 100;
  // Real elapsed time (not the injectable clock) decides when a job is due again.
  const jobDueAt = new Map<string, number>(jobs.map((job) => [job.name, 0]));
  let stopping = false;
  let wake: (() => void) | null = null;

  async function runJobs(): Promise<boolean> {
    let busy = false;
    for (const job of jobs) {
      if (stopping || performance.now() < (jobDueAt.get(job.name) ?? 0)) continue;
      let done = 0;
      try {
        done = (await job.run(services)) ?? 0;
      } catch (err) {
        log.error({ err, job: job.name }, 'periodic job failed');
      }
      busy ||= done > 0;
      jobDueAt.set(job.name, done > 0 ? 0 : performance.now() + job.everyMs);
    }
    return busy;
  }

  /** One pass; true when it found work, so the next pass should come at once. */
  async function pass(): Promise<boolean> {
    const timersRan = await runDueTimers(services.db, services.clock, handlers, { max: timersPerPass });
    const jobsBusy = await runJobs();
    return timersRan > 0 || jobsBusy;
  }

  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timeout = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timeout);
        resolve();
      };
    });
  }

  const loop = (async () => {
    let failures = 0;
    while (!stopping) {
      let busy = false;
      try {
        busy = await pass();
        failures = 0;
      } catch (err) {
        // The database is unreachable, most likely: back off so the log is not flooded.
        failures++;
        log.error({ err, failures }, 'worker pass failed');
      }
      if (stopping) break;
      if (busy) await yieldToEventLoop();
      else await pause(failures === 0 ? idleMs : Math.min(MAX_BACKOFF_MS, idleMs * 2 ** failures));
    }
  })();

  return {
    async stop() {
      stopping = true;
      wake?.();
      await loop;
    },
  };
}
