// Erasure, for reviews: the text of every review the erased party wrote is removed (body null);
// the rating and the review stay, as reputation outlives erasure. The stored copies of those
// reviews (their events, stored answers) are then redacted by the copy participants.
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import type { ErasureParticipant } from '../../contracts/erasure.js';
import type { Redacted } from '../../contracts/redaction.js';
import { updateReviewsOfAuthorErased } from './queries.js';

export const REVIEW_REDACTION = { body: null } as const;

async function eraseAuthor(tx: Tx, scope: Scope, authorId: string): Promise<Redacted> {
  return { objectIds: await updateReviewsOfAuthorErased(tx, scope, authorId), redaction: REVIEW_REDACTION };
}

export const reviewsErasure: ErasureParticipant = {
  name: 'reviews',
  eraseSeller: (tx, scope, sellerId) => eraseAuthor(tx, scope, sellerId),
  eraseBuyer: (tx, scope, buyerId) => eraseAuthor(tx, scope, buyerId),
};
