// Figures of the background work for GET /metrics, read at scrape time: per job kind and per timer
// kind (named "timer:<kind>"), how many wait, run and failed for good, and how long the oldest due
// one has waited. Kinds with no row are absent. Timers run inside their claim transaction, so no
// other connection sees one in flight: their inFlight is always 0.
import type { Db } from '../db/db.js';
import { OFFSET_OF_J } from './job-queue.js';
import type { WorkStatsRow, WorkStatsSource } from '../contracts/background.js';

export interface WorkStats {
  kind: string;
  /** Waiting: due or not yet due (jobs queued, timers pending). */
  queued: number;
  /** Jobs running under a live lease. */
  inFlight: number;
  /** Recorded permanent failures still in the table. */
  failed: number;
  /** How long the longest-waiting due job or timer has been due (a lease that ran out counts from its end); 0 when none. */
  oldestDueAgeSeconds: number;
}

const TIMER_OFFSET = `coalesce((SELECT m.clock_offset_ms FROM marketplace_modes m
   WHERE m.marketplace_id = t.marketplace_id AND m.mode = t.mode), 0)`;

/** Jobs by kind, timers as timer:<kind>, and what each source reports (src/app/wiring.ts). */
export async function backgroundWorkStats(db: Db, nowMs: number, sources: readonly WorkStatsSource[] = []): Promise<WorkStats[]> {
  const now = new Date(nowMs);
  const jobs = await db.query<WorkStatsRow>(
    `SELECT j.kind,
            count(*) FILTER (WHERE j.status = 'queued')::int AS queued,
            count(*) FILTER (WHERE j.status = 'running' AND j.locked_until > $1)::int AS in_flight,
            count(*) FILTER (WHERE j.status = 'failed')::int AS failed,
            max(CASE
                  WHEN j.status = 'queued' THEN extract(epoch FROM $1::timestamptz + make_interval(secs => ${OFFSET_OF_J} / 1000.0) - j.run_at)
                  WHEN j.status = 'running' THEN extract(epoch FROM $1::timestamptz - j.locked_until)
                END)::float8 AS oldest
       FROM jobs j GROUP BY j.kind`,
    [now],
  );
  const timers = await db.query<WorkStatsRow>(
    `SELECT 'timer:' || t.kind AS kind,
            count(*) FILTER (WHERE t.status = 'pending')::int AS queued,
            0 AS in_flight,
            count(*) FILTER (WHERE t.status = 'failed')::int AS failed,
            max(extract(epoch FROM $1::timestamptz + make_interval(secs => ${TIMER_OFFSET} / 1000.0) - t.run_at))
              FILTER (WHERE t.status = 'pending')::float8 AS oldest
       FROM timers t GROUP BY t.kind`,
    [now],
  );
  const fromSources = (await Promise.all(sources.map((source) => source.stats(db, nowMs)))).flat();
  return [...jobs, ...timers, ...fromSources]
    .map((row) => ({
      kind: row.kind,
      queued: Number(row.queued),
      inFlight: Number(row.in_flight),
      failed: Number(row.failed),
      oldestDueAgeSeconds: Math.max(0, Number(row.oldest ?? 0)),
    }))
    .sort((a, b) => a.kind.localeCompare(b.kind));
}
