// The SQL of jobs: enqueue (in the caller's transaction), claim a batch under a lease (a short
// transaction of its own), settle an attempt (another short one), and when the next one is due.
// The engine (engine.ts) runs handlers between claim and settle with no transaction open.
import type { Queryable, Tx } from '../db/db.js';
import type { Mode, Scope } from '../scope.js';
import type { Job, JobClock, JobKind, JobOutcome, Settled } from '../contracts/background.js';
import type { Deps as JobDeps } from '../contracts/deps.js';
import type { ResolvedJobKind } from './job-kinds.js';
import { DROP_LEASE, heldBy, takeLease } from './leases.js';
import { notifyJobsOnCommit, wakeUpsOf } from './wake.js';

export interface NewJob {
  /** A marketplace's mode, or a workspace for workspace-level work (which is on real time). */
  owner: Scope | { workspaceId: string };
  /** When it is due, on the kind's clock (a mode-clock kind: a time of the mode's clock, see modeNow). */
  runAt: Date;
  subjectId?: string;
  /** Jobs with the same key count together against the kind's perKeyLimit. */
  concurrencyKey?: string;
  payload?: unknown;
}

/**
 * Adds a job of `kind` in the caller's transaction; workers hear of it when that commits. The row keeps the kind's clock, so the claim
 * and the statistics read its due time the same way.
 */
export async function enqueueJob(tx: Tx, kind: Pick<JobKind, 'name' | 'clock'>, job: NewJob): Promise<number> {
  const scoped = 'marketplaceId' in job.owner ? job.owner : null;
  const clock = kind.clock ?? 'real';
  if (clock === 'mode' && !scoped) throw new Error(`${kind.name}: a mode-clock job needs a marketplace's mode as its owner`);
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO jobs (kind, marketplace_id, mode, workspace_id, subject_id, concurrency_key, payload, clock, run_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now()) RETURNING id`,
    [
      kind.name,
      scoped?.marketplaceId ?? null,
      scoped?.mode ?? null,
      scoped ? null : (job.owner as { workspaceId: string }).workspaceId,
      job.subjectId ?? null,
      job.concurrencyKey ?? null,
      JSON.stringify(job.payload ?? {}),
      clock,
      job.runAt,
    ],
  );
  await notifyJobsOnCommit(tx, wakeUpsOf(tx), kind.name);
  return Number(row!.id);
}

/**
 * Whether a job of `kind` with one of these concurrency keys is under way or due now (on real
 * time): another worker holds it, or is claiming it, or an earlier call of the key holds its slot.
 */
export async function jobsUnderWay(q: Queryable, kind: string, keys: readonly string[]): Promise<boolean> {
  const [row] = await q.query<{ under_way: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM jobs WHERE kind = $1 AND concurrency_key = ANY($2::text[])
                      AND (status = 'running' OR (status = 'queued' AND run_at <= now()))) AS under_way`,
    [kind, keys],
  );
  return row!.under_way;
}

interface JobRow {
  id: number;
  kind: string;
  marketplace_id: string | null;
  mode: Mode | null;
  workspace_id: string | null;
  subject_id: string | null;
  concurrency_key: string | null;
  payload: unknown;
  clock: JobClock;
  run_at: Date;
  attempts: number;
  locked_by: string;
  locked_until: Date;
  offset_ms: number | null;
}

const JOB_COLUMNS = `j.id, j.kind, j.marketplace_id, j.mode, j.workspace_id, j.subject_id, j.concurrency_key, j.payload,
  j.clock, j.run_at, j.attempts`;

function toJob(row: JobRow): Job {
  return {
    id: Number(row.id),
    kind: row.kind,
    marketplaceId: row.marketplace_id,
    mode: row.mode,
    workspaceId: row.workspace_id,
    subjectId: row.subject_id,
    concurrencyKey: row.concurrency_key,
    payload: row.payload,
    clock: row.clock,
    runAt: row.run_at,
    attempt: row.attempts,
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until,
    clockOffsetMs: Number(row.offset_ms ?? 0),
  };
}

// The test-clock offset of a mode-clock row's mode; 0 on real-clock rows.
export const OFFSET_OF_J = `(CASE WHEN j.clock = 'mode' THEN coalesce((SELECT m.clock_offset_ms FROM marketplace_modes m
   WHERE m.marketplace_id = j.marketplace_id AND m.mode = j.mode), 0) ELSE 0 END)`;

// Claims up to $3 jobs of kind $1 due at real time $2: queued rows whose run_at has come on the
// kind's clock, and running rows whose lease ran out (their worker died or overran). With a per-key
// cap ($5), keys already at the cap are passed over, and of the rows scanned ($4 of them, oldest
// first) each key gets only the slots it has left. Every claim takes the lease and counts an attempt.
const CLAIM_SQL = `
WITH busy_keys AS (
  SELECT concurrency_key AS key, count(*)::int AS running
    FROM jobs
   WHERE $5::int IS NOT NULL AND kind = $1 AND status = 'running' AND locked_until > $2
     AND concurrency_key IS NOT NULL
   GROUP BY concurrency_key
),
candidates AS (
  SELECT j.id, j.concurrency_key, j.run_at
    FROM jobs j
   WHERE j.kind = $1
     AND ((j.status = 'queued' AND j.run_at <= $2::timestamptz + make_interval(secs => ${OFFSET_OF_J} / 1000.0))
          OR (j.status = 'running' AND j.locked_until <= $2))
     AND ($5::int IS NULL OR j.concurrency_key IS NULL
          OR j.concurrency_key NOT IN (SELECT key FROM busy_keys WHERE running >= $5::int))
     AND ($8::text[] IS NULL OR j.concurrency_key = ANY($8::text[]))
   ORDER BY j.run_at, j.id
   LIMIT $4
   FOR UPDATE OF j SKIP LOCKED
),
picked AS (
  SELECT ranked.id FROM (
    SELECT c.id, c.run_at, c.concurrency_key,
           row_number() OVER (PARTITION BY c.concurrency_key ORDER BY c.run_at, c.id) AS rank
      FROM candidates c
  ) ranked
  LEFT JOIN busy_keys b ON b.key = ranked.concurrency_key
   WHERE $5::int IS NULL OR ranked.concurrency_key IS NULL OR ranked.rank + coalesce(b.running, 0) <= $5::int
   ORDER BY ranked.run_at, ranked.id
   LIMIT $3
)
UPDATE jobs j
   SET status = 'running', attempts = j.attempts + 1, ${takeLease('$6', '$2', '$7::int')}
  FROM picked
 WHERE j.id = picked.id
RETURNING ${JOB_COLUMNS}, j.locked_by, j.locked_until, ${OFFSET_OF_J} AS offset_ms`;

/** Claim statements of one kind with a per-key cap take turns, so two workers cannot both fill a key's last slot. */
const CLAIM_LOCK = 727_310_002;

export interface ClaimResult {
  jobs: Job[];
  /** Jobs whose lease ran out on their last allowed attempt, now recorded failed. */
  expired: number;
}

/** `onlyKeys` claims only jobs of those concurrency keys (a request running its own payment's calls). */
export async function claimJobs(deps: JobDeps, kind: ResolvedJobKind, workerId: string, limit: number, onlyKeys: readonly string[] | null = null): Promise<ClaimResult> {
  if (limit <= 0) return { jobs: [], expired: 0 };
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    const realNow = new Date(clock.nowMs());
    if (kind.perKeyLimit !== null) await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2::text))', [CLAIM_LOCK, kind.name]);
    const expired = await failExpiredLeases(tx, kind, realNow);
    const scan = kind.perKeyLimit === null ? limit : Math.min(1000, limit * 10);
    const rows = await tx.query<JobRow>(CLAIM_SQL, [
      kind.name,
      realNow,
      limit,
      scan,
      kind.perKeyLimit,
      workerId,
      kind.leaseMs,
      onlyKeys,
    ]);
    const jobs = rows.map(toJob).sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
    return { jobs, expired };
  });
}

const LEASE_EXPIRED = 'lease expired: the worker stopped or the attempt overran its lease';

/** A lease that ran out on the last allowed attempt ends the job: failed, never claimed again. */
async function failExpiredLeases(tx: Tx, kind: ResolvedJobKind, realNow: Date): Promise<number> {
  const rows = await tx.query<JobRow>(
    `UPDATE jobs j SET status = 'failed', last_error = $4, failed_at = $2, ${DROP_LEASE}
      WHERE j.kind = $1 AND j.status = 'running' AND j.locked_until <= $2 AND j.attempts >= $3
      RETURNING ${JOB_COLUMNS}, '' AS locked_by, $2::timestamptz AS locked_until, ${OFFSET_OF_J} AS offset_ms`,
    [kind.name, realNow, kind.maxAttempts, LEASE_EXPIRED],
  );
  for (const row of rows) {
    const job = toJob(row);
    const at = new Date(realNow.getTime() + job.clockOffsetMs);
    await kind.onSettled?.(tx, job, { result: 'failed', error: LEASE_EXPIRED, at });
  }
  return rows.length;
}

/** What the engine does with an attempt when the worker stops before the handler has finished. */
export const RELEASE = 'release';

/**
 * Records an attempt's outcome, if this worker still holds the job's lease (same worker, same
 * attempt): otherwise the lease passed to another worker and the outcome is dropped (`lost`).
 */
export async function settleJob(deps: JobDeps, kind: ResolvedJobKind, job: Job, outcome: JobOutcome | typeof RELEASE): Promise<Settled> {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    const realNow = clock.nowMs();
    const offset = job.clock === 'mode' ? await currentOffset(tx, job) : 0;
    const at = new Date(realNow + offset);
    const fence = [job.id, job.lockedBy, job.attempt];
    const FENCE = `id = $1 AND status = 'running' AND ${heldBy('jobs', '$2')} AND attempts = $3`;
    let settled: Settled;
    let rows: unknown[];
    if (outcome === RELEASE) {
      rows = await tx.query(
        `UPDATE jobs SET status = 'queued', attempts = attempts - 1, ${DROP_LEASE} WHERE ${FENCE} RETURNING id`,
        fence,
      );
      settled = { result: 'released', at };
    } else if (outcome.status === 'succeeded') {
      rows = await tx.query(`DELETE FROM jobs WHERE ${FENCE} RETURNING id`, fence);
      settled = { result: 'succeeded', at, ...(outcome.detail !== undefined ? { detail: outcome.detail } : {}) };
    } else if (outcome.status === 'retry' && job.attempt < kind.maxAttempts) {
      const nextRunAt = new Date(at.getTime() + Math.max(0, outcome.delayMs ?? kind.backoffMs(job.attempt)));
      rows = await tx.query(
        `UPDATE jobs SET status = 'queued', run_at = $4, last_error = $5, ${DROP_LEASE} WHERE ${FENCE} RETURNING id`,
        [...fence, nextRunAt, truncate(outcome.error)],
      );
      settled = { result: 'retrying', error: outcome.error, nextRunAt, at };
    } else {
      rows = await tx.query(
        `UPDATE jobs SET status = 'failed', last_error = $4, failed_at = $5, ${DROP_LEASE} WHERE ${FENCE} RETURNING id`,
        [...fence, truncate(outcome.error), new Date(realNow)],
      );
      settled = { result: 'failed', error: outcome.error, at };
    }
    if (rows.length === 0) return { result: 'lost', at };
    if (settled.result !== 'released') await kind.onSettled?.(tx, job, settled);
    // A key slot is free again: workers of other processes waiting on the cap may claim now.
    if (kind.perKeyLimit !== null && job.concurrencyKey !== null) await notifyJobsOnCommit(tx, deps.background.wakeUps, kind.name);
    return settled;
  });
}

async function currentOffset(tx: Tx, job: Job): Promise<number> {
  if (job.marketplaceId === null) return 0;
  const [row] = await tx.query<{ clock_offset_ms: number }>(
    'SELECT clock_offset_ms FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2',
    [job.marketplaceId, job.mode],
  );
  return Number(row?.clock_offset_ms ?? 0);
}

function truncate(error: string): string {
  return error.slice(0, 1000);
}

/**
 * The real time (ms) at which a job of the kind is next due, or a lease next runs out; null when
 * the kind has nothing queued or running. A time in the past means a job is due but was not
 * claimable (its key at the cap, or held by another claim).
 */
export async function nextDueAtMs(deps: JobDeps, kind: ResolvedJobKind): Promise<number | null> {
  const [row] = await deps.db.query<{ next: Date | null }>(
    `SELECT least(
       (SELECT min(j.run_at - make_interval(secs => ${OFFSET_OF_J} / 1000.0)) FROM jobs j WHERE j.kind = $1 AND j.status = 'queued'),
       (SELECT min(locked_until) FROM jobs WHERE kind = $1 AND status = 'running')
     ) AS next`,
    [kind.name],
  );
  return row?.next ? new Date(row.next).getTime() : null;
}
