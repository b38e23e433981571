// Report operations: ask for a report (a pending row and its build job, in one transaction), list
// and read them. The build itself is the report.build job (job.ts), never in a request.
import { DomainError, errors } from '../../errors.js';
import { newId } from '../../ids.js';
import { timeInput } from '../../http/schemas.js';
import { modeNow } from '../../scope.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { enqueueJob } from '../../workers/job-queue.js';
import type { OperationContext } from '../../contracts/context.js';
import { lockModeForBound } from '../marketplaces/index.js';
import { requireSeller } from '../sellers/index.js';
import { REPORT_BUILD_JOB, reportBuildJob, type ReportJobPayload } from './job.js';
import * as queries from './queries.js';
import { MAX_INTERVAL_DAYS, type CreateReportBody, type ListReportsQuery, type Report } from './schemas.js';
import { momentOf, reportObjects } from './serialize.js';

export { REPORT_BUILD_JOB };

const DAY_S = 24 * 60 * 60;

/** The interval in unix seconds: a report's interval is whole seconds (its object answers them so). */
function intervalOf(body: CreateReportBody): { start: number; end: number } {
  const seconds = (field: 'interval_start' | 'interval_end') => {
    const ms = timeInput(body[field]).getTime();
    if (ms % 1000 !== 0) throw errors.invalidRequest(`${field} must be a whole second: a report's interval is counted in seconds.`, field);
    return ms / 1000;
  };
  const start = seconds('interval_start');
  const end = seconds('interval_end');
  if (start < 0) throw errors.invalidRequest('interval_start must be at or after 1970-01-01T00:00:00Z.', 'interval_start');
  return { start, end };
}

function checkBody(body: CreateReportBody): void {
  const { start, end } = intervalOf(body);
  if (end <= start) {
    throw errors.invalidRequest('interval_end must be after interval_start.', 'interval_end');
  }
  if (end - start > MAX_INTERVAL_DAYS * DAY_S) {
    throw errors.invalidRequest(`A report covers at most ${MAX_INTERVAL_DAYS} days: ask for several reports for a longer span.`, 'interval_end');
  }
  if (body.type === 'seller_statement' && body.seller === undefined) {
    throw errors.invalidRequest('A seller_statement is the statement of one seller: seller is required.', 'seller');
  }
  if (body.type !== 'seller_statement' && body.seller !== undefined) {
    throw errors.invalidRequest(`seller is for seller_statement only; a ${body.type} report covers the whole marketplace.`, 'seller');
  }
}

async function readReport(ctx: OperationContext, id: string): Promise<Report> {
  const row = await queries.selectReport(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('report', id);
  const [report] = await reportObjects(ctx.hooks.storage, ctx.scope, [row], await momentOf(ctx.db, ctx.clock, ctx.scope));
  return report!;
}

/** POST /v1/reports: a pending report; the worker builds it (report.succeeded or report.failed). */
export async function createReport(ctx: OperationContext, body: CreateReportBody): Promise<Report> {
  checkBody(body);
  const { scope } = ctx;
  const id = newId('report');
  await ctx.db.transaction(async (tx) => {
    if (body.seller !== undefined) {
      try {
        await requireSeller(tx, scope, body.seller);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'resource_missing') throw errors.missing('seller', body.seller, 'seller');
        throw error;
      }
    }
    // Each report is a job reading up to a year of the ledger: the reports waiting are bounded.
    await lockModeForBound(tx, scope);
    const limit = ctx.config.limits.pendingReports;
    if ((await queries.countPendingReports(tx, scope)) >= limit) {
      throw errors.limitExceeded('Reports waiting to be built per mode', limit, 'MAX_PENDING_REPORTS', 'wait for one to succeed or fail before asking for another');
    }
    const now = await modeNow(tx, ctx.clock, scope);
    await queries.insertReport(tx, scope, {
      id,
      type: body.type,
      interval_start: timeInput(body.interval_start),
      interval_end: timeInput(body.interval_end),
      seller_id: body.seller ?? null,
      created_at: now,
    });
    const payload: ReportJobPayload = { currency: ctx.currency };
    await enqueueJob(tx, reportBuildJob, { owner: scope, runAt: now, subjectId: id, payload });
  });
  return readReport(ctx, id);
}

export function retrieveReport(ctx: OperationContext, id: string): Promise<Report> {
  return readReport(ctx, id);
}

export async function listReports(ctx: OperationContext, query: ListReportsQuery): Promise<ListEnvelope<Report>> {
  const page = pageRequest(query, 'report');
  const rows = await queries.selectReports(ctx.db, ctx.scope, page, { type: query.type, status: query.status });
  const data = await reportObjects(ctx.hooks.storage, ctx.scope, rows, await momentOf(ctx.db, ctx.clock, ctx.scope));
  return toList(data, page.limit);
}
