// An order's window timers (contract 9): an unpaid order expires (its checkout share or payment is
// canceled), an unclaimed one expires (its payment refunded), an unconfirmed one completes (the
// seller's share released). Each runs in the timer's claim (src/workers/): the orders module moves
// the order, its checkout follows it (an expired order of a checkout), then the payment follows
// it; the processor calls it asks for are the worker's (no request waits for them).
import type { TimerHandler } from '../contracts/background.js';
import { CLAIM_WINDOW_TIMER, CONFIRM_WINDOW_TIMER, moveOrderByTimer, PAYMENT_WINDOW_TIMER, type OrderTimer } from '../modules/orders/index.js';
import { LEAVE_TO_WORKER } from '../modules/payments/index.js';
import { bookingFollowsOrder } from './order-booking.js';
import { checkoutFollowsOrder } from './order-checkout.js';
import { paymentFollowsOrder } from './order-payment.js';

function orderWindowTimer(kind: OrderTimer): TimerHandler {
  return async (tx, scope, timer, now) => {
    const move = await moveOrderByTimer(tx, scope, timer, now, kind);
    if (!move) return;
    await bookingFollowsOrder(tx, scope, move);
    await checkoutFollowsOrder(tx, scope, move.order, move.to, move.now);
    await paymentFollowsOrder(tx, scope, move, LEAVE_TO_WORKER);
  };
}

export const ORDER_WINDOW_TIMERS = {
  [PAYMENT_WINDOW_TIMER]: orderWindowTimer(PAYMENT_WINDOW_TIMER),
  [CLAIM_WINDOW_TIMER]: orderWindowTimer(CLAIM_WINDOW_TIMER),
  [CONFIRM_WINDOW_TIMER]: orderWindowTimer(CONFIRM_WINDOW_TIMER),
};
