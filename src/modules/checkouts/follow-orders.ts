// The checkout's status follows its orders: the flows call followOrders after each move of an order
// of a checkout that can end its waiting (committed by its payment, expired, cancelled), in that
// move's transaction, right after the order's event. Once no order of a checkout awaits payment
// any more, the checkout is `expired` when every order expired, `cancelled` when every order ended
// unpaid or cancelled, and `completed` otherwise (some order was paid); a completed checkout is
// `cancelled` once every order of it is cancelled (or expired). Each emits its checkout.* event
// once, by the table's row (status.ts). The orders of a checkout share one deadline and one
// payment, so they normally end alike; the mixed case is a payment reported between two of their
// expiry timers (the expired order's share is refunded; the others are paid): the checkout is then
// `completed`, never left awaiting.
import type { Tx } from '../../db/db.js';
import { emitMove, rowOf } from '../../domain/state-machine.js';
import type { Scope } from '../../scope.js';
import { findCheckoutOrderStates } from '../orders/index.js';
import { lockCheckout, updateCheckoutStatus } from './queries.js';
import { serializeCheckout } from './serialize.js';
import { CHECKOUT_MACHINE, type CheckoutOperation } from './status.js';

/** What the orders' states make of the checkout, or null while one still awaits payment. */
export function checkoutOperationOf(states: readonly string[]): CheckoutOperation | null {
  if (states.some((state) => state === 'awaiting_payment')) return null;
  if (states.every((state) => state === 'expired')) return 'expire';
  if (states.every((state) => state === 'expired' || state === 'cancelled')) return 'cancel';
  // Any other state is one an order reaches only once paid (committed or further).
  return 'complete';
}

/** The checkout moved to what its orders' states make of it, if that is a move of its table. */
export async function followOrders(tx: Tx, scope: Scope, checkoutId: string, now: Date): Promise<void> {
  // Locked before its orders' states are read: two of its orders moving at once (two
  // transactions) take turns here, so the second reads the first's state and neither misses the
  // last move, nor emits it twice.
  const checkout = await lockCheckout(tx, scope, checkoutId);
  if (!checkout) return;
  const operation = checkoutOperationOf(await findCheckoutOrderStates(tx, scope, checkout.id));
  const row = operation && rowOf(CHECKOUT_MACHINE, checkout.status, operation);
  if (!row) return;
  const moved = await updateCheckoutStatus(tx, scope, checkout.id, row.to, now);
  await emitMove(tx, scope, now, row, serializeCheckout(moved, null));
}
