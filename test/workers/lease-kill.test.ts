// A worker process killed (SIGKILL) while it holds a job's lease, its handler blocked: once the
// lease runs out another worker takes the job over and does it, once. PostgreSQL only: PGlite is
// one process's memory, so there is no second process to kill and no other to take over.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobEngine } from '../../src/workers/engine.js';
import { enqueueJob } from '../../src/workers/job-queue.js';
import { usingPostgres } from '../helpers/harness.js';
import { LEASE_KIND, LEASE_MS, RUNS_TABLE } from './fixtures/lease-kind.js';
import { quiet, waitFor, workerFixture, type WorkerFixture } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let f: WorkerFixture;

describe.runIf(usingPostgres)('a worker killed mid-lease', () => {
  beforeAll(async () => {
    f = await workerFixture();
    await f.services.db.exec(`CREATE TABLE ${RUNS_TABLE} (worker text NOT NULL, phase text NOT NULL, at timestamptz NOT NULL)`);
  });
  afterAll(() => f.close());

  it('leaves its job to another worker once the lease runs out, which does it exactly once', async () => {
    const { db } = f.services;
    const kind = { name: LEASE_KIND, leaseMs: LEASE_MS };
    await db.transaction((tx) => enqueueJob(tx, kind, { owner: { workspaceId: f.workspaceId }, runAt: new Date(Date.now() - 1000) }));

    const child = spawn(process.execPath, ['--import', 'tsx', 'test/workers/fixtures/lease-holder.ts', f.database.url!], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await waitFor(() => output.includes('started') || child.exitCode !== null, 60_000);
    expect(output).toContain('started');

    const [held] = await db.query<{ status: string; locked_by: string; locked_until: Date; attempts: number }>(
      'SELECT status, locked_by, locked_until, attempts FROM jobs WHERE kind = $1',
      [LEASE_KIND],
    );
    expect(held).toMatchObject({ status: 'running', locked_by: 'doomed', attempts: 1 });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const done: Array<{ attempt: number; at: number }> = [];
    const survivor = startJobEngine(
      f.services,
      [
        {
          ...kind,
          async handle(job) {
            done.push({ attempt: job.attempt, at: Date.now() });
            await db.query(`INSERT INTO ${RUNS_TABLE} (worker, phase, at) VALUES ($1, 'done', now())`, [job.lockedBy]);
            return { status: 'succeeded' };
          },
        },
      ],
      { log: quiet, workerId: 'survivor', pollMs: 200 },
    );
    await waitFor(() => done.length > 0, 30_000);
    // Give a duplicate every chance to show up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await survivor.stop();

    expect(done).toHaveLength(1);
    expect(done[0]!.attempt).toBe(2);
    expect(done[0]!.at).toBeGreaterThanOrEqual(held!.locked_until.getTime());
    const runs = await db.query<{ worker: string; phase: string }>(`SELECT worker, phase FROM ${RUNS_TABLE} ORDER BY at`);
    expect(runs).toEqual([
      { worker: 'doomed', phase: 'started' },
      { worker: 'survivor', phase: 'done' },
    ]);
    expect(await db.query('SELECT 1 FROM jobs WHERE kind = $1', [LEASE_KIND])).toEqual([]);
  }, 90_000);
});
