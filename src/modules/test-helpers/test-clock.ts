// The test clock of a marketplace's test mode. It is an offset on top of real time,
// kept in marketplace_modes.clock_offset_ms, so every process and the timer query in SQL read the
// same time. Advancing it runs the mode's timers that became due before the answer returns.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../clock.js';
import type { Queryable } from '../../db/db.js';
import type { Services } from '../../contracts/wiring.js';
import { clockOffsetMs, type Scope } from '../../scope.js';
import { runDueTimers } from '../../workers/timers.js';
import type { OperationContext } from '../../contracts/context.js';
import { advanceModeClock } from '../marketplaces/index.js';
import { selectAnyTimerDue } from './queries.js';
import type { AdvanceTestClockBody, TestClock } from './schemas.js';
import { assertTestMode } from './test-mode.js';

/** How long an advance waits for due timers that another worker process is running right now. */
const WAIT_FOR_OTHER_WORKERS_MS = 10_000;
/** Bounds one pass of timers, so a handler that keeps scheduling due timers cannot hold the answer forever. */
const TIMERS_PER_PASS = 10_000;

async function readTestClock(q: Queryable, clock: Clock, scope: Scope): Promise<TestClock> {
  const offset = await clockOffsetMs(q, scope);
  return { object: 'test_clock', now: new Date(clock.nowMs() + offset).toISOString(), offset_seconds: Math.floor(offset / 1000) };
}

export async function retrieveTestClock(ctx: OperationContext): Promise<TestClock> {
  assertTestMode(ctx.scope);
  return readTestClock(ctx.db, ctx.clock, ctx.scope);
}

/**
 * What an advance runs after its commit: the worker's due work of the mode, from the wiring the
 * running service was built with (its timers and clock-advance hooks), like the worker's.
 */
export interface AdvanceWork {
  services: Services;
  /** Told about a clock-advance hook that failed; the advance itself still succeeds. */
  onHookError?: (error: unknown, hook: string) => void;
}

export async function advanceTestClock(ctx: OperationContext, body: AdvanceTestClockBody, work: AdvanceWork): Promise<TestClock> {
  const { scope } = ctx;
  assertTestMode(scope);
  return ctx.db.transaction(async (tx) => {
    await advanceModeClock(tx, scope, body.seconds * 1000);
    // The due work runs once the new time is committed, each timer in a transaction of its own,
    // and before the answer leaves (the outermost transaction resolves after its hooks). Under an
    // Idempotency-Key this transaction is the request's: running the timers inside it would hold
    // every listing they touch until the answer, and deadlock with requests on them.
    tx.afterCommit(() => runDueWork(work.services, scope, work));
    return readTestClock(tx, ctx.clock, scope);
  });
}

/** The timers that became due, then the advance hooks, with the mode's new time. */
async function runDueWork(services: Services, scope: Scope, options: Pick<AdvanceWork, 'onHookError'>): Promise<void> {
  await runTimersDueNow(services, scope);
  const now = new Date(services.clock.nowMs() + (await clockOffsetMs(services.db, scope)));
  for (const hook of services.wiring.clockAdvanceHooks) {
    try {
      await hook.run(services, scope, now);
    } catch (error) {
      options.onHookError?.(error, hook.name);
    }
  }
}

/**
 * Runs this mode's due timers until none is due. A due timer that a worker process holds at this
 * moment is skipped by the claim (SKIP LOCKED), so the advance waits, briefly, until that worker
 * has finished it: the answer must come after every timer that became due. So it waits too for a
 * timer whose subject a request holds (the timer gives way on the lock and stays due). A timer
 * whose handler failed is rescheduled a little later, so it no longer counts as due.
 */
async function runTimersDueNow(services: Services, scope: Scope): Promise<void> {
  const { db, clock } = services;
  const giveUpAt = performance.now() + WAIT_FOR_OTHER_WORKERS_MS;
  for (;;) {
    await runDueTimers(services, services.wiring.timers, { only: scope, max: TIMERS_PER_PASS, whenBusy: 'stay_due' });
    if (!(await anyTimerDue(db, clock, scope)) || performance.now() > giveUpAt) return;
    await sleep(25);
  }
}

async function anyTimerDue(q: Queryable, clock: Clock, scope: Scope): Promise<boolean> {
  return selectAnyTimerDue(q, scope, new Date(clock.nowMs() + (await clockOffsetMs(q, scope))));
}
