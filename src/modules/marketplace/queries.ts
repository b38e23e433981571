// Every SQL statement of the marketplace module. Each one names marketplace_id and mode.
import type { Queryable } from '../../db/db.js';
import type { Scope } from '../../scope.js';

/** The stored settings of the mode (a partial object: settings added later read with their default). */
export async function selectSettings(q: Queryable, scope: Scope): Promise<unknown> {
  const rows = await q.query<{ settings: unknown }>('SELECT settings FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2', [
    scope.marketplaceId,
    scope.mode,
  ]);
  return rows[0]?.settings ?? {};
}

/** The stored settings and the test clock's offset in one round trip (for hot paths: order creation). */
export async function selectSettingsAndClockOffset(q: Queryable, scope: Scope): Promise<{ settings: unknown; clock_offset_ms: number | string }> {
  const rows = await q.query<{ settings: unknown; clock_offset_ms: number | string }>(
    'SELECT settings, clock_offset_ms FROM marketplace_modes WHERE marketplace_id = $1 AND mode = $2',
    [scope.marketplaceId, scope.mode],
  );
  return rows[0] ?? { settings: {}, clock_offset_ms: 0 };
}
