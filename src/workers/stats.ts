// What background work is waiting, by kind, for GET /metrics. Read from the rows the work lives
// in: timers (by their kind) and the email outbox (kind "email"). The background-work engine
// replaces this file with its own, keeping this signature.
import type { Db } from '../db/db.js';

export interface WorkStats {
  kind: string;
  /** Rows waiting to be done, due or not (in-flight ones included). */
  queued: number;
  /** Rows a worker holds right now. */
  inFlight: number;
  /** Timers: rows whose last attempt failed (they are retried with backoff). Emails: given up. */
  failed: number;
  /** How long the longest-due row has been due, on its mode's clock; 0 when nothing is due. */
  oldestDueAgeSeconds: number;
}

interface StatsRow {
  kind: string;
  queued: number;
  in_flight: number;
  failed: number;
  oldest_due_age: number | string | null;
}

// A row a worker holds is locked FOR UPDATE by a transaction still running: its xmax is that
// transaction's id (row locks appear nowhere else, and taking them to count would stall workers).
// A row being rescheduled by a request counts for that instant too.
const held = (table: string) =>
  `${table}.xmax::text <> '0' AND ${table}.xmax IN (SELECT backend_xid FROM pg_stat_activity WHERE backend_xid IS NOT NULL)`;

// Due on each mode's clock: real now plus the mode's test-clock offset, as the worker computes it.
const TIMERS = `
  SELECT t.kind,
         count(*)::int AS queued,
         count(*) FILTER (WHERE ${held('t')})::int AS in_flight,
         count(*) FILTER (WHERE t.attempts > 0)::int AS failed,
         max(EXTRACT(EPOCH FROM ($1::timestamptz + make_interval(secs => m.clock_offset_ms / 1000.0) - t.run_at)))
           FILTER (WHERE t.run_at <= $1::timestamptz + make_interval(secs => m.clock_offset_ms / 1000.0)) AS oldest_due_age
    FROM timers t
    JOIN marketplace_modes m ON m.marketplace_id = t.marketplace_id AND m.mode = t.mode
   GROUP BY t.kind`;

// Emails are workspace-level: real time only. Queued ones are due from next_attempt_at (a retry)
// or from creation. Without SMTP_URL they stay queued, and their age grows: nothing sends them.
const EMAILS = `
  SELECT 'email' AS kind,
         count(*) FILTER (WHERE status = 'queued')::int AS queued,
         count(*) FILTER (WHERE status = 'queued' AND ${held('emails')})::int AS in_flight,
         count(*) FILTER (WHERE status = 'failed')::int AS failed,
         max(EXTRACT(EPOCH FROM ($1::timestamptz - COALESCE(next_attempt_at, created_at))))
           FILTER (WHERE status = 'queued' AND COALESCE(next_attempt_at, created_at) <= $1::timestamptz) AS oldest_due_age
    FROM emails
   WHERE status IN ('queued', 'failed')`;

/** Background work by kind: every timer kind that has rows, and always "email". */
export async function backgroundWorkStats(db: Db, nowMs: number): Promise<WorkStats[]> {
  const now = new Date(nowMs);
  const rows = [...(await db.query<StatsRow>(TIMERS, [now])), ...(await db.query<StatsRow>(EMAILS, [now]))];
  return rows
    .map((row) => ({
      kind: row.kind,
      queued: row.queued,
      inFlight: row.in_flight,
      failed: row.failed,
      oldestDueAgeSeconds: Math.max(0, Number(row.oldest_due_age ?? 0)),
    }))
    .sort((a, b) => a.kind.localeCompare(b.kind));
}
