// What an order's move means for its payment, the same for every flow that moves an order (a
// party's or the platform's move, a window's timer, a dispute's decision): an order that ended
// (cancelled, expired) has its payment canceled or refunded, a completed one has the seller's
// share released after the release delay, a disputed one has that release held. With payments
// off an order has no payment and nothing follows. A seller paid on a schedule has the share moved
// to their balance instead of a transfer (docs/payouts.md).
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import type { OrderMove } from '../modules/orders/index.js';
import { holdOrderRelease, releaseOrderPayment, settleEndedOrderPayment, type CallKick } from '../modules/payments/index.js';
import { effectiveSchedule } from '../modules/payouts/index.js';
import { startPayoutRuns } from './pay-out.js';

/**
 * In the move's transaction, after the order's row, events and units. `calls` makes the processor
 * calls this asks for right after the COMMIT in a request; null (a timer) leaves them to the
 * worker, which the enqueue wakes.
 */
export async function paymentFollowsOrder(tx: Tx, scope: Scope, move: OrderMove, calls: CallKick): Promise<void> {
  const { paymentId, to, now } = move;
  if (paymentId === null) return;
  if (to === 'cancelled' || to === 'expired') await settleEndedOrderPayment(tx, scope, paymentId, to === 'expired' ? 'order_expired' : 'order_cancelled', now, calls);
  if (to === 'completed') {
    // A seller paid on a schedule (docs/payouts.md): the share moves to their balance after delay_days, and the mode's payout run starts.
    const { schedule } = await effectiveSchedule(tx, scope, move.order.seller, move.settings);
    const toBalance = schedule.method === 'scheduled' ? { delayDays: schedule.delay_days } : null;
    await releaseOrderPayment(tx, scope, paymentId, move.settings, now, calls, toBalance);
    if (toBalance !== null) await startPayoutRuns(tx, scope, now);
  }
  if (to === 'disputed') await holdOrderRelease(tx, scope, paymentId, now);
}
