// Timers: database-only work due at a time of a mode's clock (listing expiry, order windows, review
// visibility, release delay…). A domain operation schedules one in its own transaction; any number
// of worker processes run them: each due row is claimed with FOR UPDATE SKIP LOCKED and handled in
// the same transaction that deletes it, so a timer runs exactly once (atomic with its changes) and
// a crash just leaves it due. A timer never talks to the network: that is a job (engine.ts).
// Due means run_at <= real now + the mode's test-clock offset, computed in SQL for every mode at once.
// A failing handler is retried with backoff up to its kind's attempt limit; then the timer stays in
// the table, status failed with its last_error, until the subject's timer is set again.
import type { Tx } from '../db/db.js';
import { lockNotAvailable } from '../db/pg-errors.js';
import { newId } from '../ids.js';
import type { Mode, Scope } from '../scope.js';
import type { DueTimer, TimerHandler, TimerHandlers, TimerKind } from '../contracts/background.js';
import type { Deps } from '../contracts/deps.js';

export const TIMER_MAX_ATTEMPTS = 20;
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 60 * 60 * 1000;
const defaultBackoff = (attempt: number) => Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempt - 1));

function timerKind(entry: TimerHandler | TimerKind | undefined): TimerKind | undefined {
  return typeof entry === 'function' ? { handle: entry } : entry;
}

/** Sets (or moves) the one timer of this kind for this subject. */
export async function scheduleTimer(
  tx: Tx,
  scope: Scope,
  kind: string,
  subjectId: string,
  runAt: Date,
  payload: unknown = {},
): Promise<void> {
  await tx.query(
    `INSERT INTO timers (marketplace_id, mode, id, kind, subject_id, run_at, payload, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now())
     ON CONFLICT (marketplace_id, mode, kind, subject_id)
     DO UPDATE SET run_at = EXCLUDED.run_at, payload = EXCLUDED.payload, attempts = 0, last_error = NULL, status = 'pending'`,
    [scope.marketplaceId, scope.mode, newId('timer'), kind, subjectId, runAt, JSON.stringify(payload)],
  );
}

/**
 * scheduleTimer's write as a data-modifying WITH of the caller's statement (`name AS (…)`), so a row
 * and its timer leave as one statement (a new order: src/modules/orders/queries.ts). `refs` are SQL
 * expressions of that statement (its parameters, e.g. `$1`) for the scope, subject and time; the
 * timer's id and kind are appended to `params`, and their numbers follow.
 */
export function scheduleTimerWith(
  name: string,
  refs: { marketplaceId: string; mode: string; subjectId: string; runAt: string },
  kind: string,
  params: unknown[],
): string {
  params.push(newId('timer'), kind);
  const id = `$${params.length - 1}`;
  const kindRef = `$${params.length}`;
  return `${name} AS (
       INSERT INTO timers (marketplace_id, mode, id, kind, subject_id, run_at, payload, created_at)
       VALUES (${refs.marketplaceId}, ${refs.mode}, ${id}, ${kindRef}, ${refs.subjectId}, ${refs.runAt}, '{}', now())
       ON CONFLICT (marketplace_id, mode, kind, subject_id)
       DO UPDATE SET run_at = EXCLUDED.run_at, payload = EXCLUDED.payload, attempts = 0, last_error = NULL, status = 'pending')`;
}

export async function cancelTimer(tx: Tx, scope: Scope, kind: string, subjectId: string): Promise<void> {
  await tx.query('DELETE FROM timers WHERE marketplace_id = $1 AND mode = $2 AND kind = $3 AND subject_id = $4', [
    scope.marketplaceId,
    scope.mode,
    kind,
    subjectId,
  ]);
}

interface TimerRow {
  marketplace_id: string;
  mode: Mode;
  id: string;
  kind: string;
  subject_id: string;
  payload: unknown;
  run_at: Date;
  attempts: number;
  offset_ms: number;
}

// While a handler runs, this transaction holds its timer row. A domain operation locks its subject
// (a listing) and then moves or cancels that subject's timer, so a handler that waited for the
// subject could deadlock with it, and PostgreSQL would break the tie by failing either side: an
// API request among them. So a handler waits for a lock only briefly, far below the server's
// deadlock_timeout (1 s by default): the timer gives way. A worker tries a busy timer again 1 s
// later without counting it as a failure; the test clock's advance keeps it due and tries again
// (see runDueTimers).
const HANDLER_LOCK_TIMEOUT = '50ms';
const BUSY_RETRY_MS = 1_000;

/** Thrown out of the claiming transaction to roll it back, releasing a busy timer's row. */
class TimerBusy extends Error {}

/** What became of a claim: no timer was due, one ran (or failed and was rescheduled), or it was busy. */
type Outcome = 'none' | 'ran' | 'busy';

/**
 * A busy timer (its handler gave way on a lock) is either moved 1 s on (`retry_later`: the worker)
 * or left due, its claim rolled back (`stay_due`: the advance, which tries again at once).
 */
type WhenBusy = 'retry_later' | 'stay_due';

async function claimAndRun(deps: Deps, handlers: TimerHandlers, only: Scope | undefined, whenBusy: WhenBusy): Promise<Outcome> {
  const { db, clock } = deps;
  try {
    return await db.transaction(async (tx): Promise<Outcome> => {
      const realNow = new Date(clock.nowMs());
      const rows = await tx.query<TimerRow>(
        `SELECT t.marketplace_id, t.mode, t.id, t.kind, t.subject_id, t.payload, t.run_at, t.attempts,
                m.clock_offset_ms AS offset_ms
           FROM timers t
           JOIN marketplace_modes m ON m.marketplace_id = t.marketplace_id AND m.mode = t.mode
          WHERE t.status = 'pending' AND t.run_at <= $1::timestamptz + make_interval(secs => m.clock_offset_ms / 1000.0)
            AND ($2::text IS NULL OR (t.marketplace_id = $2 AND t.mode = $3))
          ORDER BY t.run_at
          LIMIT 1
          FOR UPDATE OF t SKIP LOCKED`,
        [realNow, only?.marketplaceId ?? null, only?.mode ?? null],
      );
      const row = rows[0];
      if (!row) return 'none';
      const scope: Scope = { marketplaceId: row.marketplace_id, mode: row.mode };
      // The timer's key (migration 0026): one per kind and subject.
      const key = [row.marketplace_id, row.mode, row.kind, row.subject_id];
      const timer: DueTimer = {
        id: row.id,
        kind: row.kind,
        subjectId: row.subject_id,
        payload: row.payload,
        runAt: row.run_at,
        attempts: row.attempts,
      };
      const now = new Date(realNow.getTime() + Number(row.offset_ms));
      const kind = timerKind(handlers[row.kind]);
      try {
        if (!kind) throw new Error(`no handler for timer kind '${row.kind}'`);
        const handler = kind.handle;
        // A savepoint, so a failing handler's writes are undone but the retry bookkeeping stays.
        // The short lock timeout is set inside it and put back after, so it never outlives the
        // handler, even when a caller runs timers inside a transaction of its own.
        await db.transaction(async (inner) => {
          const [setting] = await inner.query<{ previous: string }>(`SELECT current_setting('lock_timeout') AS previous`);
          await inner.query(`SET LOCAL lock_timeout = '${HANDLER_LOCK_TIMEOUT}'`);
          await handler(inner, scope, timer, now, deps);
          await inner.query(`SELECT set_config('lock_timeout', $1, true)`, [setting?.previous ?? '0']);
        });
        await tx.query('DELETE FROM timers WHERE marketplace_id = $1 AND mode = $2 AND kind = $3 AND subject_id = $4', key);
        return 'ran';
      } catch (error) {
        if (lockNotAvailable(error)) {
          if (whenBusy === 'stay_due') throw new TimerBusy();
          await tx.query('UPDATE timers SET run_at = $5 WHERE marketplace_id = $1 AND mode = $2 AND kind = $3 AND subject_id = $4', [
            ...key,
            new Date(now.getTime() + BUSY_RETRY_MS),
          ]);
          return 'busy';
        }
        const attempt = row.attempts + 1;
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
        if (attempt >= (kind?.maxAttempts ?? TIMER_MAX_ATTEMPTS)) {
          await tx.query(
            `UPDATE timers SET attempts = $5, last_error = $6, status = 'failed' WHERE marketplace_id = $1 AND mode = $2 AND kind = $3 AND subject_id = $4`,
            [...key, attempt, message],
          );
          return 'ran';
        }
        const delay = (kind?.backoffMs ?? defaultBackoff)(attempt);
        await tx.query(
          `UPDATE timers SET attempts = $5, last_error = $6, run_at = $7 WHERE marketplace_id = $1 AND mode = $2 AND kind = $3 AND subject_id = $4`,
          [...key, attempt, message, new Date(now.getTime() + delay)],
        );
        return 'ran';
      }
    });
  } catch (error) {
    if (error instanceof TimerBusy) return 'busy';
    throw error;
  }
}

/**
 * Claims and runs one due timer; false when none is due. Limited to one mode when `only` is given.
 * A failing handler's timer is rescheduled with backoff; a busy one (see above) 1 s on.
 */
export async function runOneDueTimer(deps: Deps, handlers: TimerHandlers, only?: Scope): Promise<boolean> {
  return (await claimAndRun(deps, handlers, only, 'retry_later')) !== 'none';
}

/**
 * Runs due timers until none is left (or `max` ran); returns how many ran. With `whenBusy:
 * 'stay_due'` (the test clock's advance, limited to its mode by `only`) it stops at a busy timer
 * and leaves it due, so the caller can wait and try again.
 */
export async function runDueTimers(
  deps: Deps,
  handlers: TimerHandlers,
  options: { only?: Scope; max?: number; whenBusy?: WhenBusy } = {},
): Promise<number> {
  const max = options.max ?? 1000;
  const whenBusy = options.whenBusy ?? 'retry_later';
  let ran = 0;
  while (ran < max) {
    const outcome = await claimAndRun(deps, handlers, options.only, whenBusy);
    if (outcome === 'none' || (outcome === 'busy' && whenBusy === 'stay_due')) break;
    if (outcome === 'ran') ran++;
  }
  return ran;
}
