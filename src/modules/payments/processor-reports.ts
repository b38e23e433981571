// What a processor reports on its own (Stripe's webhooks, the simulated processor's test helpers),
// handled so that order does not matter: the same report twice, a late success after a refund, a
// failure after a success all end in the same state, because each handler looks at where the
// payment, refund or release is now and moves only forward (docs/payments.md). This is the
// payments' side of a report; what it means for orders (those it paid) is answered to the flow
// that settles it (src/flows/settle-processor-report.ts), which commits them.
import type { Tx } from '../../db/db.js';
import { emitEvent } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import type { Scope } from '../../scope.js';
import { requireOrder } from '../orders/index.js';
import type { ProcessorReport } from '../../contracts/processor.js';
import { findSellerIdByProcessorAccount, payoutsEnabledBy, requireSeller, setSellerPayouts } from '../sellers/index.js';
import type { CallKick } from './call-queue.js';
import { cardDisputeOpen, holdShareReleases, isCharge, recordChargeFailed, recordChargePaid, recordProcessorRefundOnCharge, resumeShareReleases } from './checkout-charge.js';
import { emitCardDisputeMove } from './card-dispute-machine.js';
import { syncCardDisputeLedger } from './ledger-sync.js';
import * as moves from './moves.js';
import * as queries from './queries.js';
import { retryFailedReleases } from './release-retries.js';
import { serializeCardDispute } from './serialize.js';

export interface ReportSource {
  provider: 'stripe' | 'simulated';
  /** The processor's event id: a second delivery of one event is recognised and ignored. */
  eventId: string;
}

/** Records a processor event's id; false when it was received before (its reports are then ignored). */
export function recordEventReceipt(tx: Tx, scope: Scope, source: ReportSource, now: Date): Promise<boolean> {
  return queries.insertEventReceipt(tx, scope, source.provider, source.eventId, now);
}

/** What a report recorded means for the orders (the flow settling it acts on this). */
export interface ReportMeaning {
  /** The orders the report paid, in item order: to be committed, each by its payment. */
  paidOrders: readonly string[];
  /**
   * A refund made in the processor's dashboard on a payment not recorded as succeeded: the refund
   * proved the payment (recorded, its orders in paidOrders); the refund itself is recorded once
   * those orders are committed (recordRefundAfterProof), by the payment's id.
   */
  refundAfterProof: string | null;
}

const NOTHING_PAID: ReportMeaning = { paidOrders: [], refundAfterProof: null };

/** One report, in the caller's transaction: the payments' side recorded, and what it means for orders. */
export async function recordProcessorReport(tx: Tx, scope: Scope, report: ProcessorReport, now: Date, kick: CallKick): Promise<ReportMeaning> {
  switch (report.type) {
    case 'payment_succeeded':
      return { paidOrders: await paymentSucceeded(tx, scope, report, now, kick), refundAfterProof: null };
    case 'payment_failed': {
      const payment = await lockPaymentOf(tx, scope, report);
      if (payment) await moves.recordPaymentFailed(tx, scope, payment, report.message, now);
      if (payment && isCharge(payment)) await recordChargeFailed(tx, scope, payment, report.message, now);
      return NOTHING_PAID;
    }
    case 'refund_updated':
      return refundUpdated(tx, scope, report, now, kick);
    case 'account_updated': {
      const sellerId = await findSellerIdByProcessorAccount(tx, scope, report.account);
      if (!sellerId) return NOTHING_PAID;
      const seller = await requireSeller(tx, scope, sellerId);
      const status = report.payoutsEnabled ? 'enabled' : report.restricted ? 'restricted' : 'pending';
      const after = await setSellerPayouts(tx, scope, seller, status, report.account, now);
      // Payouts just enabled: the seller's failed releases are retried; their transfers are made now.
      if (payoutsEnabledBy(seller, after)) await retryFailedReleases(tx, scope, sellerId, now);
      if (status === 'enabled') for (const id of await queries.selectSellerPaymentIdsReleasing(tx, scope, sellerId)) kick(tx, id);
      return NOTHING_PAID;
    }
    case 'transfer_failed': {
      const id = await queries.selectPaymentIdByProcessorRef(tx, scope, 'processor_transfer', report.transfer);
      const payment = id ? await queries.lockPayment(tx, scope, id) : null;
      if (payment) await moves.recordReleaseFailed(tx, scope, payment, report.message, now);
      return NOTHING_PAID;
    }
    case 'reversal_failed': {
      const refundId = report.refundId ?? (await queries.selectRefundIdByReversal(tx, scope, report.reversal));
      const refund = refundId ? await queries.selectRefund(tx, scope, refundId) : null;
      const payment = refund ? await queries.lockPayment(tx, scope, refund.payment_id) : null;
      const locked = payment && refund ? await queries.lockRefund(tx, scope, refund.id) : null;
      if (payment && locked && locked.status === 'pending') {
        await moves.recordRefundFailed(tx, scope, payment, locked, { status: 'failed', failureReason: `The transfer reversal failed: ${report.message}`, reversalMade: false, processorRefund: null }, now);
      }
      return NOTHING_PAID;
    }
    case 'card_dispute':
      await cardDispute(tx, scope, report, now, kick);
      return NOTHING_PAID;
  }
}

type PaymentRefs = { paymentId?: string | null; paymentIntent?: string | null; checkoutSession?: string | null; charge?: string | null };

/**
 * The payment a report is about, locked after its order (the lock order of every order move, so a
 * report and a timer moving the same order cannot deadlock): by our id when the processor echoes
 * it, else by the processor's ids.
 */
async function lockPaymentOf(tx: Tx, scope: Scope, refs: PaymentRefs): Promise<queries.PaymentRow | null> {
  let id = refs.paymentId ?? null;
  if (id !== null && !(await queries.selectPayment(tx, scope, id))) id = null;
  const lookups: Array<[queries.ProcessorRef, string | null | undefined]> = [
    ['processor_payment_intent', refs.paymentIntent],
    ['processor_checkout_session', refs.checkoutSession],
    ['processor_charge', refs.charge],
  ];
  for (const [column, value] of lookups) {
    if (id === null && value) id = await queries.selectPaymentIdByProcessorRef(tx, scope, column, value);
  }
  return id === null ? null : lockOrderThenPayment(tx, scope, await paymentTheProcessorTook(tx, scope, id));
}

/** The processor took a checkout's charge, never its shares: a report naming a share is about its charge. */
export async function paymentTheProcessorTook(tx: Tx, scope: Scope, id: string): Promise<string> {
  const found = await queries.selectPayment(tx, scope, id);
  return found?.charge_payment_id ?? id;
}

/**
 * Locks the payment after its order; a checkout's charge after every order of its shares, in item
 * order (then the charge, then its shares: the order every mover of a checkout's money keeps).
 */
export async function lockOrderThenPayment(tx: Tx, scope: Scope, paymentId: string): Promise<queries.PaymentRow | null> {
  const found = await queries.selectPayment(tx, scope, paymentId);
  if (!found) return null;
  if (found.order_id !== null) {
    await requireOrder(tx, scope, found.order_id);
  } else {
    for (const orderId of await queries.selectShareOrderIds(tx, scope, found.id)) await requireOrder(tx, scope, orderId);
  }
  return queries.lockPayment(tx, scope, paymentId);
}

/** The orders a success report paid (none when it changes nothing), in item order. */
async function paymentSucceeded(
  tx: Tx,
  scope: Scope,
  report: Extract<ProcessorReport, { type: 'payment_succeeded' }>,
  now: Date,
  kick: CallKick,
): Promise<string[]> {
  const payment = await lockPaymentOf(tx, scope, report);
  if (!payment) return [];
  if (!moves.amountAgrees(payment, report)) {
    const after = await moves.recordAmountMismatch(tx, scope, payment, report, now);
    if (isCharge(payment) && payment.status === 'awaiting_payment') await recordChargeFailed(tx, scope, payment, after.last_failure ?? '', now);
    return [];
  }
  // A report that names no amount (a refund taken as proof of payment) does not overrule a recorded mismatch.
  if (report.amount === null && payment.amount_mismatch !== null && payment.status !== 'succeeded') return [];
  // A checkout's charge pays every order of the checkout, in item order (each share followed the charge).
  if (isCharge(payment)) return recordChargePaid(tx, scope, payment, report, now, kick);
  const { commitOrder } = await moves.recordPaid(tx, scope, payment, report, now, kick);
  return commitOrder && payment.order_id !== null ? [payment.order_id] : [];
}

async function refundUpdated(
  tx: Tx,
  scope: Scope,
  report: Extract<ProcessorReport, { type: 'refund_updated' }>,
  now: Date,
  kick: CallKick,
): Promise<ReportMeaning> {
  let refundIds = report.refundId !== null && (await queries.selectRefund(tx, scope, report.refundId)) ? [report.refundId] : [];
  if (refundIds.length === 0) refundIds = await queries.selectRefundIdsByProcessorRefund(tx, scope, report.refund);
  if (refundIds.length === 0) {
    // Made in the processor's own dashboard: a refund of ours, initiated_by processor, no reversal.
    const payment = await lockPaymentOf(tx, scope, report);
    if (!payment) return NOTHING_PAID;
    if (payment.status !== 'succeeded') {
      // A refund proves the payment: its success report may still be on its way (or lost).
      const success: ProcessorReport = { type: 'payment_succeeded', paymentId: payment.id, paymentIntent: report.paymentIntent, checkoutSession: null, charge: report.charge, amount: null, currency: null };
      return { paidOrders: await paymentSucceeded(tx, scope, success, now, kick), refundAfterProof: payment.id };
    }
    await recordDashboardRefund(tx, scope, report, payment, now, kick);
    return NOTHING_PAID;
  }
  // One refund of ours, or one per share of a checkout's charge (its shares in item order).
  const refunds: queries.RefundRow[] = [];
  for (const id of refundIds) {
    const refund = await queries.selectRefund(tx, scope, id);
    if (refund) refunds.push(refund);
  }
  const ordered = await inShareOrder(tx, scope, refunds);
  for (const refund of ordered) await applyRefundReport(tx, scope, refund, report, now);
  return NOTHING_PAID;
}

/** The dashboard refund of a payment the refund proved paid, once the orders it paid are committed. */
export async function recordRefundAfterProof(tx: Tx, scope: Scope, report: ProcessorReport, paymentId: string, now: Date, kick: CallKick): Promise<void> {
  if (report.type !== 'refund_updated') return;
  const payment = await queries.lockPayment(tx, scope, paymentId);
  if (!payment || payment.status !== 'succeeded') return;
  await recordDashboardRefund(tx, scope, report, payment, now, kick);
}

async function recordDashboardRefund(tx: Tx, scope: Scope, report: Extract<ProcessorReport, { type: 'refund_updated' }>, payment: queries.PaymentRow, now: Date, kick: CallKick): Promise<void> {
  const amount = Math.min(report.amount, payment.amount - payment.amount_refunded);
  if (amount <= 0) return;
  if (isCharge(payment)) {
    // A checkout's charge is refunded through its shares, in item order.
    await recordProcessorRefundOnCharge(tx, scope, payment, { refund: report.refund, amount, status: report.status, failureReason: report.failureReason }, now, kick);
    return;
  }
  await moves.createRefund(
    tx,
    scope,
    payment,
    { amount, reason: null, initiatedBy: 'processor', metadata: {}, processor: { refund: report.refund, status: report.status, failureReason: report.failureReason } },
    now,
    kick,
  );
}

async function inShareOrder(tx: Tx, scope: Scope, refunds: queries.RefundRow[]): Promise<queries.RefundRow[]> {
  if (refunds.length < 2) return refunds;
  const position = new Map<string, number>();
  for (const refund of refunds) position.set(refund.id, (await queries.selectPayment(tx, scope, refund.payment_id))?.share_index ?? 0);
  return [...refunds].sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

async function applyRefundReport(tx: Tx, scope: Scope, refund: queries.RefundRow, report: Extract<ProcessorReport, { type: 'refund_updated' }>, now: Date): Promise<void> {
  const refundId = refund.id;
  const payment = await lockOrderThenPayment(tx, scope, refund.payment_id);
  const locked = payment ? await queries.lockRefund(tx, scope, refundId) : null;
  if (!payment || !locked) return;
  if (report.status === 'succeeded') {
    await moves.recordRefundSucceeded(tx, scope, payment, locked, { processor_refund: locked.processor_refund ?? report.refund, processor_transfer_reversal: locked.processor_transfer_reversal }, now);
  } else if (report.status === 'failed' || report.status === 'canceled') {
    await moves.recordRefundFailed(
      tx,
      scope,
      payment,
      locked,
      { status: report.status, failureReason: report.failureReason, reversalMade: locked.processor_transfer_reversal !== null, processorRefund: report.refund },
      now,
    );
  } else if (locked.processor_refund === null) {
    await queries.updateRefund(tx, scope, locked.id, { processor_refund: report.refund }, now);
  }
}

async function cardDispute(tx: Tx, scope: Scope, report: Extract<ProcessorReport, { type: 'card_dispute' }>, now: Date, kick: CallKick): Promise<void> {
  const existing = await queries.lockCardDisputeByProcessorId(tx, scope, report.dispute);
  const changes = { amount: report.amount, reason: report.reason, status: report.status, evidence_due_by: report.evidenceDueBy };
  if (existing) {
    const same = existing.amount === changes.amount && existing.reason === changes.reason && existing.status === changes.status
      && (existing.evidence_due_by?.getTime() ?? null) === (changes.evidence_due_by?.getTime() ?? null);
    if (same) return;
    const after = await queries.updateCardDispute(tx, scope, existing.id, changes, now);
    await syncCardDisputeLedger(tx, scope, after, now);
    await emitCardDisputeMove(tx, scope, now, existing, after);
    if (cardDisputeOpen(existing.status) && !cardDisputeOpen(after.status)) {
      const charge = await lockOrderThenPayment(tx, scope, existing.payment_id);
      if (charge && isCharge(charge)) await resumeShareReleases(tx, scope, charge, now, kick);
    }
    return;
  }
  const payment = await lockPaymentOf(tx, scope, { paymentIntent: report.paymentIntent, charge: report.charge });
  if (!payment) return;
  const created = await queries.insertCardDispute(tx, scope, {
    id: newId('cardDispute'),
    payment_id: payment.id,
    order_id: payment.order_id,
    ...changes,
    processor_dispute: report.dispute,
    created_at: now,
  });
  await emitEvent(tx, scope, now, 'card_dispute.created', serializeCardDispute(created));
  await syncCardDisputeLedger(tx, scope, created, now);
  // On a checkout's charge: its shares' releases not started yet wait for the dispute to close.
  if (isCharge(payment) && cardDisputeOpen(created.status)) await holdShareReleases(tx, scope, payment, now);
}
