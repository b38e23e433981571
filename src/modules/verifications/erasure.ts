// Seller erasure, for verifications: notes, metadata and a rejection reason are free
// text about the seller, cleared in the rows here and, through the redaction answered, in the
// stored events and answers about them.
import type { ErasureParticipant } from '../../contracts/erasure.js';
import type { Redaction } from '../../contracts/redaction.js';
import { updateVerificationsOfSellerErased } from './queries.js';

export const VERIFICATION_REDACTION: Redaction = { notes: null, metadata: {}, reason: null };

export const verificationsErasure: ErasureParticipant = {
  name: 'verifications',
  async eraseSeller(tx, scope, sellerId) {
    const objectIds = await updateVerificationsOfSellerErased(tx, scope, sellerId);
    return { objectIds, redaction: VERIFICATION_REDACTION };
  },
};
