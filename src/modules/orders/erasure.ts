// Seller and buyer erasure, for orders and disputes: every free text the erased party wrote is
// replaced by ERASED_TEXT where it lies: the reason of a cancellation they proposed, the reasons
// of their moves in the transition log, the description of a dispute they opened and the text of
// each evidence item they added. The structure stays (evidence items keep their place, author and
// time; a dispute's reason, one of a closed list, stays). What the other party, the platform or
// the operator wrote stays. The copies (the events and stored answers of those orders and
// disputes, and the delivered bodies of those events) are redacted the same way through the
// redactions answered here, which only touch the erased party's own words.
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import type { ErasureParticipant } from '../../contracts/erasure.js';
import { ERASED_TEXT, Rewrite, type Redacted } from '../../contracts/redaction.js';
import { lockOrdersWithTextOf, updateOrderTextsOfPartyErased } from './queries.js';

type Role = 'buyer' | 'seller';
type Item = Record<string, unknown>;

const isItem = (value: unknown): value is Item => value !== null && typeof value === 'object' && !Array.isArray(value);

/** An order's copies: the cancellation's reason when the erased party, by its role in the order, proposed it. */
export function orderRedaction(role: Role) {
  return {
    cancellation: new Rewrite((cancellation) =>
      isItem(cancellation) && cancellation.proposed_by === role && cancellation.reason !== null ? { ...cancellation, reason: ERASED_TEXT } : cancellation,
    ),
  };
}

/** A dispute's copies: the description when the party opened it, and the text of the party's evidence items. */
export function disputeRedaction(partyId: string) {
  return {
    description: new Rewrite((description, dispute) => (dispute.opened_by === partyId ? ERASED_TEXT : description)),
    evidence: new Rewrite((evidence) =>
      Array.isArray(evidence) ? evidence.map((item: unknown) => (isItem(item) && item.actor === partyId ? { ...item, text: ERASED_TEXT } : item)) : evidence,
    ),
  };
}

async function eraseParty(tx: Tx, scope: Scope, partyId: string, role: Role): Promise<Redacted[]> {
  const orders = await lockOrdersWithTextOf(tx, scope, partyId);
  if (orders.length === 0) return [];
  const orderIds = orders.map((order) => order.id);
  await updateOrderTextsOfPartyErased(tx, scope, orderIds, partyId, ERASED_TEXT);
  const disputeIds = orders.flatMap((order) => (order.dispute_id === null ? [] : [order.dispute_id]));
  return [
    { objectIds: orderIds, redaction: orderRedaction(role) },
    { objectIds: disputeIds, redaction: disputeRedaction(partyId) },
  ];
}

export const ordersErasure: ErasureParticipant = {
  name: 'orders and disputes',
  eraseSeller: (tx, scope, sellerId) => eraseParty(tx, scope, sellerId, 'seller'),
  eraseBuyer: (tx, scope, buyerId) => eraseParty(tx, scope, buyerId, 'buyer'),
};
