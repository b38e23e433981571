// Timers' attempt accounting: a failing handler is retried with backoff up to its kind's limit
// (TIMER_MAX_ATTEMPTS for a bare handler), then the timer stays in the table, failed, until its
// subject's timer is set again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { runDueTimers, scheduleTimer, TIMER_MAX_ATTEMPTS } from '../../src/workers/timers.js';
import { type TimerHandlers } from '../../src/contracts/background.js';
import { workerFixture, type WorkerFixture } from './helpers.js';

let f: WorkerFixture;
beforeAll(async () => {
  f = await workerFixture();
});
afterAll(() => f.close());

async function timer(kind: string) {
  const [row] = await f.services.db.query<{ status: string; attempts: number; last_error: string | null }>(
    'SELECT status, attempts, last_error FROM timers WHERE kind = $1',
    [kind],
  );
  return row;
}

describe('timer attempts', () => {
  it('records a permanent failure after the kind’s limit and runs it no more; setting it again revives it', async () => {
    const clock = new ManualClock(Date.now());
    let calls = 0;
    const handlers: TimerHandlers = {
      'test.limited': {
        maxAttempts: 3,
        backoffMs: (attempt) => attempt * 1000,
        handle: async () => {
          calls++;
          throw new Error(`failure ${calls}`);
        },
      },
    };
    await f.services.db.transaction((tx) => scheduleTimer(tx, f.scope, 'test.limited', 'subject', new Date(clock.nowMs() - 1000)));
    expect(await runDueTimers({ ...f.services, clock }, handlers, { only: f.scope })).toBe(1);
    expect(await timer('test.limited')).toMatchObject({ status: 'pending', attempts: 1, last_error: 'failure 1' });
    // Not again before its backoff (1 s after attempt 1, 2 s after attempt 2).
    expect(await runDueTimers({ ...f.services, clock }, handlers, { only: f.scope })).toBe(0);
    clock.advance(1000);
    expect(await runDueTimers({ ...f.services, clock }, handlers, { only: f.scope })).toBe(1);
    clock.advance(2000);
    expect(await runDueTimers({ ...f.services, clock }, handlers, { only: f.scope })).toBe(1);
    expect(await timer('test.limited')).toMatchObject({ status: 'failed', attempts: 3, last_error: 'failure 3' });
    clock.advance(24 * 3600_000);
    expect(await runDueTimers({ ...f.services, clock }, handlers, { only: f.scope })).toBe(0);
    expect(calls).toBe(3);

    await f.services.db.transaction((tx) => scheduleTimer(tx, f.scope, 'test.limited', 'subject', new Date(clock.nowMs() + 60_000)));
    expect(await timer('test.limited')).toMatchObject({ status: 'pending', attempts: 0, last_error: null });
  });

  it(`gives a bare handler ${TIMER_MAX_ATTEMPTS} attempts, with backoff from 5 s to an hour`, async () => {
    const clock = new ManualClock(Date.now());
    const handlers: TimerHandlers = {
      'test.bare': async () => {
        throw new Error('always');
      },
    };
    await f.services.db.transaction((tx) => scheduleTimer(tx, f.scope, 'test.bare', 'subject', new Date(clock.nowMs() - 1000)));
    let ran = 0;
    for (let i = 0; i < TIMER_MAX_ATTEMPTS + 5; i++) {
      ran += await runDueTimers({ ...f.services, clock }, handlers, { only: f.scope });
      clock.advance(3600_000);
    }
    expect(ran).toBe(TIMER_MAX_ATTEMPTS);
    expect(await timer('test.bare')).toMatchObject({ status: 'failed', attempts: TIMER_MAX_ATTEMPTS, last_error: 'always' });
  });

  it('a missing handler counts as a failed attempt too', async () => {
    const clock = new ManualClock(Date.now());
    await f.services.db.transaction((tx) => scheduleTimer(tx, f.scope, 'test.unknown', 'subject', new Date(clock.nowMs() - 1000)));
    expect(await runDueTimers({ ...f.services, clock }, {}, { only: f.scope })).toBe(1);
    expect(await timer('test.unknown')).toMatchObject({ status: 'pending', attempts: 1, last_error: "no handler for timer kind 'test.unknown'" });
  });
});
