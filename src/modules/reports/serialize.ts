// Report rows as API objects; the file's link is made by the storage driver (signed, expiring).
import type { Queryable } from '../../db/db.js';
import type { Clock } from '../../clock.js';
import { clockOffsetMs, type Scope } from '../../scope.js';
import type { Moment, ReportFile, SignedLink, StorageDriver } from '../../contracts/storage.js';
import type { ReportRow } from './queries.js';
import type { Report } from './schemas.js';

export const REPORT_CONTENT_TYPE = 'text/csv; charset=utf-8';

export function reportFile(scope: Scope, row: ReportRow): ReportFile {
  return { scope, reportId: row.id, key: row.file_key!, contentType: REPORT_CONTENT_TYPE, filename: `${row.id}-${row.type}.csv` };
}

export function serializeReport(row: ReportRow, link: SignedLink | null): Report {
  return {
    object: 'report',
    id: row.id,
    type: row.type,
    interval_start: new Date(row.interval_start).toISOString(),
    interval_end: new Date(row.interval_end).toISOString(),
    seller: row.seller_id,
    status: row.status,
    failure: row.failure,
    file:
      link === null || row.status !== 'succeeded'
        ? null
        : { url: link.url, expires_at: link.expiresAt.toISOString(), size: Number(row.file_size), content_type: REPORT_CONTENT_TYPE, rows: Number(row.row_count) },
    created_at: new Date(row.created_at).toISOString(),
    completed_at: row.completed_at === null ? null : new Date(row.completed_at).toISOString(),
  };
}

/** The moment links are signed at: one reading of the clock for both the mode's time and real time. */
export async function momentOf(q: Queryable, clock: Clock, scope: Scope): Promise<Moment> {
  const offsetMs = scope.mode === 'live' ? 0 : await clockOffsetMs(q, scope);
  const realMs = clock.nowMs();
  return { modeNow: new Date(realMs + offsetMs), realNow: new Date(realMs) };
}

/** The API objects of some reports, with links to the succeeded ones' files. */
export async function reportObjects(storage: StorageDriver, scope: Scope, rows: readonly ReportRow[], moment: Moment): Promise<Report[]> {
  return Promise.all(rows.map(async (row) => serializeReport(row, row.status === 'succeeded' ? await storage.reportLink(reportFile(scope, row), moment) : null)));
}
