// Every SQL statement of the reports module: the reports table, and the simulated processor's
// records (written through the recorder the payments module hands the simulated driver).
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { BalanceRecord } from '../../contracts/processor.js';
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

/** One record of the simulated processor's books; a retried call's record (same reference) is kept once. */
export async function insertSimulatedRecord(q: Queryable, scope: Scope, record: BalanceRecord): Promise<void> {
  await q.query(
    `INSERT INTO simulated_processor_records (marketplace_id, mode, reference, type, amount, currency, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [scope.marketplaceId, scope.mode, record.reference, record.type, record.amount, record.currency.toLowerCase(), record.created],
  );
}

/** One batch of the simulated records of [from, to), keyset by (created_at, reference). */
export async function selectSimulatedRecords(
  q: Queryable,
  scope: Scope,
  query: { from: Date; to: Date; after: { created: Date; reference: string } | null; limit: number },
): Promise<BalanceRecord[]> {
  const after = query.after;
  const rows = await q.query<{ reference: string; type: BalanceRecord['type']; amount: number; currency: string; created_at: Date }>(
    `SELECT reference, type, amount, currency, created_at FROM simulated_processor_records
      WHERE marketplace_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4
        AND ($5::timestamptz IS NULL OR (created_at, reference) > ($5::timestamptz, $6::text))
      ORDER BY created_at, reference LIMIT $7`,
    [scope.marketplaceId, scope.mode, query.from, query.to, after?.created ?? null, after?.reference ?? null, query.limit],
  );
  return rows.map((row) => ({ reference: row.reference, type: row.type, amount: Number(row.amount), currency: row.currency, created: new Date(row.created_at) }));
}

/** The mode's reports still pending (reports_status_idx): their number is bounded (MAX_PENDING_REPORTS). */
export async function countPendingReports(q: Queryable, scope: Scope): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM reports WHERE marketplace_id = $1 AND mode = $2 AND status = 'pending'`,
    [scope.marketplaceId, scope.mode],
  );
  return Number(rows[0]!.n);
}
