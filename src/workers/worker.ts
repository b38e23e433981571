// The background worker of a process: the job engine (engine.ts: network work, claimed under a
// lease and run with no transaction open), and a loop that runs due timers (timers.ts: database
// work, run inside its claim) and the periodic jobs. Any number of worker processes may run
// against one PostgreSQL: both claim with FOR UPDATE SKIP LOCKED, and periodic jobs are written
// to be safe when several processes run them. The loop polls every idleMs when there was nothing
// to do and goes again at once when there was; an error is logged and the loop carries on.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { PeriodicJob, PeriodicMemory } from '../contracts/background.js';
import type { Deps } from '../contracts/deps.js';
import type { Wiring } from '../contracts/wiring.js';
import { startJobEngine, type EngineLog } from './engine.js';
import { runDueTimers } from './timers.js';

/** The part of a pino logger the worker uses. */
export type WorkerLog = EngineLog;

export interface WorkerOptions {
  log: WorkerLog;
  /** Pause between timer passes that found nothing to do. */
  idleMs?: number;
  /** Timers per pass, so periodic jobs still get their turn while a backlog of timers drains. */
  timersPerPass?: number;
  /** The job engine's longest wait without a wake-up (engine.ts). */
  jobPollMs?: number;
  /** How long stop() lets jobs under way finish before releasing them. */
  stopGraceMs?: number;
  workerId?: string;
}

export interface Worker {
  /** Ends the loop once the pass under way has finished, and the engine; resolves when both have. */
  stop(): Promise<void>;
}

const MAX_BACKOFF_MS = 10_000;

/** What a worker runs: the wiring's background lists (src/app/wiring.ts), or a test's own. */
export type BackgroundWork = Pick<Wiring, 'timers' | 'jobKinds' | 'periodic' | 'components'>;

export function startWorker(services: Deps, work: BackgroundWork, options: WorkerOptions): Worker {
  const { log } = options;
  const handlers = work.timers;
  const jobs: readonly PeriodicJob[] = work.periodic;
  const engine = startJobEngine(services, work.jobKinds, {
    log,
    ...(options.jobPollMs !== undefined ? { pollMs: options.jobPollMs } : {}),
    ...(options.stopGraceMs !== undefined ? { stopGraceMs: options.stopGraceMs } : {}),
    ...(options.workerId !== undefined ? { workerId: options.workerId } : {}),
  });
  // The components' loops were built with the process's services (background.ts): started here.
  const components = work.components.map((component) => services.background.loop(component.name));
  for (const component of components) component.start(log);
  const idleMs = options.idleMs ?? 250;
  const timersPerPass = options.timersPerPass ?? 100;
  // Real elapsed time (not the injectable clock) decides when a job is due again.
  const jobDueAt = new Map<string, number>(jobs.map((job) => [job.name, 0]));
  const memories = new Map<string, PeriodicMemory>(jobs.map((job) => [job.name, new Map()]));
  let stopping = false;
  let wake: (() => void) | null = null;

  async function runJobs(): Promise<boolean> {
    let busy = false;
    for (const job of jobs) {
      if (stopping || performance.now() < (jobDueAt.get(job.name) ?? 0)) continue;
      let done = 0;
      try {
        done = (await job.run(services, log, memories.get(job.name)!)) ?? 0;
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
    const timersRan = await runDueTimers(services, handlers, { max: timersPerPass });
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
      await Promise.all([loop, engine.stop(), ...components.map((component) => component.stop())]);
    },
  };
}
