// The marketplaces module's surface for other modules' per-mode bounds (docs/configuration.md,
// "Bounds per tenant"): the mode's row is this module's, so the lock that serializes creates in a
// mode is taken here, not by each module writing its own statement against marketplace_modes.
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { lockModeRow } from './queries.js';

/** In the creating transaction, before counting: two creates in one mode take turns. */
export function lockModeForBound(tx: Tx, scope: Scope): Promise<void> {
  return lockModeRow(tx, scope);
}
