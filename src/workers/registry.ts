// What a process's background work is made of. The lists themselves are cross-module wiring and
// live at the top, in src/modules/background.ts; the worker and the test clock are handed them.
import type { Db } from '../db/db.js';
import type { Services } from '../http/types.js';
import type { Scope } from '../scope.js';
import type { JobKind } from './job-kinds.js';
import type { WorkStatsRow } from './stats.js';
import type { TimerHandlers } from './timers.js';

export interface PeriodicJob {
  name: string;
  /** How often to run it when it finds nothing to do. */
  everyMs: number;
  /**
   * Does one round of work. Returning a count above 0 says there may be more: the job runs again
   * on the worker's next pass instead of waiting everyMs, so a backlog drains at full speed.
   * Database-only work: anything that talks to the network is a job kind instead.
   */
  run(services: Services): Promise<number | void>;
}

/**
 * Runs after a test-clock advance, once the mode's due timers have run and before the answer.
 * Hooks start work that the worker would pick up on its own anyway, only later (webhook attempts
 * that became due, say), so a hook that fails is logged and the advance still answers.
 */
export interface ClockAdvanceHook {
  name: string;
  run(services: Services, scope: Scope, now: Date): Promise<void>;
}

/**
 * A loop of its own that the worker starts and stops with itself: work whose rows are claimed by
 * their own statement rather than as jobs (the webhook dispatcher claims delivery rows).
 */
export interface WorkerComponent {
  name: string;
  start(services: Services, log: { error(details: object, message: string): void }): { stop(): Promise<void> };
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

export interface BackgroundWork {
  /** Database-only work due at a time of a mode's clock, run inside its claim (timers.ts). */
  timers: TimerHandlers;
  /** Work that talks to the network, run between two short transactions (engine.ts). */
  jobKinds: readonly JobKind[];
  periodic: readonly PeriodicJob[];
  clockAdvanceHooks: ClockAdvanceHook[];
  components?: readonly WorkerComponent[];
}
