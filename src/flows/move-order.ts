// An order's moves over the API (contract 9): claim, confirm (complete: the seller's share is
// released), cancel, propose / accept / decline a cancellation (an accepted one ends the order:
// its payment is canceled or refunded), dispute (the release is held), and the platform's
// decision of a dispute (complete for the seller, cancel for the buyer; the losing party's
// reputation). Each is one transaction: the orders module moves the order (its row, units,
// transition, events, dispute), its checkout follows it (order-checkout.ts: a cancelled order of a
// checkout), then the payment follows it (order-payment.ts), and after the COMMIT the request
// makes the processor calls the payment asked for.
import type { OperationContext } from '../contracts/context.js';
import { decideDispute, moveOrder, type ActorInput, type DecideDisputeBody, type Dispute, type DisputeOrderBody, type Order, type OrderOperation } from '../modules/orders/index.js';
import { processorCallsAfterCommit } from '../modules/payments/index.js';
import { recordReputationEvent } from '../modules/reputation/index.js';
import { bookingFollowsOrder } from './order-booking.js';
import { checkoutFollowsOrder } from './order-checkout.js';
import { paymentFollowsOrder } from './order-payment.js';

/**
 * One move asked over the API. Refusals in the order of docs/architecture.md: not a party (403
 * actor_not_party), then the state (409 invalid_state, naming it), then the party (403
 * actor_not_permitted); then the rules the table cannot hold (one proposal at a time, the dispute
 * window, a checkout's order awaiting its payment).
 */
export function moveOrderFlow(ctx: OperationContext, id: string, operation: OrderOperation, input: ActorInput, dispute?: DisputeOrderBody): Promise<Order> {
  return ctx.db.transaction(async (tx) => {
    const move = await moveOrder(tx, ctx, id, operation, input, dispute);
    await bookingFollowsOrder(tx, ctx.scope, move);
    await checkoutFollowsOrder(tx, ctx.scope, move.order, move.to, move.now);
    await paymentFollowsOrder(tx, ctx.scope, move, processorCallsAfterCommit(ctx));
    return move.order;
  });
}

/**
 * The platform decides an open dispute: the dispute decided and the order moved (orders), its
 * checkout and its payment following the order, then a dispute_lost reputation event for the party decided against.
 */
export function decideDisputeFlow(ctx: OperationContext, id: string, body: DecideDisputeBody): Promise<Dispute> {
  return ctx.db.transaction(async (tx) => {
    const decided = await decideDispute(tx, ctx, id, body);
    await bookingFollowsOrder(tx, ctx.scope, decided.move);
    await checkoutFollowsOrder(tx, ctx.scope, decided.move.order, decided.move.to, decided.move.now);
    await paymentFollowsOrder(tx, ctx.scope, decided.move, processorCallsAfterCommit(ctx));
    await recordReputationEvent(tx, ctx.scope, { subject: decided.loser, kind: 'dispute_lost', order: decided.move.order.id }, decided.move.now);
    return decided.dispute;
  });
}
