// The report.build job kind: builds a pending report's CSV with no transaction open (the ledger
// is read in keyset pages, one short statement each; the processor's records page by page),
// stores it through the storage driver, and records the outcome with its event in one short
// transaction (onSettled). A report is not retried: the first failure is recorded (report.failed,
// with the reason) and a new report can be asked for; a worker that stops mid-way hands the job
// back (released) and it is built again from the start.
import type { Job, JobKind } from '../../contracts/background.js';
import { reportStorageKey } from '../../contracts/storage.js';
import type { Tx } from '../../db/db.js';
import { emitMove, rowOf, rowsOf } from '../../domain/state-machine.js';
import type { Scope } from '../../scope.js';
import { BUILDERS } from './builders/index.js';
import { CsvFile } from './csv.js';
import { REPORT_MACHINE, type ReportOperation } from './machine.js';
import { selectReport, updateReportOutcome, type ReportOutcome } from './queries.js';
import { REPORT_CONTENT_TYPE, serializeReport } from './serialize.js';

export const REPORT_BUILD_JOB = 'report.build';

export interface ReportJobPayload {
  /** The marketplace currency (a balance row's currency when no line names one). */
  currency: string;
}

/** What handle tells onSettled of a built file (the detail of the outcome). */
interface Built {
  key: string;
  size: number;
  rows: number;
  url: string;
  expiresAt: string;
}

const scopeOf = (job: Job): Scope => ({ marketplaceId: job.marketplaceId!, mode: job.mode! });

/** Moves the report by its table's row (the worker is the platform) and emits the row's events. */
async function record(tx: Tx, scope: Scope, id: string, operation: ReportOperation, outcome: ReportOutcome, at: Date, link: { url: string; expiresAt: Date } | null): Promise<void> {
  const [row] = rowsOf(REPORT_MACHINE, operation, 'platform');
  const updated = await updateReportOutcome(tx, scope, id, row!.from, outcome, at);
  if (updated) await emitMove(tx, scope, at, row!, serializeReport(updated, link));
}

export const reportBuildJob: JobKind = {
  name: REPORT_BUILD_JOB,
  clock: 'mode',
  maxAttempts: 1,
  leaseMs: 10 * 60_000,
  concurrency: 2,
  async handle(job, ctx) {
    const scope = scopeOf(job);
    const report = await selectReport(ctx.db, scope, job.subjectId ?? '');
    // A report the table no longer lets succeed (recorded already) is not built again.
    if (!report || rowOf(REPORT_MACHINE, report.status, 'succeed') === undefined) return { status: 'succeeded', detail: 'skipped' };
    const builder = BUILDERS[report.type];
    const csv = await CsvFile.create(builder.header);
    try {
      await builder.build({ ctx, scope, report, currency: (job.payload as ReportJobPayload).currency }, csv);
      const file = await csv.finish();
      const key = reportStorageKey(scope, report.id);
      await ctx.hooks.storage.store(key, file.open(), file.size, REPORT_CONTENT_TYPE);
      const moment = { modeNow: ctx.now, realNow: new Date(ctx.clock.nowMs()) };
      const link = await ctx.hooks.storage.reportLink({ scope, reportId: report.id, key, contentType: REPORT_CONTENT_TYPE, filename: `${report.id}-${report.type}.csv` }, moment);
      const built: Built = { key, size: file.size, rows: csv.rows, url: link.url, expiresAt: link.expiresAt.toISOString() };
      return { status: 'succeeded', detail: JSON.stringify(built) };
    } finally {
      await csv.discard();
    }
  },
  async onSettled(tx, job, settled) {
    const scope = scopeOf(job);
    if (job.subjectId === null || settled.detail === 'skipped') return;
    if (settled.result === 'succeeded' && settled.detail !== undefined) {
      const built = JSON.parse(settled.detail) as Built;
      const outcome: ReportOutcome = { status: 'succeeded', fileKey: built.key, fileSize: built.size, rowCount: built.rows };
      await record(tx, scope, job.subjectId, 'succeed', outcome, settled.at, { url: built.url, expiresAt: new Date(built.expiresAt) });
    } else if (settled.result === 'failed') {
      await record(tx, scope, job.subjectId, 'fail', { status: 'failed', failure: settled.error ?? 'The report could not be built.' }, settled.at, null);
    }
  },
};
