// The job engine (src/workers/engine.ts, job-queue.ts): batch claims under a lease, per-kind
// concurrency, the per-key cap, the attempt limit, lease takeover and its fence, wake-ups, the
// mode's clock, and stop(). Each test uses kinds of its own.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createDb, type Db } from '../../src/db/db.js';
import { postgresDriver } from '../../src/db/drivers.js';
import { runDueJobs, startJobEngine } from '../../src/workers/engine.js';
import { resolveKind } from '../../src/workers/job-kinds.js';
import { type JobContext, type JobKind, type Settled } from '../../src/contracts/background.js';
import { claimJobs, enqueueJob, settleJob, type NewJob } from '../../src/workers/job-queue.js';
import { gate, quiet, waitFor, workerFixture, type WorkerFixture } from './helpers.js';
import { usingPostgres } from '../helpers/harness.js';

let f: WorkerFixture;
let db: Db;
beforeAll(async () => {
  f = await workerFixture();
  db = f.services.db;
});
afterAll(() => f.close());

const succeed = async () => ({ status: 'succeeded' as const });

async function enqueue(kind: JobKind, count: number, job: Partial<NewJob> & { keys?: string[] } = {}): Promise<void> {
  const { keys, ...rest } = job;
  await db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      const key = keys?.[i];
      await enqueueJob(tx, kind, {
        owner: { workspaceId: f.workspaceId },
        runAt: new Date(Date.now() - 60_000 + i),
        subjectId: `subject-${i}`,
        ...(key !== undefined ? { concurrencyKey: key } : {}),
        ...rest,
      });
    }
  });
}

async function rows(kind: string) {
  return db.query<{ id: number; status: string; attempts: number; locked_by: string | null; last_error: string | null; concurrency_key: string | null }>(
    'SELECT id, status, attempts, locked_by, last_error, concurrency_key FROM jobs WHERE kind = $1 ORDER BY id',
    [kind],
  );
}

describe('claims', () => {
  it('claims in batches: one statement takes up to the limit, each under its lease, and no row twice', async () => {
    const kind = resolveKind({ name: 'test.batch', handle: succeed, concurrency: 10 });
    await enqueue(kind, 25);
    const first = await claimJobs(f.services, kind, 'worker-a', 10);
    expect(first.jobs).toHaveLength(10);
    expect(first.jobs.every((job) => job.attempt === 1 && job.lockedBy === 'worker-a' && job.lockedUntil.getTime() > Date.now())).toBe(true);
    expect((await rows('test.batch')).filter((row) => row.status === 'running')).toHaveLength(10);
    const second = await claimJobs(f.services, kind, 'worker-b', 10);
    const third = await claimJobs(f.services, kind, 'worker-b', 10);
    expect([second.jobs.length, third.jobs.length]).toEqual([10, 5]);
    expect((await claimJobs(f.services, kind, 'worker-b', 10)).jobs).toEqual([]);
    const ids = new Set([...first.jobs, ...second.jobs, ...third.jobs].map((job) => job.id));
    expect(ids.size).toBe(25);
    // Oldest first.
    expect(first.jobs.map((job) => job.subjectId)).toEqual(Array.from({ length: 10 }, (_, i) => `subject-${i}`));
  });

  it('refuses a mode-clock job without a mode to own it', async () => {
    const kind: JobKind = { name: 'test.mode_owner', handle: succeed, clock: 'mode' };
    await expect(enqueue(kind, 1)).rejects.toThrow(/mode-clock job needs a marketplace's mode/);
  });
});

describe('concurrency', () => {
  it('keeps at most the kind’s concurrency in flight in one process', async () => {
    const release = gate();
    let running = 0;
    let most = 0;
    let done = 0;
    const kind: JobKind = {
      name: 'test.concurrency',
      concurrency: 3,
      handle: async () => {
        most = Math.max(most, ++running);
        await release.promise;
        running--;
        done++;
        return { status: 'succeeded' };
      },
    };
    await enqueue(kind, 10);
    const engine = startJobEngine(f.services, [kind], { log: quiet, pollMs: 50 });
    await waitFor(() => running === 3);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(running).toBe(3);
    expect((await rows('test.concurrency')).filter((row) => row.status === 'running')).toHaveLength(3);
    release.open();
    await waitFor(() => done === 10);
    await engine.stop();
    expect(most).toBe(3);
    expect(await rows('test.concurrency')).toEqual([]);
  });

  it('keeps hundreds of attempts in flight in one process', async () => {
    const release = gate();
    let running = 0;
    let done = 0;
    const kind: JobKind = {
      name: 'test.hundreds',
      concurrency: 300,
      batchSize: 100,
      handle: async () => {
        running++;
        await release.promise;
        done++;
        return { status: 'succeeded' };
      },
    };
    await enqueue(kind, 300);
    const engine = startJobEngine(f.services, [kind], { log: quiet, pollMs: 50 });
    await waitFor(() => running === 300, 20_000);
    release.open();
    await waitFor(() => done === 300, 20_000);
    await engine.stop();
    expect(await rows('test.hundreds')).toEqual([]);
  });

  it('caps the jobs of one key across workers: a blocked key does not stop the others', async () => {
    // On PostgreSQL the second engine has a pool of its own, as a second process would.
    const second: Db = usingPostgres && f.database.url ? createDb(postgresDriver(f.database.url, 3)) : db;
    const slow = gate();
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    const done: string[] = [];
    const kind: JobKind = {
      name: 'test.per_key',
      concurrency: 20,
      perKeyLimit: 1,
      handle: async (job) => {
        const key = job.concurrencyKey ?? 'none';
        running.set(key, (running.get(key) ?? 0) + 1);
        most.set(key, Math.max(most.get(key) ?? 0, running.get(key)!));
        if (key === 'slow') await slow.promise;
        else await new Promise((resolve) => setTimeout(resolve, 5));
        running.set(key, running.get(key)! - 1);
        done.push(key);
        return { status: 'succeeded' };
      },
    };
    // The slow key's jobs come first in due order: they must not take every slot.
    await enqueue(kind, 4, { keys: ['slow', 'slow', 'slow', 'slow'] });
    await enqueue(kind, 8, { keys: ['a', 'b', 'a', 'b', 'a', 'b', undefined, undefined] as string[] });
    const engines = [
      startJobEngine(f.services, [kind], { log: quiet, pollMs: 50, workerId: 'one' }),
      startJobEngine({ ...f.services, db: second }, [kind], { log: quiet, pollMs: 50, workerId: 'two' }),
    ];
    await waitFor(() => done.length === 8);
    expect(done.filter((key) => key === 'slow')).toEqual([]);
    const slowRows = (await rows('test.per_key')).filter((row) => row.concurrency_key === 'slow');
    expect(slowRows.map((row) => row.status).sort()).toEqual(['queued', 'queued', 'queued', 'running']);
    slow.open();
    await waitFor(() => done.length === 12);
    await Promise.all(engines.map((engine) => engine.stop()));
    if (second !== db) await second.close();
    expect([most.get('slow'), most.get('a'), most.get('b')]).toEqual([1, 1, 1]);
    expect(await rows('test.per_key')).toEqual([]);
  });
});

describe('attempts and leases', () => {
  it('records a permanent failure after the attempt limit, and tells the kind', async () => {
    let calls = 0;
    const told: string[] = [];
    const kind: JobKind = {
      name: 'test.failing',
      maxAttempts: 3,
      backoffMs: () => 0,
      handle: async () => {
        calls++;
        throw new Error(`boom ${calls}`);
      },
      onSettled: async (_tx, job, settled) => void told.push(`${job.attempt}:${settled.result}`),
    };
    await enqueue(kind, 1);
    const settled: Settled[] = [];
    for (let i = 0; i < 5; i++) settled.push(...(await runDueJobs(f.services, kind)));
    expect(settled.map((outcome) => outcome.result)).toEqual(['retrying', 'retrying', 'failed']);
    expect(calls).toBe(3);
    expect(told).toEqual(['1:retrying', '2:retrying', '3:failed']);
    expect(await rows('test.failing')).toMatchObject([{ status: 'failed', attempts: 3, last_error: 'boom 3', locked_by: null }]);
  });

  it('retries after the backoff the kind gives, not before', async () => {
    const clock = new ManualClock(Date.now());
    const deps = { ...f.services, clock };
    let calls = 0;
    const kind: JobKind = {
      name: 'test.backoff',
      backoffMs: (attempt) => attempt * 60_000,
      handle: async () => (++calls === 3 ? { status: 'succeeded' } : { status: 'retry', error: 'not yet' }),
    };
    await enqueue(kind, 1);
    expect((await runDueJobs(deps, kind)).map((s) => s.result)).toEqual(['retrying']);
    clock.advance(59_000);
    expect(await runDueJobs(deps, kind)).toEqual([]);
    clock.advance(1_000);
    expect((await runDueJobs(deps, kind)).map((s) => s.result)).toEqual(['retrying']);
    clock.advance(119_000);
    expect(await runDueJobs(deps, kind)).toEqual([]);
    clock.advance(1_000);
    expect((await runDueJobs(deps, kind)).map((s) => s.result)).toEqual(['succeeded']);
    expect(await rows('test.backoff')).toEqual([]);
  });

  it('lets another worker take over a lease that ran out; the first worker’s late outcome is dropped', async () => {
    const clock = new ManualClock(Date.now());
    const deps = { ...f.services, clock };
    const runs: Array<{ attempt: number; worker: string }> = [];
    const kind: JobKind = {
      name: 'test.takeover',
      leaseMs: 2_000,
      handle: async (job) => {
        runs.push({ attempt: job.attempt, worker: job.lockedBy });
        return { status: 'succeeded' };
      },
    };
    await enqueue(kind, 1);
    const { jobs: [held] } = await claimJobs(deps, resolveKind(kind), 'crashed', 1);
    expect(held).toBeDefined();
    expect(await runDueJobs(deps, kind, { workerId: 'alive' })).toEqual([]);
    clock.advance(2_001);
    const { jobs: [taken] } = await claimJobs(deps, resolveKind(kind), 'alive', 1);
    expect(taken).toMatchObject({ id: held!.id, attempt: 2, lockedBy: 'alive' });
    expect(await settleJob(deps, resolveKind(kind), held!, { status: 'succeeded' })).toMatchObject({ result: 'lost' });
    expect(await rows('test.takeover')).toMatchObject([{ status: 'running', attempts: 2, locked_by: 'alive' }]);
    expect(await settleJob(deps, resolveKind(kind), taken!, { status: 'succeeded' })).toMatchObject({ result: 'succeeded' });
    expect(await rows('test.takeover')).toEqual([]);

    // Through the engine's own path: the takeover runs the handler once.
    await enqueue(kind, 1);
    await claimJobs(deps, resolveKind(kind), 'crashed', 1);
    clock.advance(2_001);
    expect((await runDueJobs(deps, kind, { workerId: 'alive' })).map((s) => s.result)).toEqual(['succeeded']);
    expect(runs).toEqual([{ attempt: 2, worker: 'alive' }]);
  });

  it('records a failure when a lease runs out on the last allowed attempt', async () => {
    const clock = new ManualClock(Date.now());
    const deps = { ...f.services, clock };
    const told: Settled[] = [];
    const kind: JobKind = {
      name: 'test.last_lease',
      maxAttempts: 1,
      leaseMs: 1_000,
      handle: succeed,
      onSettled: async (_tx, _job, settled) => void told.push(settled),
    };
    await enqueue(kind, 1);
    await claimJobs(deps, resolveKind(kind), 'crashed', 1);
    clock.advance(1_001);
    expect(await runDueJobs(deps, kind)).toEqual([]);
    const [row] = await rows('test.last_lease');
    expect(row).toMatchObject({ status: 'failed', attempts: 1, locked_by: null });
    expect(row!.last_error).toContain('lease expired');
    expect(told).toMatchObject([{ result: 'failed' }]);
  });

  it('stops waiting for a handler shortly before its lease ends and counts the attempt as failed', async () => {
    let aborted = false;
    const kind: JobKind = {
      name: 'test.overrun',
      leaseMs: 1_000,
      handle: (_job, ctx: JobContext) =>
        new Promise((resolve) => ctx.signal.addEventListener('abort', () => ((aborted = true), resolve({ status: 'succeeded' })))),
    };
    await enqueue(kind, 1);
    const [settled] = await runDueJobs(f.services, kind);
    expect(settled).toMatchObject({ result: 'retrying' });
    expect(settled!.error).toMatch(/ran out of time/);
    expect(aborted).toBe(true);
    expect(await rows('test.overrun')).toMatchObject([{ status: 'queued', attempts: 1, locked_by: null }]);
  });

  it('stop() releases a job whose handler is still running after the grace period', async () => {
    const started = gate();
    const kind: JobKind = {
      name: 'test.stop',
      handle: async (job) => {
        if (job.subjectId === 'subject-0') {
          started.open();
          return new Promise(() => undefined);
        }
        return { status: 'succeeded' };
      },
    };
    await enqueue(kind, 1);
    const engine = startJobEngine(f.services, [kind], { log: quiet, pollMs: 50, stopGraceMs: 100 });
    await started.promise;
    await engine.stop();
    // Released: due again at once, and the interrupted attempt does not count.
    expect(await rows('test.stop')).toMatchObject([{ status: 'queued', attempts: 0, locked_by: null }]);
  });
});

describe('clocks', () => {
  it('runs a mode-clock job when the mode’s clock reaches run_at, with that clock as now', async () => {
    const seen: JobContext['now'][] = [];
    const kind: JobKind = {
      name: 'test.mode_clock',
      clock: 'mode',
      handle: async (_job, ctx) => {
        seen.push(ctx.now);
        return { status: 'succeeded' };
      },
    };
    await enqueue(kind, 1, { owner: f.scope, runAt: new Date(Date.now() + 3600_000) });
    expect(await runDueJobs(f.services, kind)).toEqual([]);
    await db.query('UPDATE marketplace_modes SET clock_offset_ms = 7200000 WHERE marketplace_id = $1 AND mode = $2', [f.scope.marketplaceId, f.scope.mode]);
    try {
      const before = Date.now();
      expect((await runDueJobs(f.services, kind)).map((s) => s.result)).toEqual(['succeeded']);
      expect(seen[0]!.getTime()).toBeGreaterThanOrEqual(before + 7200_000);
    } finally {
      await db.query('UPDATE marketplace_modes SET clock_offset_ms = 0 WHERE marketplace_id = $1 AND mode = $2', [f.scope.marketplaceId, f.scope.mode]);
    }
  });
});

describe('wake-ups', () => {
  // The poll is a minute away: only a wake-up can get these jobs run within seconds.
  const POLL_MS = 60_000;

  it('the in-process signal: a job enqueued in this process is picked up at once (PGlite has no other way)', async () => {
    const handled: number[] = [];
    const kind: JobKind = { name: 'test.signal', handle: async (job) => (handled.push(job.id), { status: 'succeeded' }) };
    const engine = startJobEngine(f.services, [kind], { log: quiet, pollMs: POLL_MS });
    await new Promise((resolve) => setTimeout(resolve, 200)); // its first look found nothing
    await enqueue(kind, 1);
    await waitFor(() => handled.length === 1, 5_000);
    await engine.stop();
  });

  it('a retry this process recorded is run when it is due, not at the next poll', async () => {
    let calls = 0;
    const kind: JobKind = {
      name: 'test.retry_wake',
      backoffMs: () => 200,
      handle: async () => (++calls === 1 ? { status: 'retry', error: 'once' } : { status: 'succeeded' }),
    };
    await enqueue(kind, 1);
    const engine = startJobEngine(f.services, [kind], { log: quiet, pollMs: POLL_MS });
    await waitFor(() => calls === 2, 5_000);
    await waitFor(async () => (await rows('test.retry_wake')).length === 0);
    await engine.stop();
  });

  it.runIf(usingPostgres)('LISTEN/NOTIFY: a job enqueued by another process wakes the worker', async () => {
    const handled: number[] = [];
    const kind: JobKind = { name: 'test.listen', handle: async (job) => (handled.push(job.id), { status: 'succeeded' }) };
    const own = createDb(postgresDriver(f.database.url!, 2));
    const engine = startJobEngine({ ...f.services, db: own }, [kind], { log: quiet, pollMs: POLL_MS });
    await new Promise((resolve) => setTimeout(resolve, 300)); // listening, and its first look found nothing
    // Another process: a plain client, so no in-process signal is involved.
    const other = new pg.Client({ connectionString: f.database.url! });
    await other.connect();
    await other.query('BEGIN');
    await other.query(
      `INSERT INTO jobs (kind, workspace_id, run_at, created_at) VALUES ('test.listen', $1, now() - interval '1 second', now())`,
      [f.workspaceId],
    );
    await other.query(`SELECT pg_notify('background_jobs', 'test.listen')`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handled).toEqual([]); // not before the commit
    await other.query('COMMIT');
    await other.end();
    await waitFor(() => handled.length === 1, 5_000);
    await engine.stop();
    await own.close();
  });
});
