// The checkout's status follows its orders: an event subscriber (declared in module.ts) that runs
// in the transaction of each order event. Once no order of a checkout awaits payment any more, the
// checkout is `expired` when every order expired, `cancelled` when every order ended unpaid or
// cancelled, and `completed` otherwise (some order was paid); a completed checkout is `cancelled`
// once every order of it is cancelled (or expired). Each emits its checkout.* event once, by the
// table's row (status.ts). The orders of a checkout share one deadline and one payment, so they
// normally end alike; the mixed case is a payment reported between two of their expiry timers (the
// expired order's share is refunded; the others are paid): the checkout is then `completed`, never
// left awaiting. Other events cost nothing: the type and the order's checkout are looked at before
// any statement.
import type { Tx } from '../../db/db.js';
import { emitMove, rowOf } from '../../domain/state-machine.js';
import type { EventRecord, EventSubscriber, EventType } from '../../contracts/events.js';
import type { Scope } from '../../scope.js';
import { findCheckoutOrderStates } from '../orders/index.js';
import { lockCheckout, updateCheckoutStatus } from './queries.js';
import { serializeCheckout } from './serialize.js';
import { CHECKOUT_MACHINE, type CheckoutOperation } from './status.js';

const FOLLOWED: ReadonlySet<EventType> = new Set(['order.committed', 'order.expired', 'order.cancelled']);

/** What the orders' states make of the checkout, or null while one still awaits payment. */
export function checkoutOperationOf(states: readonly string[]): CheckoutOperation | null {
  if (states.some((state) => state === 'awaiting_payment')) return null;
  if (states.every((state) => state === 'expired')) return 'expire';
  if (states.every((state) => state === 'expired' || state === 'cancelled')) return 'cancel';
  // Any other state is one an order reaches only once paid (committed or further).
  return 'complete';
}

async function followOrders(tx: Tx, scope: Scope, event: EventRecord): Promise<void> {
  if (!FOLLOWED.has(event.type)) return;
  const order = event.data.object as { checkout?: unknown; payment?: unknown };
  if (typeof order.checkout !== 'string') return;
  // An order committed with no payment was made committed (payments off), in its checkout's own
  // creation, which writes the checkout completed: nothing to follow.
  if (event.type === 'order.committed' && order.payment === null) return;
  // Locked before its orders' states are read: two of its orders moving at once (two
  // transactions) take turns here, so the second reads the first's state and neither misses the
  // last move, nor emits it twice.
  const checkout = await lockCheckout(tx, scope, order.checkout);
  if (!checkout) return;
  const operation = checkoutOperationOf(await findCheckoutOrderStates(tx, scope, checkout.id));
  const row = operation && rowOf(CHECKOUT_MACHINE, checkout.status, operation);
  if (!row) return;
  const now = new Date(event.created);
  const moved = await updateCheckoutStatus(tx, scope, checkout.id, row.to, now);
  await emitMove(tx, scope, now, row, serializeCheckout(moved, null));
}

export const checkoutFollowsOrders: EventSubscriber = followOrders;
