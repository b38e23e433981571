// Seller erasure (contract 5), for listings: every listing of the seller that is not removed yet
// becomes removed with removed_reason seller_erased, loses its expiry timer and emits
// listing.removed. Runs inside the erasure's transaction, which holds the seller row first.
import { emitEvent } from '../../events/emit.js';
import type { ErasureParticipant } from '../erasure.js';
import { cancelExpiryTimer } from './expiry.js';
import { updateListingsOfSellerRemoved } from './queries.js';
import { serializeListing } from './serialize.js';

export const SELLER_ERASED_REASON = 'seller_erased';

export const listingsErasure: ErasureParticipant = {
  name: 'listings',
  async eraseSeller(tx, scope, sellerId, now) {
    const removed = await updateListingsOfSellerRemoved(tx, scope, sellerId, SELLER_ERASED_REASON, now);
    for (const row of removed) {
      await cancelExpiryTimer(tx, scope, row.id);
      await emitEvent(tx, scope, now, 'listing.removed', serializeListing(row));
    }
  },
};
