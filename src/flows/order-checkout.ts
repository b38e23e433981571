// What an order's move means for its checkout, the same for every flow that moves an order (paid
// by the processor, expired by its window's timer, cancelled by a party, the platform or a
// dispute's decision): the checkout's status follows its orders (checkouts' followOrders). Only a
// move that can end a checkout's waiting, or its life, is followed; an order made alone has no
// checkout, and one made committed (payments off) is in its checkout's own creation.
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import { followOrders } from '../modules/checkouts/index.js';
import type { Order } from '../modules/orders/index.js';

/** In the move's transaction, right after the order's event (before its payment follows). */
export async function checkoutFollowsOrder(tx: Tx, scope: Scope, order: Order, to: string, now: Date): Promise<void> {
  if (order.checkout === null) return;
  if (to !== 'committed' && to !== 'expired' && to !== 'cancelled') return;
  await followOrders(tx, scope, order.checkout, now);
}
