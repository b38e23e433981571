// Every SQL statement of the test helpers. Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';

/**
 * Moves the mode's clock forward. One UPDATE of the mode's row: it takes the row lock, so
 * concurrent advances add up instead of one overwriting the other.
 */
export async function updateClockOffset(tx: Tx, scope: Scope, addMs: number): Promise<void> {
  await tx.query('UPDATE marketplace_modes SET clock_offset_ms = clock_offset_ms + $3 WHERE marketplace_id = $1 AND mode = $2', [
    scope.marketplaceId,
    scope.mode,
    addMs,
  ]);
}

export async function selectAnyTimerDue(q: Queryable, scope: Scope, now: Date): Promise<boolean> {
  const rows = await q.query("SELECT 1 FROM timers WHERE marketplace_id = $1 AND mode = $2 AND status = 'pending' AND run_at <= $3 LIMIT 1", [
    scope.marketplaceId,
    scope.mode,
    now,
  ]);
  return rows.length > 0;
}
