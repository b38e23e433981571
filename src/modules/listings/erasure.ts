// Seller erasure, for listings: every listing of the seller that the listing table lets be removed
// becomes removed with removed_reason seller_erased, its timers and events as the remove row says,
// one statement per row. Runs inside the erasure's transaction, which holds the seller row first.
import { applyTimers, emitMove, rowsOf } from '../../domain/state-machine.js';
import type { ErasureParticipant } from '../../contracts/erasure.js';
import { updateListingsOfSellerRemoved } from './queries.js';
import { serializeListing } from './serialize.js';
import { LISTING_MACHINE } from './status.js';

export const SELLER_ERASED_REASON = 'seller_erased';

export const listingsErasure: ErasureParticipant = {
  name: 'listings',
  async eraseSeller(tx, scope, sellerId, now) {
    for (const remove of rowsOf(LISTING_MACHINE, 'remove', 'platform')) {
      const removed = await updateListingsOfSellerRemoved(tx, scope, sellerId, remove.from, remove.to, SELLER_ERASED_REASON, now);
      for (const row of removed) {
        await applyTimers(tx, scope, remove, row.id);
        await emitMove(tx, scope, now, remove, serializeListing(row));
      }
    }
  },
};
