// Listing operations (interface.md 3.1, 4.5; contract 6). Each owns its transaction, checks the
// rules, moves the state through the one table in status.ts, and emits its events in the same
// transaction. Locks are taken seller → category → listing (see migrations/0003_catalog.sql).
import type { Tx } from '../../db/db.js';
import { emitEvent } from '../../events/emit.js';
import type { Scope } from '../../scope.js';
import { cancelTimer } from '../../workers/timers.js';
import { removeListingsOfSeller } from './queries.js';
import { serializeListing } from './serialize.js';

export const LISTING_EXPIRE_TIMER = 'listing.expire';
export const SELLER_ERASED_REASON = 'seller_erased';

/**
 * Seller erasure (contract 5): every listing of the seller that is not removed yet becomes
 * removed with removed_reason seller_erased, loses its expiry timer and emits listing.removed.
 * Runs inside the erasure's transaction, which holds the seller row first.
 */
export async function removeListingsOfErasedSeller(tx: Tx, scope: Scope, sellerId: string, now: Date): Promise<void> {
  const removed = await removeListingsOfSeller(tx, scope, sellerId, SELLER_ERASED_REASON, now);
  for (const row of removed) {
    await cancelTimer(tx, scope, LISTING_EXPIRE_TIMER, row.id);
    await emitEvent(tx, scope, now, 'listing.removed', serializeListing(row));
  }
}
