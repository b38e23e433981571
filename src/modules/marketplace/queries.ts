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
