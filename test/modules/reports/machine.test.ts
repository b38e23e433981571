// The report machine's table (src/modules/reports/machine.ts) is what the build job does: a report
// built moves pending → succeeded with report.succeeded, one whose build throws pending → failed
// with report.failed, and each move the job made is a row of the table, every row taken once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowOf } from '../../../src/domain/state-machine.js';
import { REPORT_MACHINE, type ReportOperation } from '../../../src/modules/reports/machine.js';
import { reportBuildJob } from '../../../src/modules/reports/job.js';
import { runDueJobs } from '../../../src/workers/engine.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { createReport, runReportJobs } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const interval = { interval_start: 1_767_225_600, interval_end: 1_767_312_000 };

async function readBack(id: string): Promise<{ status: string; events: string[] }> {
  const read = await ctx.request(`/v1/reports/${id}`);
  const events = await ctx.db.query<{ type: string }>('SELECT type FROM events WHERE object_id = $1 ORDER BY id', [id]);
  return { status: read.body.status, events: events.map((e) => e.type) };
}

describe('the report machine', () => {
  it('holds the moves the build job makes, and only those', async () => {
    const moves: Array<{ from: string; operation: ReportOperation; to: string; emits: string[] }> = [];

    const built = await createReport(ctx, { type: 'balance_summary', ...interval });
    expect(built.body.status).toBe('pending');
    await runReportJobs(ctx);
    const after = await readBack(built.body.id);
    moves.push({ from: 'pending', operation: 'succeed', to: after.status, emits: after.events });

    const broken = await createReport(ctx, { type: 'balance_summary', ...interval });
    const storage = { ...ctx.services.hooks.storage, store: () => Promise.reject(new Error('the disk is full')) };
    await runDueJobs({ ...ctx.services, hooks: { ...ctx.services.hooks, storage } }, reportBuildJob);
    const failed = await readBack(broken.body.id);
    moves.push({ from: 'pending', operation: 'fail', to: failed.status, emits: failed.events });

    expect(moves).toEqual([
      { from: 'pending', operation: 'succeed', to: 'succeeded', emits: ['report.succeeded'] },
      { from: 'pending', operation: 'fail', to: 'failed', emits: ['report.failed'] },
    ]);
    for (const made of moves) {
      const row = rowOf(REPORT_MACHINE, made.from as 'pending', made.operation);
      expect(row, `${made.from} ${made.operation}`).toMatchObject({ to: made.to, emits: made.emits });
    }
    expect(REPORT_MACHINE.rows.map((row) => [row.from, row.operation, row.to])).toEqual(moves.map((m) => [[m.from], m.operation, m.to]));
  });

  it('has no move out of a finished report: the job records nothing twice', async () => {
    for (const state of ['succeeded', 'failed'] as const) {
      for (const operation of ['succeed', 'fail'] as const) expect(rowOf(REPORT_MACHINE, state, operation)).toBeUndefined();
    }
    const created = await createReport(ctx, { type: 'balance_summary', ...interval });
    await runReportJobs(ctx);
    // The same outcome recorded again (a settle the engine repeated) moves nothing and emits nothing.
    await ctx.db.transaction((tx) =>
      reportBuildJob.onSettled!(tx, { id: 'job_again', kind: reportBuildJob.name, marketplaceId: ctx.marketplaceId, mode: 'test', subjectId: created.body.id, attempt: 1, payload: {} } as never, {
        result: 'failed',
        at: new Date(),
        error: 'again',
      } as never),
    );
    expect(await readBack(created.body.id)).toEqual({ status: 'succeeded', events: ['report.succeeded'] });
  });
});
