// The background engine of one process as the rest of the service sees it (src/workers/ builds it,
// the composition root constructs it once per process): its wake-ups and the loops of the modules'
// components. Nothing here is a module-level singleton: each process (and each test's services) has its own.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { Scope } from '../scope.js';

/**
 * How this process's claim loops learn that work may be due (src/workers/wake.ts): one per process,
 * built by the composition root. A topic is a job kind ('' for every kind) or a component's name.
 */
export interface WakeUps {
  /** Tells this process's loops of `topic` to look now. */
  signal(topic: string): void;
  /** Calls `listener(topic)` on every signal; answers the function that stops it. */
  on(listener: (topic: string) => void): () => void;
}

/**
 * The spacing of the starts of rate-limited keys (a webhook endpoint with a rate) in this process
 * (src/workers/pacing.ts): one per process, shared by its loops.
 */
export interface Pacing {
  /** When a start to `key` may happen, asked at `nowMs`; null: now (it is counted as started). */
  startOrWaitUntil(key: string, rate: number, nowMs: number): number | null;
}

/** What a component's loop is built with: the services of its process, without their hooks. */
export interface ComponentDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly config: Config;
  readonly background: Pick<Background, 'wakeUps' | 'pacing'>;
}

/**
 * A component's claim loop: the engine's batch loop over a module's own rows (the webhook
 * dispatcher: src/workers/batch-loop.ts over the deliveries' kind), built once per process by the
 * composition root, started and stopped by the worker, and used by the test clock's advance in
 * any process (runDue).
 */
export interface ComponentLoop {
  /** Starts claiming continuously (the worker's part), logging to `log`. */
  start(log: { error(details: object, message: string): void }): void;
  /** Ends claiming, lets work under way finish (up to graceMs), records it; start() may follow. */
  stop(graceMs?: number): Promise<void>;
  /** Claims what is due now (of one mode, or all) and starts it; with `wait`, resolves once recorded. */
  runDue(only: Scope | null, options?: { wait?: boolean }): Promise<number>;
  /** Resolves once nothing is in flight and every outcome is recorded. */
  idle(): Promise<void>;
}

/** The background machinery of one process (src/workers/background.ts), built by the composition root. */
export interface Background {
  readonly wakeUps: WakeUps;
  readonly pacing: Pacing;
  /** The loop of the component of that name; an unknown name throws. */
  loop(name: string): ComponentLoop;
}
