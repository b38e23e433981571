// Every SQL statement of the test helpers. Each one names marketplace_id and mode. (The clock's
// advance writes the mode's row: the marketplaces module's advanceModeClock.)
import type { Queryable } from '../../db/db.js';
import type { Scope } from '../../scope.js';

export async function selectAnyTimerDue(q: Queryable, scope: Scope, now: Date): Promise<boolean> {
  const rows = await q.query("SELECT 1 FROM timers WHERE marketplace_id = $1 AND mode = $2 AND status = 'pending' AND run_at <= $3 LIMIT 1", [
    scope.marketplaceId,
    scope.mode,
    now,
  ]);
  return rows.length > 0;
}
