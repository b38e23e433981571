// Seller and buyer erasure, for flags: the description of a flag is the reporter's own words, so
// the descriptions of the flags the erased party reported are nulled, in the rows here and,
// through the redaction answered, in the stored events and answers about those flags. The flags
// stay (the reporter's id with them): they are part of the moderation record.
import type { ErasureParticipant } from '../../contracts/erasure.js';
import type { Redaction } from '../../contracts/redaction.js';
import { updateFlagsOfReporterErased } from './queries.js';

export const FLAG_REDACTION: Redaction = { description: null };

export const flagsErasure: ErasureParticipant = {
  name: 'flags',
  async eraseSeller(tx, scope, sellerId) {
    return { objectIds: await updateFlagsOfReporterErased(tx, scope, sellerId), redaction: FLAG_REDACTION };
  },
  async eraseBuyer(tx, scope, buyerId) {
    return { objectIds: await updateFlagsOfReporterErased(tx, scope, buyerId), redaction: FLAG_REDACTION };
  },
};
