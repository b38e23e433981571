// Settling one report of a processor (a payment succeeded or failed, a refund, a card dispute, a
// seller's payouts, a failed transfer or reversal), in the caller's transaction, in this order:
// 1. payments records it (the payment, refund, release or card dispute moves, with its events) and
//    answers what it means for orders: the orders it paid, in item order;
// 2. orders commits each paid order (the table's `pay` row, by the processor), and right after
//    each, its checkout follows its orders (checkouts: completed once none awaits payment);
// 3. a refund made in the processor's dashboard that proved the payment is recorded last (payments).
// Started by Stripe's webhooks (receive-processor-reports.ts) and, through the root, by the
// simulated processor's test helpers and checkout page.
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import type { Settings } from '../contracts/settings.js';
import type { ProcessorReport, SettleReport } from '../contracts/processor.js';
import { loadSettings } from '../modules/marketplaces/index.js';
import { commitPaidOrder as payOrder, type Order } from '../modules/orders/index.js';
import { recordProcessorReport, recordRefundAfterProof, type CallKick } from '../modules/payments/index.js';
import { checkoutFollowsOrder } from './order-checkout.js';

export const settleProcessorReport: SettleReport = async (tx: Tx, scope: Scope, report: ProcessorReport, now: Date, kick: CallKick) => {
  const meaning = await recordProcessorReport(tx, scope, report, now, kick);
  if (meaning.paidOrders.length > 0) {
    const settings = await loadSettings(tx, scope);
    for (const orderId of meaning.paidOrders) await commitPaidOrder(tx, scope, orderId, settings, now);
  }
  if (meaning.refundAfterProof !== null) await recordRefundAfterProof(tx, scope, report, meaning.refundAfterProof, now, kick);
};

/** An order its payment paid: committed (orders), then its checkout follows it. */
export async function commitPaidOrder(tx: Tx, scope: Scope, orderId: string, settings: Settings, now: Date): Promise<Order> {
  const order = await payOrder(tx, scope, orderId, settings, now);
  await checkoutFollowsOrder(tx, scope, order, 'committed', now);
  return order;
}
