// What a processor reports on its own (Stripe's webhooks, the simulated processor's test helpers),
// handled so that order does not matter: the same report twice, a late success after a refund, a
// failure after a success all end in the same state, because each handler looks at where the
// payment, refund or release is now and moves only forward (docs/payments.md).
import type { Tx } from '../../db/db.js';
import { emitEvent } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { Deps } from '../../contracts/deps.js';
import { loadSettings } from '../marketplaces/index.js';
import { commitPaidOrder, requireOrder } from '../orders/index.js';
import type { ProcessorReport } from '../../contracts/processor.js';
import { findSellerIdByProcessorAccount, requireSeller, setSellerPayouts } from '../sellers/index.js';
import type { CallKick } from './call-queue.js';
import { kickFor } from './kick.js';
import { cardDisputeOpen, holdShareReleases, isCharge, recordChargeFailed, recordChargePaid, recordProcessorRefundOnCharge, resumeShareReleases } from './checkout-charge.js';
import { emitCardDisputeMove } from './card-dispute-machine.js';
import { syncCardDisputeLedger } from './ledger-sync.js';
import * as moves from './moves.js';
import * as queries from './queries.js';
import { serializeCardDispute } from './serialize.js';

export interface ReportSource {
  provider: 'stripe' | 'simulated';
  /** The processor's event id: a second delivery of one event is recognised and ignored. */
  eventId: string;
}

/** Handles one processor event's reports in one transaction; 'duplicate' when the event was handled before. */
export async function receiveProcessorReports(deps: Deps, scope: Scope, source: ReportSource, reports: readonly ProcessorReport[]): Promise<'handled' | 'duplicate'> {
  const kick = kickFor(deps);
  return deps.db.transaction(async (tx) => {
    const now = await modeNow(tx, deps.clock, scope);
    if (!(await queries.insertEventReceipt(tx, scope, source.provider, source.eventId, now))) return 'duplicate';
    for (const report of reports) await handleReport(tx, scope, report, now, kick);
    return 'handled';
  });
}

/** One report, in the caller's transaction. */
export async function handleReport(tx: Tx, scope: Scope, report: ProcessorReport, now: Date, kick: CallKick): Promise<void> {
  switch (report.type) {
    case 'payment_succeeded':
      return paymentSucceeded(tx, scope, report, now, kick);
    case 'payment_failed': {
      const payment = await lockPaymentOf(tx, scope, report);
      if (payment) await moves.recordPaymentFailed(tx, scope, payment, report.message, now);
      if (payment && isCharge(payment)) await recordChargeFailed(tx, scope, payment, report.message, now);
      return;
    }
    case 'refund_updated':
      return refundUpdated(tx, scope, report, now, kick);
    case 'account_updated': {
      const sellerId = await findSellerIdByProcessorAccount(tx, scope, report.account);
      if (!sellerId) return;
      const seller = await requireSeller(tx, scope, sellerId);
      const status = report.payoutsEnabled ? 'enabled' : report.restricted ? 'restricted' : 'pending';
      await setSellerPayouts(tx, scope, seller, status, report.account, now);
      // Enabled payouts retry the seller's failed releases (an event subscriber): make those transfers now.
      if (status === 'enabled') for (const id of await queries.selectSellerPaymentIdsReleasing(tx, scope, sellerId)) kick?.(tx, id);
      return;
    }
    case 'transfer_failed': {
      const id = await queries.selectPaymentIdByProcessorRef(tx, scope, 'processor_transfer', report.transfer);
      const payment = id ? await queries.lockPayment(tx, scope, id) : null;
      if (payment) await moves.recordReleaseFailed(tx, scope, payment, report.message, now);
      return;
    }
    case 'reversal_failed': {
      const refundId = report.refundId ?? (await queries.selectRefundIdByReversal(tx, scope, report.reversal));
      const refund = refundId ? await queries.selectRefund(tx, scope, refundId) : null;
      const payment = refund ? await queries.lockPayment(tx, scope, refund.payment_id) : null;
      const locked = payment && refund ? await queries.lockRefund(tx, scope, refund.id) : null;
      if (payment && locked && locked.status === 'pending') {
        await moves.recordRefundFailed(tx, scope, payment, locked, { status: 'failed', failureReason: `The transfer reversal failed: ${report.message}`, reversalMade: false, processorRefund: null }, now);
      }
      return;
    }
    case 'card_dispute':
      return cardDispute(tx, scope, report, now, kick);
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

async function paymentSucceeded(
  tx: Tx,
  scope: Scope,
  report: Extract<ProcessorReport, { type: 'payment_succeeded' }>,
  now: Date,
  kick: CallKick,
): Promise<void> {
  const payment = await lockPaymentOf(tx, scope, report);
  if (!payment) return;
  if (!moves.amountAgrees(payment, report)) {
    const after = await moves.recordAmountMismatch(tx, scope, payment, report, now);
    if (isCharge(payment) && payment.status === 'awaiting_payment') await recordChargeFailed(tx, scope, payment, after.last_failure ?? '', now);
    return;
  }
  // A report that names no amount (a refund taken as proof of payment) does not overrule a recorded mismatch.
  if (report.amount === null && payment.amount_mismatch !== null && payment.status !== 'succeeded') return;
  if (isCharge(payment)) {
    // Every order of the checkout is committed, in item order (each share followed the charge).
    const paidOrders = await recordChargePaid(tx, scope, payment, report, now, kick);
    if (paidOrders.length === 0) return;
    const settings = await loadSettings(tx, scope);
    for (const orderId of paidOrders) await commitPaidOrder(tx, scope, orderId, settings, now);
    return;
  }
  const { commitOrder } = await moves.recordPaid(tx, scope, payment, report, now, kick);
  if (commitOrder && payment.order_id !== null) await commitPaidOrder(tx, scope, payment.order_id, await loadSettings(tx, scope), now);
}

async function refundUpdated(
  tx: Tx,
  scope: Scope,
  report: Extract<ProcessorReport, { type: 'refund_updated' }>,
  now: Date,
  kick: CallKick,
): Promise<void> {
  let refundIds = report.refundId !== null && (await queries.selectRefund(tx, scope, report.refundId)) ? [report.refundId] : [];
  if (refundIds.length === 0) refundIds = await queries.selectRefundIdsByProcessorRefund(tx, scope, report.refund);
  if (refundIds.length === 0) {
    // Made in the processor's own dashboard: a refund of ours, initiated_by processor, no reversal.
    let payment = await lockPaymentOf(tx, scope, report);
    if (!payment) return;
    if (payment.status !== 'succeeded') {
      // A refund proves the payment: its success report may still be on its way (or lost).
      await paymentSucceeded(tx, scope, { type: 'payment_succeeded', paymentId: payment.id, paymentIntent: report.paymentIntent, checkoutSession: null, charge: report.charge, amount: null, currency: null }, now, kick);
      payment = await queries.lockPayment(tx, scope, payment.id);
      if (!payment || payment.status !== 'succeeded') return;
    }
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
    return;
  }
  // One refund of ours, or one per share of a checkout's charge (its shares in item order).
  const refunds: queries.RefundRow[] = [];
  for (const id of refundIds) {
    const refund = await queries.selectRefund(tx, scope, id);
    if (refund) refunds.push(refund);
  }
  const ordered = await inShareOrder(tx, scope, refunds);
  for (const refund of ordered) await applyRefundReport(tx, scope, refund, report, now);
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
