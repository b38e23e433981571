// Every SQL statement of the reports module: the reports table.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { ReportStatus, ReportType } from './schemas.js';

export interface ReportRow {
  id: string;
  type: ReportType;
  interval_start: Date;
  interval_end: Date;
  seller_id: string | null;
  status: ReportStatus;
  failure: string | null;
  file_key: string | null;
  file_size: number | null;
  row_count: number | null;
  created_at: Date;
  completed_at: Date | null;
}

const COLUMNS = 'id, type, interval_start, interval_end, seller_id, status, failure, file_key, file_size, row_count, created_at, completed_at';

export async function insertReport(tx: Tx, scope: Scope, row: Pick<ReportRow, 'id' | 'type' | 'interval_start' | 'interval_end' | 'seller_id' | 'created_at'>): Promise<void> {
  await tx.query(
    `INSERT INTO reports (marketplace_id, mode, id, type, interval_start, interval_end, seller_id, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8)`,
    [scope.marketplaceId, scope.mode, row.id, row.type, row.interval_start, row.interval_end, row.seller_id, row.created_at],
  );
}

export async function selectReport(q: Queryable, scope: Scope, id: string): Promise<ReportRow | null> {
  const rows = await q.query<ReportRow>(`SELECT ${COLUMNS} FROM reports WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [scope.marketplaceId, scope.mode, id]);
  return rows[0] ?? null;
}

export function selectReports(q: Queryable, scope: Scope, page: PageRequest, filter: { type?: ReportType; status?: ReportStatus }): Promise<ReportRow[]> {
  return selectPage<ReportRow>(q, {
    sql: `SELECT ${COLUMNS} FROM reports WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { type: filter.type, status: filter.status },
    page,
  });
}

export type ReportOutcome = { status: 'succeeded'; fileKey: string; fileSize: number; rowCount: number } | { status: 'failed'; failure: string };

/** Records the outcome of a report in one of `from` (the machine's row); null when it was in none of them. */
export async function updateReportOutcome(
  tx: Tx,
  scope: Scope,
  id: string,
  from: readonly ReportStatus[],
  outcome: ReportOutcome,
  now: Date,
): Promise<ReportRow | null> {
  const rows = await tx.query<ReportRow>(
    `UPDATE reports SET status = $4, failure = $5, file_key = $6, file_size = $7, row_count = $8, completed_at = $9
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 AND status = ANY($10) RETURNING ${COLUMNS}`,
    outcome.status === 'succeeded'
      ? [scope.marketplaceId, scope.mode, id, 'succeeded', null, outcome.fileKey, outcome.fileSize, outcome.rowCount, now, from]
      : [scope.marketplaceId, scope.mode, id, 'failed', outcome.failure, null, null, null, now, from],
  );
  return rows[0] ?? null;
}

/** The mode's reports still pending (reports_status_idx): their number is bounded (MAX_PENDING_REPORTS). */
export async function countPendingReports(q: Queryable, scope: Scope): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM reports WHERE marketplace_id = $1 AND mode = $2 AND status = 'pending'`,
    [scope.marketplaceId, scope.mode],
  );
  return Number(rows[0]!.n);
}
