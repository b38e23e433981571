import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { newId } from '../../../src/ids.js';
import { createMarketplace } from '../../../src/modules/marketplaces/operations.js';
import type { Scope } from '../../../src/scope.js';
import type { ClockAdvanceHook, TimerHandlers } from '../../../src/contracts/background.js';
import { runOneDueTimer, scheduleTimer } from '../../../src/workers/timers.js';
import { createDb } from '../../../src/db/db.js';
import { postgresDriver } from '../../../src/db/drivers.js';
import { startTestApp, usingPostgres, type TestContext } from '../../helpers/harness.js';

const BASE = Date.parse('2026-11-21T09:30:00.000Z');
const KIND = 'test.clock_probe';
const clock = new ManualClock(BASE);
let ctx: TestContext;
let scope: Scope;
const ran: Array<{ subject: string; scope: Scope; now: string }> = [];

// This file's wiring: the real timers and clock hooks, in a record and a list the tests add to.
const timerHandlers: TimerHandlers = {};
const clockAdvanceHooks: ClockAdvanceHook[] = [];

beforeAll(async () => {
  ctx = await startTestApp({
    clock,
    wiring: (base) => {
      clockAdvanceHooks.push(...base.clockAdvanceHooks);
      return { ...base, timers: Object.assign(timerHandlers, base.timers), clockAdvanceHooks };
    },
  });
  scope = { marketplaceId: ctx.marketplaceId, mode: 'test' };
  timerHandlers[KIND] = async (_tx, timerScope, timer, now) => {
    ran.push({ subject: timer.subjectId, scope: timerScope, now: now.toISOString() });
  };
});
afterAll(async () => {
  delete timerHandlers[KIND];
  await ctx.close();
});
afterEach(() => {
  clockAdvanceHooks.length = 0;
});

async function offsetSeconds(): Promise<number> {
  return (await ctx.request('/v1/test_helpers/clock')).body.offset_seconds;
}

async function schedule(at: Scope, subject: string, runAtMs: number) {
  await ctx.db.transaction((tx) => scheduleTimer(tx, at, KIND, subject, new Date(runAtMs)));
}

describe('GET /v1/test_helpers/clock', () => {
  it('answers the test clock of the mode', async () => {
    const res = await ctx.request('/v1/test_helpers/clock');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'test_clock', now: new Date(BASE).toISOString(), offset_seconds: 0 });
  });

  it('refuses live keys with 403 test_mode_only and publishable keys with 403 secret_key_required', async () => {
    const live = await ctx.request('/v1/test_helpers/clock', { key: ctx.keys.live.secret_key });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('test_mode_only');
    const pk = await ctx.request('/v1/test_helpers/clock', { key: ctx.keys.test.publishable_key });
    expect(pk.status).toBe(403);
    expect(pk.body.error.code).toBe('secret_key_required');
  });
});

describe('POST /v1/test_helpers/clock/advance', () => {
  it('moves the clock forward and answers it', async () => {
    const before = await offsetSeconds();
    const res = await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 90 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'test_clock',
      now: new Date(BASE + (before + 90) * 1000).toISOString(),
      offset_seconds: before + 90,
    });
    expect(await offsetSeconds()).toBe(before + 90);
  });

  it('accepts the largest advance, 365 days', async () => {
    const before = await offsetSeconds();
    const res = await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 31_536_000 } });
    expect(res.status).toBe(200);
    expect(res.body.offset_seconds).toBe(before + 31_536_000);
  });

  it('adds up concurrent advances', async () => {
    const before = await offsetSeconds();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 10 } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await offsetSeconds()).toBe(before + 50);
  });

  it('advances once for a replayed Idempotency-Key', async () => {
    const before = await offsetSeconds();
    const headers = { 'idempotency-key': `advance-${newId('request')}` };
    const first = await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 5 }, headers });
    const again = await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 5 }, headers });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await offsetSeconds()).toBe(before + 5);
  });

  it.each([
    [{ seconds: 0 }, 'seconds'],
    [{ seconds: -5 }, 'seconds'],
    [{ seconds: 31_536_001 }, 'seconds'],
    [{ seconds: 1.5 }, 'seconds'],
    [{ seconds: '60' }, 'seconds'],
    [{}, 'seconds'],
    [{ seconds: 60, days: 1 }, 'days'],
  ])('answers 400 invalid_request for %j', async (body, param) => {
    const before = await offsetSeconds();
    const res = await ctx.request('/v1/test_helpers/clock/advance', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    expect(await offsetSeconds()).toBe(before);
  });

  it('refuses a live key with 403 test_mode_only, whatever the body', async () => {
    for (const body of [{ seconds: 60 }, { seconds: 0 }]) {
      const res = await ctx.request('/v1/test_helpers/clock/advance', { body, key: ctx.keys.live.secret_key });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('test_mode_only');
    }
  });

  it("runs the mode's timers that became due before it answers, and no others", async () => {
    const now = BASE + (await offsetSeconds()) * 1000;
    const other = await createMarketplace(ctx.db, clock, { workspaceId: ctx.workspaceId, name: 'Other', currency: 'USD' });
    const otherScope: Scope = { marketplaceId: other.marketplace.id, mode: 'test' };
    await schedule(scope, 'due-soon', now + 30 * 60_000);
    await schedule(scope, 'due-at-the-hour', now + 60 * 60_000);
    await schedule(scope, 'later', now + 2 * 60 * 60_000);
    // Both already due on their own clocks: the advance still leaves them to the worker.
    await schedule({ ...scope, mode: 'live' }, 'live-mode', clock.nowMs() - 60_000);
    await schedule(otherScope, 'other-marketplace', clock.nowMs() - 60_000);
    ran.length = 0;

    const res = await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 3600 } });
    expect(res.status).toBe(200);
    expect(ran.map((r) => r.subject)).toEqual(['due-soon', 'due-at-the-hour']);
    expect(ran[0]).toEqual({ subject: 'due-soon', scope, now: new Date(now + 3_600_000).toISOString() });

    const left = await ctx.db.query<{ subject_id: string }>('SELECT subject_id FROM timers WHERE kind = $1 ORDER BY subject_id', [KIND]);
    expect(left.map((row) => row.subject_id)).toEqual(['later', 'live-mode', 'other-marketplace']);
    await ctx.db.query('DELETE FROM timers WHERE kind = $1', [KIND]);
  });

  it('answers only after a due timer that a worker is running at that moment has finished', async () => {
    const now = BASE + (await offsetSeconds()) * 1000;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const events: string[] = [];
    timerHandlers['test.slow'] = async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 300));
      events.push('timer finished');
    };
    await ctx.db.transaction((tx) => scheduleTimer(tx, scope, 'test.slow', 'slow', new Date(now - 1000)));
    const worker = runOneDueTimer(ctx.services, timerHandlers, scope);
    await running;
    const res = await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 1 } });
    events.push('advance answered');
    expect(res.status).toBe(200);
    expect(await worker).toBe(true);
    expect(events).toEqual(['timer finished', 'advance answered']);
    delete timerHandlers['test.slow'];
  });

  it('waits for a due timer whose subject a request holds, and the request is not failed by a deadlock', async () => {
    const now = BASE + (await offsetSeconds()) * 1000;
    await ctx.db.exec('CREATE TABLE test_held (id text PRIMARY KEY)');
    await ctx.db.query("INSERT INTO test_held (id) VALUES ('held')");
    const events: string[] = [];
    timerHandlers['test.locking'] = async (tx, _scope, timer) => {
      await tx.query('SELECT id FROM test_held WHERE id = $1 FOR UPDATE', [timer.subjectId]);
      events.push('timer ran');
    };
    await ctx.db.transaction((tx) => scheduleTimer(tx, scope, 'test.locking', 'held', new Date(now - 1000)));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // A request that holds the subject a while, then moves its timer (as PATCH moves an expiry).
    const request = ctx.db.transaction(async (tx) => {
      await tx.query("SELECT id FROM test_held WHERE id = 'held' FOR UPDATE");
      locked();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await scheduleTimer(tx, scope, 'test.locking', 'held', new Date(now - 500));
      events.push('request committed');
    });
    await isLocked;
    const res = await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 1 }, headers: { 'Idempotency-Key': newId('request') } });
    events.push('advance answered');
    await request;
    expect(res.status).toBe(200);
    expect(events).toEqual(['request committed', 'timer ran', 'advance answered']);
    delete timerHandlers['test.locking'];
  });

  it.runIf(usingPostgres)('runs the timers after the new time is committed, also under an Idempotency-Key', async () => {
    const elsewhere = createDb(postgresDriver(ctx.databaseUrl!, 1));
    const seen: number[] = [];
    timerHandlers['test.committed'] = async () => {
      // Another process's view: the advance's transaction has committed before timers run, so
      // they hold no lock of the request (its listings) while the answer is still on its way.
      const [row] = await elsewhere.query<{ offset: string }>(
        'SELECT clock_offset_ms AS offset FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2',
        [scope.marketplaceId, scope.mode],
      );
      seen.push(Number(row?.offset));
    };
    const before = await offsetSeconds();
    await ctx.db.transaction((tx) => scheduleTimer(tx, scope, 'test.committed', 'committed', new Date(BASE + before * 1000 + 30_000)));
    const res = await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 60 }, headers: { 'Idempotency-Key': newId('request') } });
    expect(res.status).toBe(200);
    expect(seen).toEqual([(before + 60) * 1000]);
    delete timerHandlers['test.committed'];
    await elsewhere.close();
  });

  it('runs the advance hooks with the new time; a failing hook is logged and the advance still answers', async () => {
    const seen: Array<{ scope: Scope; now: string }> = [];
    clockAdvanceHooks.push(
      { name: 'failing', run: async () => Promise.reject(new Error('boom')) },
      { name: 'recording', run: async (_services, at, now) => void seen.push({ scope: at, now: now.toISOString() }) },
    );
    const res = await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 60 } });
    expect(res.status).toBe(200);
    expect(seen).toEqual([{ scope, now: res.body.now }]);
  });
});
