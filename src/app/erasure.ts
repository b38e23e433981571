// Erasure across modules: what every module keeps about a seller or buyer.
// The party's own module erases its record and, in the same transaction, calls eraseSellerData
// or eraseBuyerData here. Each participant first erases what it keeps about the party and names
// the objects whose stored copies must read as erased; then the participants that keep copies
// (stored events, stored answers of idempotent requests) redact the copies of all of them. A
// module that comes to keep personal data adds its participant to the list: the party modules
// do not change, and no module reaches into another's tables.
import type { Tx } from '../db/db.js';
import { storedAnswersErasure } from '../http/stored-answers.js';
import type { Scope } from '../scope.js';
import { storedEventsErasure } from '../modules/events/erasure.js';
import { listingsErasure } from '../modules/listings/erasure.js';
import { mediaErasure } from '../modules/media/erasure.js';
import { flagsErasure } from '../modules/moderation/erasure.js';
import { onboardingErasure } from '../modules/onboarding/erasure.js';
import { ordersErasure } from '../modules/orders/erasure.js';
import type { Redacted } from '../contracts/redaction.js';
import { reviewsErasure } from '../modules/reviews/erasure.js';
import { verificationsErasure } from '../modules/verifications/erasure.js';
import { webhookDeliveriesErasure } from '../modules/webhooks/erasure.js';

/** The objects whose copies must be redacted: one kind, or several kinds each with its own redaction. */
export type ErasedObjects = Redacted | readonly Redacted[] | void;

export interface ErasureParticipant {
  name: string;
  /** Erases what this module keeps about the seller; answers the objects whose copies must be redacted. */
  eraseSeller?(tx: Tx, scope: Scope, sellerId: string, now: Date): Promise<ErasedObjects>;
  /** The same for a buyer. */
  eraseBuyer?(tx: Tx, scope: Scope, buyerId: string, now: Date): Promise<ErasedObjects>;
  /** Rewrites the copies this module keeps of erased objects (their events, their stored answers). */
  redactCopies?(tx: Tx, scope: Scope, redacted: readonly Redacted[]): Promise<void>;
}

/**
 * In order: records first (the seller's onboarding links, verifications, orders, listings), then
 * copies. Orders come before listings and reviews: an order move locks its order, then its listing,
 * and a review locks its order first, so erasure takes the orders' locks before theirs too.
 */
export const erasureParticipants: readonly ErasureParticipant[] = [
  onboardingErasure,
  verificationsErasure,
  ordersErasure,
  listingsErasure,
  reviewsErasure,
  mediaErasure,
  flagsErasure,
  storedEventsErasure,
  storedAnswersErasure,
  webhookDeliveriesErasure,
];

async function run(
  tx: Tx,
  scope: Scope,
  party: Redacted,
  eraseRecords: (participant: ErasureParticipant) => Promise<ErasedObjects> | undefined,
): Promise<void> {
  const redacted: Redacted[] = [party];
  for (const participant of erasureParticipants) {
    const more = await eraseRecords(participant);
    if (more) redacted.push(...(Array.isArray(more) ? more : [more]));
  }
  for (const participant of erasureParticipants) await participant.redactCopies?.(tx, scope, redacted);
}

/**
 * Inside the seller erasure's transaction, which holds the seller row: every participant erases
 * what it keeps about the seller; the seller's own copies are redacted with `seller`'s redaction.
 */
export function eraseSellerData(tx: Tx, scope: Scope, sellerId: string, now: Date, seller: Redacted): Promise<void> {
  return run(tx, scope, seller, (participant) => participant.eraseSeller?.(tx, scope, sellerId, now));
}

/** The same for a buyer, inside the buyer erasure's transaction. */
export function eraseBuyerData(tx: Tx, scope: Scope, buyerId: string, now: Date, buyer: Redacted): Promise<void> {
  return run(tx, scope, buyer, (participant) => participant.eraseBuyer?.(tx, scope, buyerId, now));
}
