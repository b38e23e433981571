import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createDb, type Db } from '../../src/db/db.js';
import { postgresDriver } from '../../src/db/drivers.js';
import { IDEMPOTENCY_RETENTION_MS } from '../../src/http/idempotency.js';
import type { Services } from '../../src/contracts/wiring.js';
import { createWorkspaceWithOwner } from '../../src/modules/accounts/operations.js';
import { queueEmail } from '../../src/modules/emails/outbox.js';
import { createMarketplace } from '../../src/modules/marketplaces/operations.js';
import { createServices } from '../../src/app/runtime.js';
import type { Scope } from '../../src/scope.js';
import type { BackgroundWork } from '../../src/workers/worker.js';
import type { PeriodicJob } from '../../src/contracts/background.js';
import { runDueTimers, runOneDueTimer, scheduleTimer } from '../../src/workers/timers.js';
import { type TimerHandlers } from '../../src/contracts/background.js';
import { startWorker, type WorkerLog } from '../../src/workers/worker.js';
import { freshDatabase, testConfig, usingPostgres, type TestDatabase } from '../helpers/harness.js';

let database: TestDatabase;
let services: Services;
let scope: Scope;
let workspaceId: string;
const quiet: WorkerLog = { error: () => undefined };

/** Background work of only the given parts (nothing else runs). */
function work(parts: Partial<BackgroundWork>): BackgroundWork {
  return { timers: {}, jobKinds: [], periodic: [], components: [], ...parts };
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > giveUpAt) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function timersLeft(kind: string): Promise<number> {
  const [row] = await services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM timers WHERE kind = $1', [kind]);
  return row?.n ?? 0;
}

beforeAll(async () => {
  database = await freshDatabase();
  services = await createServices(testConfig(), { clock: systemClock, db: database.db });
  const { workspace } = await createWorkspaceWithOwner(services.db, systemClock, {
    email: 'worker@example.com',
    password: 'correct horse battery',
    workspaceName: 'Workers',
  });
  const { marketplace } = await createMarketplace(services.db, systemClock, { workspaceId: workspace.id, name: 'W', currency: 'USD' });
  scope = { marketplaceId: marketplace.id, mode: 'test' };
  workspaceId = workspace.id;
  await services.db.exec('CREATE TABLE test_timer_runs (subject_id text NOT NULL, worker text NOT NULL)');
});
afterAll(async () => {
  await services.rateLimiter.close();
  await database.drop();
});

describe('worker', () => {
  it('runs each due timer exactly once with two workers on one database', async () => {
    // On PostgreSQL the second worker has a pool of its own, as a second process would.
    const second: Db = usingPostgres && database.url ? createDb(postgresDriver(database.url, 5)) : services.db;
    const handlersOf = (worker: string): TimerHandlers => ({
      'test.count': async (tx, _scope, timer) => {
        await tx.query('INSERT INTO test_timer_runs (subject_id, worker) VALUES ($1, $2)', [timer.subjectId, worker]);
        await new Promise((resolve) => setTimeout(resolve, 2));
      },
    });
    const count = 60;
    await services.db.transaction(async (tx) => {
      for (let i = 0; i < count; i++) await scheduleTimer(tx, scope, 'test.count', `subject-${i}`, new Date(Date.now() - 1000));
    });
    const workers = [
      startWorker(services, work({ timers: handlersOf('a') }), { log: quiet, idleMs: 10, timersPerPass: 5 }),
      startWorker({ ...services, db: second }, work({ timers: handlersOf('b') }), { log: quiet, idleMs: 10, timersPerPass: 5 }),
    ];
    await waitFor(async () => (await timersLeft('test.count')) === 0);
    await Promise.all(workers.map((worker) => worker.stop()));
    if (second !== services.db) await second.close();

    const runs = await services.db.query<{ subject_id: string; worker: string }>('SELECT subject_id, worker FROM test_timer_runs');
    expect(runs).toHaveLength(count);
    expect(new Set(runs.map((run) => run.subject_id)).size).toBe(count);
    if (usingPostgres) expect(new Set(runs.map((run) => run.worker))).toEqual(new Set(['a', 'b']));
  });

  it('purges idempotency keys older than 24 hours', async () => {
    const now = Date.now();
    const insert = (key: string, ageMs: number) =>
      services.db.query(
        `INSERT INTO idempotency_keys (marketplace_id, mode, key, fingerprint, response_status, response_body, created_at)
         VALUES ($1, 'test', $2, 'f', 200, '{}', $3)`,
        [scope.marketplaceId, key, new Date(now - ageMs)],
      );
    await insert('expired', IDEMPOTENCY_RETENTION_MS + 60_000);
    await insert('fresh', IDEMPOTENCY_RETENTION_MS - 60_000);
    expect(services.wiring.periodic.map((job) => job.name)).toContain('purge_idempotency_keys');
    const worker = startWorker(services, services.wiring, { log: quiet, idleMs: 10 });
    const keys = async () => (await services.db.query<{ key: string }>('SELECT key FROM idempotency_keys')).map((row) => row.key);
    await waitFor(async () => !(await keys()).includes('expired'));
    await worker.stop();
    expect(await keys()).toEqual(['fresh']);
  });

  it('sends queued emails through SMTP_URL', async () => {
    const received: string[][] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          received.push(session.envelope.rcptTo.map((rcpt) => rcpt.address));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    const mailing = { ...services, config: testConfig({ SMTP_URL: `smtp://127.0.0.1:${port}` }) };
    const email = await services.db.transaction((tx) => queueEmail(tx, workspaceId, ['ops@example.com'], 'Hello', 'Body', new Date()));
    const worker = startWorker(mailing, work({ jobKinds: services.wiring.jobKinds }), { log: quiet, idleMs: 10 });
    const status = async () => (await services.db.query<{ status: string }>('SELECT status FROM emails WHERE id = $1', [email.id]))[0]?.status;
    await waitFor(async () => (await status()) === 'sent');
    await worker.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    expect(received).toEqual([['ops@example.com']]);
  });

  it('runs a job again at once while it reports work, then waits everyMs', async () => {
    const reports = [3, 2, 1, 0, 5];
    let calls = 0;
    const job: PeriodicJob = { name: 'drain', everyMs: 60_000, run: async () => reports[calls++] };
    const worker = startWorker(services, work({ periodic: [job] }), { log: quiet, idleMs: 10 });
    await waitFor(() => calls >= 4);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await worker.stop();
    expect(calls).toBe(4);
  });

  it('logs errors and keeps going: a failing job, and a pass whose database call fails', async () => {
    const logged: Array<{ details: Record<string, unknown>; message: string }> = [];
    const log: WorkerLog = { error: (details, message) => logged.push({ details: details as Record<string, unknown>, message }) };
    let jobCalls = 0;
    const failingJob: PeriodicJob = {
      name: 'flaky',
      everyMs: 10,
      run: async () => {
        jobCalls++;
        throw new Error('job failed');
      },
    };
    let transactions = 0;
    const flakyDb: Db = {
      ...services.db,
      query: (sql, params) => services.db.query(sql, params),
      transaction: (fn) => (++transactions === 1 ? Promise.reject(new Error('connection refused')) : services.db.transaction(fn)),
    };
    const worker = startWorker({ ...services, db: flakyDb }, work({ periodic: [failingJob] }), { log, idleMs: 5 });
    await waitFor(() => transactions >= 3 && jobCalls >= 2);
    await worker.stop();
    expect(logged.find((entry) => entry.message === 'worker pass failed')?.details.err).toMatchObject({ message: 'connection refused' });
    expect(logged.find((entry) => entry.message === 'periodic job failed')?.details).toMatchObject({ job: 'flaky' });
  });

  // The deadlock an audit found: PATCH locks a listing and then moves its expiry timer, while the
  // worker holds that timer row and waits for the listing. The worker must give way, never the request.
  it.runIf(usingPostgres)('gives way to a request that holds the subject and moves its timer: no deadlock, the timer runs later', async () => {
    await services.db.exec('CREATE TABLE test_subjects (id text PRIMARY KEY, touched int NOT NULL DEFAULT 0)');
    const worker: Db = createDb(postgresDriver(database.url!, 2));
    // A third connection, outside both transactions, that watches the worker's backend.
    const watcher: Db = createDb(postgresDriver(database.url!, 1));
    const workerWaitsForSubject = async () =>
      (
        await watcher.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE test_subjects%'`,
        )
      )[0]!.n > 0;
    const handlers: TimerHandlers = {
      'test.locking': async (tx, _scope, timer) => {
        await tx.query('UPDATE test_subjects SET touched = touched + 1 WHERE id = $1', [timer.subjectId]);
      },
    };
    const rounds = 5;
    for (let round = 0; round < rounds; round++) {
      const subject = `subject-${round}`;
      await services.db.query('INSERT INTO test_subjects (id) VALUES ($1)', [subject]);
      await services.db.transaction((tx) => scheduleTimer(tx, scope, 'test.locking', subject, new Date(Date.now() - 1000)));
      let workerRun: Promise<boolean> | undefined;
      // The request: lock the subject, let the worker claim the timer and wait for the subject,
      // then move the timer (which waits for the worker's row lock).
      await services.db.transaction(async (tx) => {
        await tx.query('SELECT id FROM test_subjects WHERE id = $1 FOR UPDATE', [subject]);
        let workerDone = false;
        workerRun = runOneDueTimer({ ...services, db: worker }, handlers, scope).finally(() => {
          workerDone = true;
        });
        // The worker has claimed the timer once it waits for the subject (or has already given way
        // after its lock timeout): a condition, not a delay, so a slow machine cannot reorder it.
        while (!workerDone && !(await workerWaitsForSubject())) await new Promise((resolve) => setTimeout(resolve, 1));
        await scheduleTimer(tx, scope, 'test.locking', subject, new Date(Date.now() - 500));
      });
      expect(await workerRun).toBe(true);
      // The moved timer is still there and runs once the subject is free.
      await services.db.query('UPDATE timers SET run_at = $1 WHERE kind = $2', [new Date(Date.now() - 1000), 'test.locking']);
      expect(await runOneDueTimer({ ...services, db: worker }, handlers, scope)).toBe(true);
      const [row] = await services.db.query<{ touched: number }>('SELECT touched FROM test_subjects WHERE id = $1', [subject]);
      expect(row?.touched).toBe(1);
      expect(await timersLeft('test.locking')).toBe(0);
    }
    await worker.close();
    await watcher.close();
  });

  it("keeps a handler's short lock timeout to the handler: the enclosing transaction gets its own back", async () => {
    const handlers: TimerHandlers = {
      'test.setting': async (tx) => {
        const [row] = await tx.query<{ lock_timeout: string }>('SHOW lock_timeout');
        expect(row?.lock_timeout).toBe('50ms');
      },
    };
    await services.db.transaction((tx) => scheduleTimer(tx, scope, 'test.setting', 'one', new Date(Date.now() - 1000)));
    const after = await services.db.transaction(async (tx) => {
      expect(await runDueTimers(services, handlers, { only: scope })).toBe(1);
      return (await tx.query<{ lock_timeout: string }>('SHOW lock_timeout'))[0]?.lock_timeout;
    });
    expect(after).toBe('0');
    expect(await timersLeft('test.setting')).toBe(0);
  });

  it('stop() waits for the timer under way, which completes', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finished = false;
    const handlers: TimerHandlers = {
      'test.slow': async () => {
        started();
        await new Promise((resolve) => setTimeout(resolve, 200));
        finished = true;
      },
    };
    await services.db.transaction((tx) => scheduleTimer(tx, scope, 'test.slow', 'slow', new Date(Date.now() - 1000)));
    const worker = startWorker(services, work({ timers: handlers }), { log: quiet });
    await running;
    await worker.stop();
    expect(finished).toBe(true);
    expect(await timersLeft('test.slow')).toBe(0);
  });
});
