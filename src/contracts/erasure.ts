// Erasure across modules: what every module keeps about a seller or buyer. The party's own module
// erases its record and, in the same transaction, runs every participant (ctx.hooks.erasure, in the
// order src/app/wiring.ts gives them): each first erases what it keeps about the party and names the
// objects whose stored copies must read as erased; then the participants that keep copies (stored
// events, stored answers of idempotent requests) redact the copies of all of them. A module that
// comes to keep personal data declares its participant in its module.ts: the party modules do not
// change, and no module reaches into another's tables.
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import type { Redacted } from './redaction.js';

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

async function run(
  participants: readonly ErasureParticipant[],
  tx: Tx,
  scope: Scope,
  party: Redacted,
  eraseRecords: (participant: ErasureParticipant) => Promise<ErasedObjects> | undefined,
): Promise<void> {
  const redacted: Redacted[] = [party];
  for (const participant of participants) {
    const more = await eraseRecords(participant);
    if (more) redacted.push(...(Array.isArray(more) ? more : [more]));
  }
  for (const participant of participants) await participant.redactCopies?.(tx, scope, redacted);
}

/**
 * Inside the seller erasure's transaction, which holds the seller row: every participant erases
 * what it keeps about the seller; the seller's own copies are redacted with `seller`'s redaction.
 */
export function eraseSellerData(
  participants: readonly ErasureParticipant[],
  tx: Tx,
  scope: Scope,
  sellerId: string,
  now: Date,
  seller: Redacted,
): Promise<void> {
  return run(participants, tx, scope, seller, (participant) => participant.eraseSeller?.(tx, scope, sellerId, now));
}

/** The same for a buyer, inside the buyer erasure's transaction. */
export function eraseBuyerData(
  participants: readonly ErasureParticipant[],
  tx: Tx,
  scope: Scope,
  buyerId: string,
  now: Date,
  buyer: Redacted,
): Promise<void> {
  return run(participants, tx, scope, buyer, (participant) => participant.eraseBuyer?.(tx, scope, buyerId, now));
}
