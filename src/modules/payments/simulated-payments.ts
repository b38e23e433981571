// The simulated processor's test helpers (test mode, contract 15), which stand in for what a real
// processor would report (a payment's success or failure, a refund made in its dashboard, a
// chargeback, a seller's payouts status). Each is settled by the same flow as Stripe's webhooks
// (src/flows/settle-processor-report.ts, handed by the root to the routes as `settle`); what the
// processor did is kept in its books (src/adapters/processors/simulated/, through the hooks). Its
// checkout page's side is page-side.ts.
import { DomainError, errors } from '../../errors.js';
import type { Tx } from '../../db/db.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { Deps } from '../../contracts/deps.js';
import type { OperationContext } from '../../contracts/context.js';
import type { ProcessorReport, SettleReport, SimulatedProcessor } from '../../contracts/processor.js';
import { payoutsEnabledBy, requireLiveSeller, setSellerPayouts } from '../sellers/index.js';
import type { Seller } from '../sellers/index.js';
import { kickFor } from './kick.js';
import * as queries from './queries.js';
import { retryFailedReleases } from './release-retries.js';
import { lockOrderThenPayment, paymentTheProcessorTook } from './processor-reports.js';
import type { CardDispute, CardDisputeBody, FailPaymentBody, SucceedPaymentBody, Payment, ProcessorRefundBody, Refund } from './schemas.js';
import { serializeCardDispute, serializePayment, serializeRefund } from './serialize.js';

export const SIMULATED_DECLINE_MESSAGE = 'Your card was declined. (simulated)';

/** Runs reports of the simulated processor on a payment of this mode; 409 unless it was made through it. */
async function report<T>(deps: Deps, settle: SettleReport, scope: Scope, paymentId: string, check: (payment: queries.PaymentRow) => void, reports: (payment: queries.PaymentRow) => ProcessorReport[], answer: (payment: queries.PaymentRow) => Promise<T>): Promise<T> {
  return deps.db.transaction(async (tx) => {
    // The processor took a checkout's charge: a helper naming one of its shares acts on the charge.
    const payment = await lockOrderThenPayment(tx, scope, await paymentTheProcessorTook(tx, scope, paymentId));
    if (!payment) throw errors.missing('payment', paymentId);
    if (payment.provider !== 'simulated') {
      throw new DomainError('invalid_state', `The payment ${paymentId} was made through ${payment.provider}; test helpers act on the simulated processor's payments only.`);
    }
    check(payment);
    const now = await modeNow(tx, deps.clock, scope);
    for (const one of reports(payment)) {
      await settle(tx, scope, one, now, kickFor(deps));
      await keepInBooks(deps.hooks.simulated, tx, scope, one, payment.currency, now);
    }
    return answer((await queries.lockPayment(tx, scope, payment.id))!);
  });
}

/**
 * The simulated processor's own record of what a report says it did (its books, which the
 * reconciliation report compares with the ledger): a charge, a refund made in its dashboard, a
 * card dispute's withdrawal.
 */
async function keepInBooks(books: SimulatedProcessor, tx: Tx, scope: Scope, one: ProcessorReport, currency: string, now: Date): Promise<void> {
  if (one.type === 'payment_succeeded' && one.charge !== null && (one.amount ?? 0) > 0) {
    await books.recordMovement(tx, scope, { reference: one.charge, type: 'charge', amount: one.amount ?? 0, currency: one.currency ?? currency }, now);
  } else if (one.type === 'refund_updated' && one.status === 'succeeded') {
    await books.recordMovement(tx, scope, { reference: one.refund, type: 'refund', amount: one.amount, currency }, now);
  } else if (one.type === 'card_dispute' && one.amount > 0) {
    await books.recordMovement(tx, scope, { reference: one.dispute, type: 'dispute', amount: one.amount, currency }, now);
  }
}

/** The processor's success report: the payment's own amount and currency unless a test names others. */
export const succeeded = (payment: queries.PaymentRow, reported: SucceedPaymentBody = null): ProcessorReport => ({
  type: 'payment_succeeded',
  paymentId: payment.id,
  paymentIntent: payment.processor_payment_intent,
  checkoutSession: payment.processor_checkout_session,
  charge: payment.processor_charge ?? `ch_sim_${payment.id.slice(4)}`,
  amount: reported?.amount ?? payment.amount,
  currency: reported?.currency ?? payment.currency,
});

/** The buyer paid; on a payment canceled with its order, a late payment (refunded in full at once). */
export function succeedPayment(ctx: OperationContext, settle: SettleReport, id: string, body: SucceedPaymentBody = null): Promise<Payment> {
  return report(ctx, settle, ctx.scope, id, (p) => {
    if (p.status === 'succeeded') throw errors.invalidState('payment', p.status, 'succeed again');
  }, (p) => [succeeded(p, body)], async (p) => serializePayment(p));
}

export function failPayment(ctx: OperationContext, settle: SettleReport, id: string, body: FailPaymentBody): Promise<Payment> {
  return report(ctx, settle, ctx.scope, id, (p) => {
    if (p.status !== 'awaiting_payment') throw errors.invalidState('payment', p.status, 'fail');
  }, (p) => [{ type: 'payment_failed', paymentId: p.id, paymentIntent: null, checkoutSession: null, message: body?.message ?? SIMULATED_DECLINE_MESSAGE }], async (p) => serializePayment(p));
}

/** A refund made in the processor's dashboard: initiated_by processor, no transfer reversal. */
export function processorRefund(ctx: OperationContext, settle: SettleReport, id: string, body: ProcessorRefundBody): Promise<Refund> {
  const refund = `re_sim_${newId('refund').slice(4)}`;
  return report(ctx, settle, ctx.scope, id, (p) => {
    if (p.status !== 'succeeded') throw errors.invalidState('payment', p.status, 'be refunded');
    const left = p.amount - p.amount_refunded;
    if (body.amount > left) throw errors.invalidRequest(`amount may be at most ${left}: what is left of the payment after refunds.`, 'amount');
  }, (p) => [{ type: 'refund_updated', paymentIntent: p.processor_payment_intent, charge: p.processor_charge, refund, amount: body.amount, status: 'succeeded', failureReason: null, refundId: null }], async () => {
    // On a checkout's charge, one refund per share it was spread over: the first answers.
    const refundId = await queries.selectRefundIdByProcessorRefund(ctx.db, ctx.scope, refund);
    return serializeRefund((await queries.selectRefund(ctx.db, ctx.scope, refundId!))!);
  });
}

/** A chargeback the processor reports (needs_response, evidence due in 7 days of the mode's clock). */
export function cardDispute(ctx: OperationContext, settle: SettleReport, id: string, body: CardDisputeBody): Promise<CardDispute> {
  const dispute = `dp_sim_${newId('cardDispute').slice(4)}`;
  return report(ctx, settle, ctx.scope, id, (p) => {
    if (p.status !== 'succeeded') throw errors.invalidState('payment', p.status, 'be disputed by the card holder');
    if (body?.amount !== undefined && body.amount > p.amount) throw errors.invalidRequest(`amount may be at most the payment's ${p.amount}.`, 'amount');
  }, (p) => [{
    type: 'card_dispute',
    dispute,
    charge: p.processor_charge,
    paymentIntent: p.processor_payment_intent,
    amount: body?.amount ?? p.amount,
    reason: body?.reason ?? 'fraudulent',
    status: 'needs_response',
    evidenceDueBy: new Date(p.updated_at.getTime() + 7 * 24 * 60 * 60 * 1000),
  }], async () => {
    const row = await queries.selectCardDisputeByProcessorId(ctx.db, ctx.scope, dispute);
    return serializeCardDispute(row!);
  });
}

/** The seller's payouts as if the processor reported them (an account is made up when they have none). */
export async function setSimulatedPayouts(ctx: OperationContext, sellerId: string, status: 'pending' | 'enabled' | 'restricted'): Promise<Seller> {
  return ctx.db.transaction(async (tx) => {
    const seller = await requireLiveSeller(tx, ctx.scope, sellerId, 'have its payouts reported');
    const now = await modeNow(tx, ctx.clock, ctx.scope);
    const after = await setSellerPayouts(tx, ctx.scope, seller, status, seller.processor_account ?? ctx.hooks.simulated.newAccount(), now);
    // Payouts just enabled: the seller's failed releases are retried; their transfers are made now.
    if (payoutsEnabledBy(seller, after)) await retryFailedReleases(tx, ctx.scope, sellerId, now);
    const kick = kickFor(ctx);
    if (status === 'enabled') for (const id of await queries.selectSellerPaymentIdsReleasing(tx, ctx.scope, sellerId)) kick(tx, id);
    return after;
  });
}
