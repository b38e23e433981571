// The moves of payments, releases and refunds, each in the caller's transaction on a locked
// payment row (docs/payments.md). Whoever asks for a move (the API, an order's hooks, a processor
// call's outcome, a processor report) comes through here, so the money rules of contract 10 live
// in one place: what a refund takes back, what a release sends, when nothing is left to send.
import type { Tx } from '../../db/db.js';
import { errors } from '../../errors.js';
import { emitEvent, previousAttributes } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import type { Scope } from '../../scope.js';
import { move, type Actor } from '../../domain/state-machine.js';
import { cancelTimer, scheduleTimer } from '../../workers/timers.js';
import { enqueueCall, type CallKick } from './call-queue.js';
import { findOwed, recoverOwed, restoreRecovered } from '../ledger/index.js';
import { loadSettings } from '../marketplaces/index.js';
import { moveShareToAvailable, syncPaymentLedger } from './ledger-sync.js';
import { PAYMENT_MACHINE, REFUND_MACHINE, RELEASE_MACHINE, RELEASE_TIMER, type ReleaseState } from './machines.js';
import { reversalFor, sellerShare } from './money.js';
import * as queries from './queries.js';
import type { PaymentMutable, PaymentRow, RefundInitiator, RefundReason, RefundRow } from './queries.js';
import { serializePayment, serializeRefund } from './serialize.js';

export const releaseState = (row: PaymentRow): ReleaseState => row.release_status ?? 'none';

/**
 * The order and seller of a payment that holds an order's money (an order's own payment or its
 * share of a checkout's charge). A checkout's charge has none: it is never released or refunded
 * itself, its shares are.
 */
export function orderPartOf(row: PaymentRow): { orderId: string; sellerId: string } {
  if (row.order_id === null || row.seller_id === null) throw new Error(`payment ${row.id} is a checkout's charge: its shares hold the orders' money`);
  return { orderId: row.order_id, sellerId: row.seller_id };
}

/** Writes the changes and answers the new row; `events` are emitted with the payment after them. */
export async function changePayment(
  tx: Tx,
  scope: Scope,
  row: PaymentRow,
  changes: Partial<PaymentMutable>,
  now: Date,
  events: readonly Parameters<typeof emitEvent>[3][] = [],
): Promise<PaymentRow> {
  const after = await queries.updatePayment(tx, scope, row.id, changes, now);
  const object = serializePayment(after);
  const previous = previousAttributes(serializePayment(row), object);
  for (const type of events) await emitEvent(tx, scope, now, type, object, type.endsWith('.updated') ? previous : undefined);
  return after;
}

export async function requirePaymentLocked(tx: Tx, scope: Scope, id: string): Promise<PaymentRow> {
  const row = await queries.lockPayment(tx, scope, id);
  if (!row) throw errors.missing('payment', id);
  return row;
}

// ---- the payment ----

/** The release amount while held or failed follows the refunds; once releasing it is fixed. */
function plannedRelease(row: PaymentRow, refunded: number): Partial<PaymentMutable> {
  const state = releaseState(row);
  return state === 'held' || state === 'failed' || state === 'none' ? { release_amount: sellerShare(row.subtotal, row.amount, refunded) } : {};
}

export interface PaidRefs {
  paymentIntent: string | null;
  checkoutSession: string | null;
  charge: string | null;
}

/**
 * The processor took the buyer's money. Due: succeeded, the release held at the seller's share.
 * Canceled (the order lapsed first): succeeded and refunded in full at once (late_payment), with
 * nothing to release. Already succeeded: only the processor ids it did not know yet are filled in.
 * Answers whether the order is now paid and waiting to be committed.
 */
export async function recordPaid(tx: Tx, scope: Scope, row: PaymentRow, refs: PaidRefs, now: Date, kick: CallKick): Promise<{ payment: PaymentRow; commitOrder: boolean }> {
  const ids: Partial<PaymentMutable> = {
    processor_payment_intent: row.processor_payment_intent ?? refs.paymentIntent,
    processor_checkout_session: row.processor_checkout_session ?? refs.checkoutSession,
    processor_charge: row.processor_charge ?? refs.charge,
  };
  if (row.status === 'succeeded') {
    const known = ids.processor_payment_intent === row.processor_payment_intent && ids.processor_checkout_session === row.processor_checkout_session && ids.processor_charge === row.processor_charge;
    return { payment: known ? row : await changePayment(tx, scope, row, ids, now), commitOrder: false };
  }
  const late = row.status === 'canceled';
  move(PAYMENT_MACHINE, row.status, 'succeed', 'processor');
  const hold = late ? RELEASE_MACHINE.rows.find((r) => r.operation === 'settle_nothing')! : move(RELEASE_MACHINE, releaseState(row), 'hold', 'processor');
  let paid = await changePayment(
    tx,
    scope,
    row,
    { ...ids, status: 'succeeded', paid_at: now, last_failure: null, release_status: hold.to as PaymentMutable['release_status'], release_amount: late ? 0 : row.subtotal },
    now,
    ['payment.succeeded'],
  );
  await syncPaymentLedger(tx, scope, paid.id, { kind: 'payment' }, now);
  if (late) {
    paid = (await createRefund(tx, scope, paid, { amount: paid.amount, reason: null, initiatedBy: 'late_payment', metadata: {} }, now, kick)).payment;
  }
  return { payment: paid, commitOrder: !late };
}

export interface ReportedAmount {
  amount: number;
  currency: string;
}

/** Whether a success report names what we asked for; a report that names no amount is not checked. */
export function amountAgrees(row: PaymentRow, reported: { amount: number | null; currency: string | null }): boolean {
  if (reported.amount === null && reported.currency === null) return true;
  return reported.amount === row.amount && (reported.currency ?? '').toUpperCase() === row.currency.toUpperCase();
}

/**
 * A success report with another amount or currency than the payment's: recorded (amount_mismatch,
 * last_failure) and not applied, whatever the payment's status. A payment still due fails
 * (payment.failed, it stays due); a canceled or paid one keeps its state with the flag set.
 */
export async function recordAmountMismatch(tx: Tx, scope: Scope, row: PaymentRow, reported: { amount: number | null; currency: string | null }, now: Date): Promise<PaymentRow> {
  const currency = (reported.currency ?? '').toUpperCase();
  const amount = reported.amount ?? 0;
  const message = `The processor reported a payment of ${reported.amount ?? 'no amount'} ${currency || '(no currency)'}; this payment is ${row.amount} ${row.currency}. Not applied: compare the payment at the processor.`;
  const changes: Partial<PaymentMutable> = { last_failure: message, amount_mismatch: { amount, currency, reported_at: now.toISOString() } };
  if (row.status !== 'awaiting_payment') return changePayment(tx, scope, row, changes, now);
  const fail = move(PAYMENT_MACHINE, row.status, 'fail', 'processor');
  return changePayment(tx, scope, row, changes, now, fail.emits);
}

/** A failed attempt to pay: the payment stays due, with the processor's message. */
export async function recordPaymentFailed(tx: Tx, scope: Scope, row: PaymentRow, message: string, now: Date): Promise<PaymentRow> {
  if (row.status !== 'awaiting_payment') return row; // a late failure after a success (or a cancel) changes nothing
  const fail = move(PAYMENT_MACHINE, row.status, 'fail', 'processor');
  return changePayment(tx, scope, row, { last_failure: message }, now, fail.emits);
}

/**
 * The order ended (cancelled, expired). A payment still due is canceled (and its checkout closed
 * at the processor); a paid one is refunded of whatever is not refunded yet, and has nothing left
 * to release.
 */
export async function settleEndedOrder(tx: Tx, scope: Scope, row: PaymentRow, initiatedBy: 'order_cancelled' | 'order_expired', now: Date, kick: CallKick): Promise<void> {
  if (row.status === 'awaiting_payment') {
    const cancel = move(PAYMENT_MACHINE, row.status, 'cancel', initiatedBy === 'order_expired' ? 'timer' : 'platform');
    await changePayment(tx, scope, row, { status: 'canceled', canceled_at: now }, now, cancel.emits);
    await enqueueCall(tx, scope, row.id, { call: 'cancel' }, now, kick);
    return;
  }
  if (row.status !== 'succeeded') return;
  let current = row;
  const left = row.amount - row.amount_refunded;
  if (left > 0) current = (await createRefund(tx, scope, row, { amount: left, reason: null, initiatedBy, metadata: {} }, now, kick)).payment;
  await settleNothingIfEmpty(tx, scope, current, now);
}

async function settleNothingIfEmpty(tx: Tx, scope: Scope, row: PaymentRow, now: Date): Promise<PaymentRow> {
  const state = releaseState(row);
  if ((state === 'held' || state === 'failed') && row.release_amount === 0) {
    await cancelTimer(tx, scope, RELEASE_TIMER, row.id);
    return changePayment(tx, scope, row, { release_status: 'nothing_to_release', release_due_at: null }, now);
  }
  return row;
}

// ---- the release ----

/**
 * The order completed: the release starts after release_delay_seconds (a timer), or now. With
 * `toBalance` (the seller is paid on a schedule, docs/payouts.md) the release moves the share to
 * the seller's available balance instead of transferring it, and the delay is the schedule's
 * delay_days.
 */
export async function scheduleRelease(tx: Tx, scope: Scope, row: PaymentRow, delaySeconds: number, now: Date, seller: SellerPayouts, kick: CallKick, toBalance = false): Promise<void> {
  if (releaseState(row) !== 'held') return;
  let current = row.release_to_balance === toBalance ? row : await changePayment(tx, scope, row, { release_to_balance: toBalance }, now);
  if (delaySeconds > 0) {
    const due = new Date(now.getTime() + delaySeconds * 1000);
    current = await changePayment(tx, scope, current, { release_due_at: due }, now);
    // On hold (a card dispute on its checkout's charge): the time is kept, the timer set when it closes.
    if (!current.release_on_hold) await scheduleTimer(tx, scope, RELEASE_TIMER, current.id, due);
    return;
  }
  await startRelease(tx, scope, current, 'platform', seller, now, kick);
}

/** The order was disputed: a release waiting on its delay waits for the decision instead. */
export async function holdRelease(tx: Tx, scope: Scope, row: PaymentRow, now: Date): Promise<void> {
  if (releaseState(row) !== 'held' || row.release_due_at === null) return;
  await cancelTimer(tx, scope, RELEASE_TIMER, row.id);
  await changePayment(tx, scope, row, { release_due_at: null }, now);
}

export interface SellerPayouts {
  payouts_status: string;
  processor_account: string | null;
}

/**
 * held or failed → releasing (the transfer is asked for), or failed at once when the seller
 * cannot receive payouts, or nothing_to_release when refunds took everything. What the seller owes
 * (docs/ledger.md) is recovered from the share first (ledger recoverOwed) and only the rest is
 * transferred; a share it takes whole is released at once with no transfer (`recover`).
 */
export async function startRelease(tx: Tx, scope: Scope, row: PaymentRow, actor: Actor, seller: SellerPayouts, now: Date, kick: CallKick): Promise<PaymentRow> {
  const state = releaseState(row);
  // Held by a card dispute on its checkout's charge: the start is kept for when the dispute closes.
  if (row.release_on_hold && state === 'held') {
    await cancelTimer(tx, scope, RELEASE_TIMER, row.id);
    return row.release_due_at !== null && row.release_due_at <= now ? row : changePayment(tx, scope, row, { release_due_at: now }, now);
  }
  const amount = sellerShare(row.subtotal, row.amount, row.amount_refunded);
  if (amount === 0) {
    const nothing = move(RELEASE_MACHINE, state, 'settle_nothing', actor);
    await cancelTimer(tx, scope, RELEASE_TIMER, row.id);
    return changePayment(tx, scope, row, { release_status: nothing.to as 'nothing_to_release', release_amount: 0, release_due_at: null }, now, nothing.emits);
  }
  if (row.release_to_balance && state === 'held') {
    const toBalance = move(RELEASE_MACHINE, state, 'to_balance', actor);
    await cancelTimer(tx, scope, RELEASE_TIMER, row.id);
    const inBalance = await changePayment(tx, scope, row, { release_status: toBalance.to as 'in_balance', release_amount: amount, release_failure: null, release_due_at: null, released_at: now }, now, toBalance.emits);
    await moveShareToAvailable(tx, scope, inBalance, now);
    return inBalance;
  }
  const { orderId, sellerId } = orderPartOf(row);
  const canReceive = seller.payouts_status === 'enabled' && seller.processor_account !== null;
  const owed = await findOwed(tx, scope, sellerId, row.currency);
  if (canReceive || owed >= amount) {
    const policy = (await loadSettings(tx, scope)).seller_debt_write_off_days === 0 ? 'platform_loss' : 'recover';
    const recovered = await recoverOwed(tx, scope, { seller: sellerId, currency: row.currency, upTo: amount, source: { id: row.id, paymentId: row.id, orderId }, now });
    if (recovered === amount) {
      const whole = move(RELEASE_MACHINE, state, 'recover', actor);
      await cancelTimer(tx, scope, RELEASE_TIMER, row.id);
      const released = await changePayment(
        tx,
        scope,
        row,
        { release_status: 'released', release_amount: amount, release_recovered: recovered, seller_debt_policy: policy, release_failure: null, release_due_at: null, processor_transfer: null, released_at: now },
        now,
        whole.emits,
      );
      await syncPaymentLedger(tx, scope, row.id, { kind: 'payment' }, now);
      return released;
    }
    const start = move(RELEASE_MACHINE, state, state === 'failed' ? 'retry' : 'start', actor);
    await cancelTimer(tx, scope, RELEASE_TIMER, row.id);
    const releasing = await changePayment(
      tx,
      scope,
      row,
      { release_status: start.to as 'releasing', release_amount: amount, release_recovered: recovered, seller_debt_policy: policy, release_failure: null, release_due_at: null, release_attempts: row.release_attempts + 1 },
      now,
      start.emits,
    );
    await enqueueCall(tx, scope, row.id, { call: 'transfer' }, now, kick);
    return releasing;
  }
  const fail = state === 'failed' ? null : move(RELEASE_MACHINE, state, 'fail', actor);
  const failure = `The seller cannot receive payouts yet (payouts ${seller.payouts_status}); the release is retried when their payouts are enabled.`;
  if (fail === null) return row.release_failure === failure ? row : changePayment(tx, scope, row, { release_failure: failure }, now);
  await cancelTimer(tx, scope, RELEASE_TIMER, row.id);
  return changePayment(tx, scope, row, { release_status: 'failed', release_amount: amount, release_failure: failure, release_due_at: null }, now, fail.emits);
}

/** The transfer was made. */
export async function recordReleased(tx: Tx, scope: Scope, row: PaymentRow, transfer: string, now: Date): Promise<PaymentRow> {
  if (releaseState(row) !== 'releasing') return row;
  const done = move(RELEASE_MACHINE, 'releasing', 'succeed', 'processor');
  const released = await changePayment(tx, scope, row, { release_status: 'released', processor_transfer: transfer, released_at: now }, now, done.emits);
  await syncPaymentLedger(tx, scope, row.id, { kind: 'payment' }, now);
  return released;
}

/**
 * The processor refused the transfer (or reversed a failed one). Reversals planned against it by
 * refunds made while it was on its way are dropped: there is nothing to take back; what the release
 * had recovered is owed again (`recovery_reversal`), and the retry recovers anew.
 */
export async function recordReleaseFailed(tx: Tx, scope: Scope, row: PaymentRow, message: string, now: Date): Promise<PaymentRow> {
  const state = releaseState(row);
  if (state !== 'releasing' && state !== 'released') return row;
  const fail = move(RELEASE_MACHINE, state, 'fail', 'processor');
  const failed = await changePayment(
    tx,
    scope,
    row,
    {
      release_status: 'failed',
      release_failure: message,
      release_amount: sellerShare(row.subtotal, row.amount, row.amount_refunded),
      amount_reversed: 0,
      release_recovered: 0,
      processor_transfer: null,
      released_at: null,
    },
    now,
    fail.emits,
  );
  const { orderId, sellerId } = orderPartOf(row);
  await restoreRecovered(tx, scope, { seller: sellerId, currency: row.currency, amount: row.release_recovered, source: { id: row.id, paymentId: row.id, orderId }, now });
  await syncPaymentLedger(tx, scope, row.id, { kind: 'release_failed', transfer: row.processor_transfer }, now);
  return failed;
}

// ---- refunds ----

export interface NewRefundInput {
  amount: number;
  reason: RefundReason | null;
  initiatedBy: RefundInitiator;
  metadata: Record<string, string>;
  /** A refund the processor made itself (its dashboard): recorded as it reports it, never called. */
  processor?: { refund: string; status: RefundRow['status']; failureReason: string | null };
}

/**
 * Records a refund of a succeeded payment (the caller checked the amount): the refunded total, the
 * planned release or, after release, the transfer reversal (none for the processor's own refunds:
 * their share is waived), `refund.created`, and the processor call.
 */
export async function createRefund(tx: Tx, scope: Scope, row: PaymentRow, input: NewRefundInput, now: Date, kick: CallKick): Promise<{ payment: PaymentRow; refund: RefundRow }> {
  if (row.status !== 'succeeded') throw errors.invalidState('payment', row.status, 'be refunded');
  const refundedAfter = row.amount_refunded + input.amount;
  const state = releaseState(row);
  const afterRelease = state === 'releasing' || state === 'released';
  const released = { subtotal: row.subtotal, amount: row.amount, releaseAmount: row.release_amount, recovered: row.release_recovered, amountReversed: row.amount_reversed, reversalWaived: row.reversal_waived };
  const reversal = afterRelease ? reversalFor(released, refundedAfter) : 0;
  const counts = input.processor === undefined || input.processor.status === 'pending' || input.processor.status === 'succeeded';
  const changes: Partial<PaymentMutable> = counts ? { amount_refunded: refundedAfter, ...plannedRelease(row, refundedAfter) } : {};
  if (afterRelease && counts && input.processor !== undefined) changes.reversal_waived = row.reversal_waived + reversal;
  const withReversal = afterRelease && input.processor === undefined;
  if (withReversal) changes.amount_reversed = row.amount_reversed + reversal;
  const refund = await queries.insertRefund(tx, scope, {
    id: newId('refund'),
    payment_id: row.id,
    order_id: orderPartOf(row).orderId,
    amount: input.amount,
    currency: row.currency,
    reason: input.reason,
    initiated_by: input.initiatedBy,
    status: input.processor?.status ?? 'pending',
    // Nothing to take back (a release the seller's debt kept whole, or all of it already taken or
    // waived): no reversal, rather than one that would stay pending with nothing to ask for.
    transfer_reversal_amount: withReversal && reversal > 0 ? reversal : null,
    processor_refund: input.processor?.refund ?? null,
    metadata: input.metadata,
    created_at: now,
  });
  const payment = Object.keys(changes).length > 0 ? await changePayment(tx, scope, row, changes, now) : row;
  await emitEvent(tx, scope, now, 'refund.created', serializeRefund(refund));
  if (input.processor?.status === 'succeeded') await emitEvent(tx, scope, now, 'payment.refunded', serializePayment(payment));
  if (input.processor === undefined) await enqueueCall(tx, scope, row.id, { call: 'refund', refundId: refund.id }, now, kick);
  await syncPaymentLedger(tx, scope, row.id, { kind: 'refund', refund }, now);
  return { payment, refund };
}

/**
 * The processor refused a refund's transfer reversal: the shortfall stays on the refund
 * (`transfer_reversal.status` failed, with the processor's message) and counts as waived, so later
 * refunds do not try to take it back again; `refund.updated`.
 */
export async function recordReversalShortfall(tx: Tx, scope: Scope, row: PaymentRow, refund: RefundRow, message: string, now: Date): Promise<void> {
  const reversal = refund.transfer_reversal_amount ?? 0;
  if (reversal === 0 || refund.transfer_reversal_failure !== null || refund.processor_transfer_reversal !== null) return;
  await changePayment(tx, scope, row, { amount_reversed: Math.max(0, row.amount_reversed - reversal), reversal_waived: row.reversal_waived + reversal }, now);
  const after = await queries.updateRefund(tx, scope, refund.id, { transfer_reversal_failure: message }, now);
  await emitEvent(tx, scope, now, 'refund.updated', serializeRefund(after), previousAttributes(serializeRefund(refund), serializeRefund(after)));
  await syncPaymentLedger(tx, scope, row.id, { kind: 'refund', refund: after }, now);
}

/** The processor reversed the refund's part of the transfer (the seller gave it back). */
export async function recordReversalMade(tx: Tx, scope: Scope, row: PaymentRow, refundId: string, reversal: string, now: Date): Promise<void> {
  const after = await queries.updateRefund(tx, scope, refundId, { processor_transfer_reversal: reversal }, now);
  await syncPaymentLedger(tx, scope, row.id, { kind: 'refund', refund: after }, now);
}

/** pending → succeeded: `refund.updated`, `payment.refunded`. */
export async function recordRefundSucceeded(tx: Tx, scope: Scope, row: PaymentRow, refund: RefundRow, changes: Pick<RefundRow, 'processor_refund' | 'processor_transfer_reversal'>, now: Date): Promise<RefundRow> {
  if (refund.status !== 'pending') {
    return refund.processor_refund === null && changes.processor_refund !== null ? queries.updateRefund(tx, scope, refund.id, changes, now) : refund;
  }
  const succeed = move(REFUND_MACHINE, refund.status, 'succeed', 'processor');
  const after = await queries.updateRefund(tx, scope, refund.id, { ...changes, status: 'succeeded', failure_reason: null }, now);
  await emitEvent(tx, scope, now, 'refund.updated', serializeRefund(after), previousAttributes(serializeRefund(refund), serializeRefund(after)));
  if (succeed.emits.includes('payment.refunded')) await emitEvent(tx, scope, now, 'payment.refunded', serializePayment(row));
  await syncPaymentLedger(tx, scope, row.id, { kind: 'refund', refund: after }, now);
  return after;
}

/**
 * pending or succeeded → failed (or pending → canceled): the amount is refundable again and the
 * planned release follows. A reversal that was made stays made (the seller gave it back; the
 * platform holds it): see docs/payments.md, "When something fails".
 */
export async function recordRefundFailed(
  tx: Tx,
  scope: Scope,
  row: PaymentRow,
  refund: RefundRow,
  outcome: { status: 'failed' | 'canceled'; failureReason: string | null; reversalMade: boolean; processorRefund: string | null },
  now: Date,
): Promise<RefundRow> {
  if (refund.status === 'failed' || refund.status === 'canceled') return refund;
  move(REFUND_MACHINE, refund.status, outcome.status === 'failed' ? 'fail' : 'cancel', 'processor');
  const refundedAfter = row.amount_refunded - refund.amount;
  const changes: Partial<PaymentMutable> = { amount_refunded: refundedAfter, ...plannedRelease(row, refundedAfter) };
  const reversal = refund.transfer_reversal_amount ?? 0;
  if (reversal > 0 && refund.transfer_reversal_failure !== null) {
    // Its shortfall was counted as waived; with no refund there is no shortfall.
    changes.reversal_waived = Math.max(0, row.reversal_waived - reversal);
  } else if (reversal > 0 && !outcome.reversalMade) {
    changes.amount_reversed = Math.max(0, row.amount_reversed - reversal);
  }
  if (refund.initiated_by === 'processor' && row.reversal_waived > 0) {
    // What stays waived is at most what the remaining refunds still leave owed.
    const owed = row.release_amount - sellerShare(row.subtotal, row.amount, refundedAfter) - (changes.amount_reversed ?? row.amount_reversed);
    changes.reversal_waived = Math.min(row.reversal_waived, Math.max(0, owed));
  }
  await changePayment(tx, scope, row, changes, now);
  const after = await queries.updateRefund(
    tx,
    scope,
    refund.id,
    {
      status: outcome.status,
      failure_reason: outcome.failureReason,
      transfer_reversal_amount: reversal > 0 && !outcome.reversalMade && refund.transfer_reversal_failure === null ? null : refund.transfer_reversal_amount,
      processor_refund: refund.processor_refund ?? outcome.processorRefund,
    },
    now,
  );
  await emitEvent(tx, scope, now, 'refund.updated', serializeRefund(after), previousAttributes(serializeRefund(refund), serializeRefund(after)));
  await syncPaymentLedger(tx, scope, row.id, { kind: 'refund', refund: after }, now);
  return after;
}

export { serializePayment, serializeRefund };
