// The simulated processor's side of payments (test mode): its checkout page's Pay and Decline
// buttons, and the test helpers of contract 15 that stand in for what a real processor would
// report (a payment's success or failure, a refund made in its dashboard, a chargeback, a
// seller's payouts status). Each goes through the same report handlers as Stripe's webhooks.
import { DomainError, errors } from '../../errors.js';
import type { Tx } from '../../db/db.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { Deps } from '../../contracts/deps.js';
import type { OperationContext, ServiceContext } from '../../contracts/context.js';
import type { ProcessorReport } from '../../contracts/processor.js';
import { newSimulatedAccount, simulatedPageTokenMatches } from '../../adapters/processors/simulated.js';
import { findListingTitles } from '../listings/index.js';
import { findOrderListings } from '../orders/index.js';
import { findSellerNames, requireLiveSeller, setSellerPayouts } from '../sellers/index.js';
import type { Seller } from '../sellers/index.js';
import { recordSimulatedMovement } from '../reports/index.js';
import { kickFor } from './kick.js';
import * as queries from './queries.js';
import type { LineItem } from './queries.js';
import { handleReport, lockOrderThenPayment, paymentTheProcessorTook } from './processor-reports.js';
import type { CardDispute, CardDisputeBody, FailPaymentBody, SucceedPaymentBody, Payment, ProcessorRefundBody, Refund } from './schemas.js';
import { serializeCardDispute, serializePayment, serializeRefund } from './serialize.js';

export const SIMULATED_DECLINE_MESSAGE = 'Your card was declined. (simulated)';

/** Runs reports of the simulated processor on a payment of this mode; 409 unless it was made through it. */
async function report<T>(deps: Deps, scope: Scope, paymentId: string, check: (payment: queries.PaymentRow) => void, reports: (payment: queries.PaymentRow) => ProcessorReport[], answer: (payment: queries.PaymentRow) => Promise<T>): Promise<T> {
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
      await handleReport(tx, scope, one, now, kickFor(deps));
      await keepInBooks(tx, scope, one, payment.currency, now);
    }
    return answer((await queries.lockPayment(tx, scope, payment.id))!);
  });
}

/**
 * The simulated processor's own record of what a report says it did (its books, which the
 * reconciliation report compares with the ledger): a charge, a refund made in its dashboard, a
 * card dispute's withdrawal.
 */
async function keepInBooks(tx: Tx, scope: Scope, one: ProcessorReport, currency: string, now: Date): Promise<void> {
  if (one.type === 'payment_succeeded' && one.charge !== null && (one.amount ?? 0) > 0) {
    await recordSimulatedMovement(tx, scope, { reference: one.charge, type: 'charge', amount: one.amount ?? 0, currency: one.currency ?? currency }, now);
  } else if (one.type === 'refund_updated' && one.status === 'succeeded') {
    await recordSimulatedMovement(tx, scope, { reference: one.refund, type: 'refund', amount: one.amount, currency }, now);
  } else if (one.type === 'card_dispute' && one.amount > 0) {
    await recordSimulatedMovement(tx, scope, { reference: one.dispute, type: 'dispute', amount: one.amount, currency }, now);
  }
}

/** The processor's success report: the payment's own amount and currency unless a test names others. */
const succeeded = (payment: queries.PaymentRow, reported: SucceedPaymentBody = null): ProcessorReport => ({
  type: 'payment_succeeded',
  paymentId: payment.id,
  paymentIntent: payment.processor_payment_intent,
  checkoutSession: payment.processor_checkout_session,
  charge: payment.processor_charge ?? `ch_sim_${payment.id.slice(4)}`,
  amount: reported?.amount ?? payment.amount,
  currency: reported?.currency ?? payment.currency,
});

/** The buyer paid; on a payment canceled with its order, a late payment (refunded in full at once). */
export function succeedPayment(ctx: OperationContext, id: string, body: SucceedPaymentBody = null): Promise<Payment> {
  return report(ctx, ctx.scope, id, (p) => {
    if (p.status === 'succeeded') throw errors.invalidState('payment', p.status, 'succeed again');
  }, (p) => [succeeded(p, body)], async (p) => serializePayment(p));
}

export function failPayment(ctx: OperationContext, id: string, body: FailPaymentBody): Promise<Payment> {
  return report(ctx, ctx.scope, id, (p) => {
    if (p.status !== 'awaiting_payment') throw errors.invalidState('payment', p.status, 'fail');
  }, (p) => [{ type: 'payment_failed', paymentId: p.id, paymentIntent: null, checkoutSession: null, message: body?.message ?? SIMULATED_DECLINE_MESSAGE }], async (p) => serializePayment(p));
}

/** A refund made in the processor's dashboard: initiated_by processor, no transfer reversal. */
export function processorRefund(ctx: OperationContext, id: string, body: ProcessorRefundBody): Promise<Refund> {
  const refund = `re_sim_${newId('refund').slice(4)}`;
  return report(ctx, ctx.scope, id, (p) => {
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
export function cardDispute(ctx: OperationContext, id: string, body: CardDisputeBody): Promise<CardDispute> {
  const dispute = `dp_sim_${newId('cardDispute').slice(4)}`;
  return report(ctx, ctx.scope, id, (p) => {
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
    const after = await setSellerPayouts(tx, ctx.scope, seller, status, seller.processor_account ?? newSimulatedAccount(), now);
    // Enabled payouts retry the seller's failed releases (an event subscriber): make those transfers now.
    const kick = kickFor(ctx);
    if (status === 'enabled') for (const id of await queries.selectSellerPaymentIdsReleasing(tx, ctx.scope, sellerId)) kick?.(tx, id);
    return after;
  });
}

/** What the checkout page names beside each amount: the listing's title and its seller's name. */
export interface PageItem {
  order: string | null;
  listing: string | null;
  title: string | null;
  seller: string | null;
  amount: number;
}

export type CheckoutPage =
  | { kind: 'missing' }
  | { kind: 'open'; payment: Payment; items: readonly PageItem[] }
  | { kind: 'closed'; payment: Payment }
  | { kind: 'redirect'; url: string };

/**
 * The payment behind a page, when `token` is the one its checkout URL carries (the URL this
 * processor handed out and the payment keeps); else null, and the page answers 404.
 */
async function checkoutScope(ctx: ServiceContext, id: string, token: string): Promise<Scope | null> {
  const found = await queries.selectSimulatedCheckout(ctx.db, id);
  if (!found || !simulatedPageTokenMatches('checkout', id, found.checkout_url, token)) return null;
  return { marketplaceId: found.marketplace_id, mode: found.mode };
}

/** A checkout's line items, or the order's one listing, with titles and seller names (two statements). */
async function pageItems(ctx: ServiceContext, scope: Scope, row: queries.PaymentRow): Promise<PageItem[]> {
  const lines: LineItem[] = row.line_items ?? (row.order_id === null ? [] : [{ order: row.order_id, listing: (await findOrderListings(ctx.db, scope, [row.order_id])).get(row.order_id) ?? null, amount: row.amount }]);
  const titles = await findListingTitles(ctx.db, scope, lines.flatMap((line) => (line.listing === null ? [] : [line.listing])));
  const names = await findSellerNames(ctx.db, scope, [...new Set([...titles.values()].map((t) => t.sellerId))]);
  return lines.map((line) => {
    const listing = line.listing === null ? undefined : titles.get(line.listing);
    return { order: line.order, listing: line.listing, title: listing?.title ?? null, seller: listing ? (names.get(listing.sellerId) ?? null) : null, amount: line.amount };
  });
}

export async function viewCheckout(ctx: ServiceContext, id: string, token: string): Promise<CheckoutPage> {
  const scope = await checkoutScope(ctx, id, token);
  const row = scope ? await queries.selectPayment(ctx.db, scope, id) : null;
  if (!scope || !row) return { kind: 'missing' };
  return row.status === 'awaiting_payment' && row.method === 'checkout_session'
    ? { kind: 'open', payment: serializePayment(row), items: await pageItems(ctx, scope, row) }
    : { kind: 'closed', payment: serializePayment(row) };
}

/** The Pay or Decline button; then back to the success or cancel URL, or a closing page. */
export async function submitCheckout(ctx: ServiceContext, id: string, token: string, pay: boolean): Promise<CheckoutPage> {
  const scope = await checkoutScope(ctx, id, token);
  if (!scope) return { kind: 'missing' };
  const row = await ctx.db.transaction(async (tx) => {
    const payment = await lockOrderThenPayment(tx, scope, id);
    if (!payment || payment.status !== 'awaiting_payment') return payment;
    const now = await modeNow(tx, ctx.clock, scope);
    const one: ProcessorReport = pay ? succeeded(payment) : { type: 'payment_failed', paymentId: id, paymentIntent: null, checkoutSession: null, message: SIMULATED_DECLINE_MESSAGE };
    await handleReport(tx, scope, one, now, kickFor(ctx));
    return queries.lockPayment(tx, scope, id);
  });
  if (!row) return { kind: 'missing' };
  const url = pay ? row.success_url : row.cancel_url;
  return url !== null && (!pay || row.status === 'succeeded') ? { kind: 'redirect', url } : { kind: 'closed', payment: serializePayment(row) };
}
