// Seller erasure, for media: the media of the seller's listings (which erasure removes) are
// deleted, and their files by jobs after commit. Runs inside the erasure's transaction.
import type { ErasureParticipant } from '../../contracts/erasure.js';
import { deleteMediaOfSellerRows } from './queries.js';
import { removeMediaRows } from './removal.js';

export const mediaErasure: ErasureParticipant = {
  name: 'media',
  async eraseSeller(tx, scope, sellerId, now) {
    await removeMediaRows(tx, scope, await deleteMediaOfSellerRows(tx, scope, sellerId), now);
  },
};
