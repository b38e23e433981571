// The checkout's status follows its orders: an event subscriber (declared in module.ts) that runs
// in the transaction of each order event. Once every order of a checkout awaiting payment is paid
// (committed or further) the checkout is `completed`; once every one expired, `expired`; once
// every one is cancelled, `cancelled`; each emitting its checkout.* event once, by the table's row
// (status.ts). Other events cost nothing: the type and the order's checkout are looked at before
// any statement.
import type { Tx } from '../../db/db.js';
import { emitMove, rowOf } from '../../domain/state-machine.js';
import type { EventRecord, EventSubscriber, EventType } from '../../contracts/events.js';
import type { Scope } from '../../scope.js';
import { findCheckoutOrderStates } from '../orders/index.js';
import { lockCheckout, updateCheckoutStatus } from './queries.js';
import { serializeCheckout } from './serialize.js';
import { CHECKOUT_MACHINE, type CheckoutOperation } from './status.js';

const PAID = new Set(['committed', 'claimed', 'disputed', 'completed']);

const FOLLOWS: Partial<Record<EventType, { operation: CheckoutOperation; every: (state: string) => boolean }>> = {
  'order.committed': { operation: 'complete', every: (state) => PAID.has(state) },
  'order.expired': { operation: 'expire', every: (state) => state === 'expired' },
  'order.cancelled': { operation: 'cancel', every: (state) => state === 'cancelled' },
};

async function followOrders(tx: Tx, scope: Scope, event: EventRecord): Promise<void> {
  const follow = FOLLOWS[event.type];
  if (!follow) return;
  const order = event.data.object as { checkout?: unknown; payment?: unknown };
  if (typeof order.checkout !== 'string') return;
  // An order committed with no payment was made committed (payments off), in its checkout's own
  // creation, which writes the checkout completed: nothing to follow.
  if (event.type === 'order.committed' && order.payment === null) return;
  // Locked before its orders' states are read: two of its orders moving at once (two
  // transactions) take turns here, so the second reads the first's state and neither misses the
  // last move, nor emits it twice.
  const checkout = await lockCheckout(tx, scope, order.checkout);
  const row = checkout && rowOf(CHECKOUT_MACHINE, checkout.status, follow.operation);
  if (!checkout || !row) return;
  const states = await findCheckoutOrderStates(tx, scope, checkout.id);
  if (!states.every(follow.every)) return;
  const now = new Date(event.created);
  const moved = await updateCheckoutStatus(tx, scope, checkout.id, row.to, now);
  await emitMove(tx, scope, now, row, serializeCheckout(moved, null));
}

export const checkoutFollowsOrders: EventSubscriber = followOrders;
