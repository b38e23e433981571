// A checkout's payment (docs/decisions/checkouts.md): ONE charge row the processor takes (and
// reports about), and one share row per order, which holds that order's money life as an order's
// own payment does (moves.ts). What happens to the charge happens to every share, in item order;
// what happens to an order happens to its share alone. Lock order: the orders (item order), then
// the charge, then its shares (item order); an order's move locks its order, its share, then the
// charge.
import type { Tx } from '../../db/db.js';
import { errors } from '../../errors.js';
import type { Scope } from '../../scope.js';
import { move } from '../../domain/state-machine.js';
import { cancelTimer, scheduleTimer } from '../../workers/timers.js';
import { findSellerPayouts } from '../sellers/index.js';
import { enqueueCall, type CallKick } from './call-queue.js';
import * as moves from './moves.js';
import { PAYMENT_MACHINE, RELEASE_TIMER } from './machines.js';
import * as queries from './queries.js';
import type { PaymentMutable, PaymentRow, RefundReason, RefundRow } from './queries.js';

export const isCharge = (row: PaymentRow): boolean => row.checkout_id !== null && row.charge_payment_id === null;

async function lockShares(tx: Tx, scope: Scope, charge: PaymentRow): Promise<PaymentRow[]> {
  const shares: PaymentRow[] = [];
  for (const id of await queries.selectShareIds(tx, scope, charge.id)) shares.push(await moves.requirePaymentLocked(tx, scope, id));
  return shares;
}

/**
 * The processor took the checkout's money: the charge succeeds (no release of its own), then every
 * share as an order's payment would (moves.recordPaid, with the charge's processor ids, so the
 * shares' refunds and transfers name the charge): held at its seller's share, or, canceled by its
 * order's expiry, refunded in full (late_payment). Answers the orders to commit, in item order.
 */
export async function recordChargePaid(tx: Tx, scope: Scope, charge: PaymentRow, refs: moves.PaidRefs, now: Date, kick: CallKick): Promise<string[]> {
  const ids = {
    processor_payment_intent: charge.processor_payment_intent ?? refs.paymentIntent,
    processor_checkout_session: charge.processor_checkout_session ?? refs.checkoutSession,
    processor_charge: charge.processor_charge ?? refs.charge,
  };
  let paid = charge;
  if (charge.status !== 'succeeded') {
    move(PAYMENT_MACHINE, charge.status, 'succeed', 'processor');
    paid = await moves.changePayment(tx, scope, charge, { ...ids, status: 'succeeded', paid_at: now, last_failure: null }, now, ['payment.succeeded']);
  } else if (ids.processor_payment_intent !== charge.processor_payment_intent || ids.processor_checkout_session !== charge.processor_checkout_session || ids.processor_charge !== charge.processor_charge) {
    paid = await moves.changePayment(tx, scope, charge, ids, now);
  }
  const shareRefs = { paymentIntent: paid.processor_payment_intent, checkoutSession: paid.processor_checkout_session, charge: paid.processor_charge };
  const toCommit: string[] = [];
  for (const share of await lockShares(tx, scope, paid)) {
    const { commitOrder } = await moves.recordPaid(tx, scope, share, shareRefs, now, kick);
    if (commitOrder) toCommit.push(moves.orderPartOf(share).orderId);
  }
  return toCommit;
}

/** A failed attempt (or a success report with another amount): the shares still due say so too. */
export async function recordChargeFailed(tx: Tx, scope: Scope, charge: PaymentRow, message: string, now: Date): Promise<void> {
  for (const share of await lockShares(tx, scope, charge)) await moves.recordPaymentFailed(tx, scope, share, message, now);
}

/**
 * An order of the checkout ended while its share was due (its payment window passed): the share is
 * canceled; once every share is, the charge is canceled with one cancel call at the processor.
 * A success arriving later refunds every share in full (recordChargePaid).
 */
export async function cancelDueShare(tx: Tx, scope: Scope, share: PaymentRow, actor: 'timer' | 'platform', now: Date, kick: CallKick): Promise<void> {
  const cancel = move(PAYMENT_MACHINE, share.status, 'cancel', actor);
  await moves.changePayment(tx, scope, share, { status: 'canceled', canceled_at: now }, now, cancel.emits);
  const charge = await moves.requirePaymentLocked(tx, scope, share.charge_payment_id!);
  if (charge.status !== 'awaiting_payment') return;
  const statuses = await queries.selectShareStatuses(tx, scope, charge.id);
  if (statuses.some((status) => status !== 'canceled')) return;
  const cancelCharge = move(PAYMENT_MACHINE, charge.status, 'cancel', actor);
  await moves.changePayment(tx, scope, charge, { status: 'canceled', canceled_at: now }, now, cancelCharge.emits);
  await enqueueCall(tx, scope, charge.id, { call: 'cancel' }, now, kick);
}

/** What is left to refund of a share: its amount less its refunds once paid, else nothing. */
const leftOf = (share: PaymentRow): number => (share.status === 'succeeded' ? share.amount - share.amount_refunded : 0);

/**
 * An amount spread over the shares in item order, each taking at most what is left of it: the
 * parts (none of 0), which sum to `amount` when the shares have that much left.
 */
function spreadOverShares(shares: readonly PaymentRow[], amount: number): Array<{ share: PaymentRow; take: number }> {
  const parts: Array<{ share: PaymentRow; take: number }> = [];
  let remaining = amount;
  for (const share of shares) {
    if (remaining === 0) break;
    const take = Math.min(leftOf(share), remaining);
    if (take <= 0) continue;
    remaining -= take;
    parts.push({ share, take });
  }
  return parts;
}

/**
 * `POST /v1/refunds {payment: <charge>}`: across its shares in item order, each within what is left
 * of it (contract 10's rules per share). `amount` omitted: everything left. Answers the refunds made.
 */
export async function refundCharge(
  tx: Tx,
  scope: Scope,
  charge: PaymentRow,
  input: { amount: number | undefined; reason: RefundReason | null; metadata: Record<string, string> },
  now: Date,
  kick: CallKick,
): Promise<RefundRow[]> {
  if (charge.status !== 'succeeded') throw errors.invalidState('payment', charge.status, 'be refunded');
  const shares = await lockShares(tx, scope, charge);
  const left = shares.reduce((sum, share) => sum + leftOf(share), 0);
  if (left === 0) throw errors.invalidState('payment', 'fully refunded', 'be refunded again');
  const amount = input.amount ?? left;
  if (amount > left) throw errors.invalidRequest(`amount may be at most ${left}: what is left of the payment's ${charge.amount} after refunds.`, 'amount');
  const refunds: RefundRow[] = [];
  for (const { share, take } of spreadOverShares(shares, amount)) {
    refunds.push((await moves.createRefund(tx, scope, share, { amount: take, reason: input.reason, initiatedBy: 'api', metadata: input.metadata }, now, kick)).refund);
  }
  return refunds;
}

/**
 * A refund made in the processor's dashboard on the charge: spread over the shares in item order,
 * each within what is left of it, every part naming the processor's refund (initiated_by
 * processor: no transfer reversal, as for an order's payment).
 */
export async function recordProcessorRefundOnCharge(
  tx: Tx,
  scope: Scope,
  charge: PaymentRow,
  processor: { refund: string; amount: number; status: RefundRow['status']; failureReason: string | null },
  now: Date,
  kick: CallKick,
): Promise<void> {
  for (const { share, take } of spreadOverShares(await lockShares(tx, scope, charge), processor.amount)) {
    await moves.createRefund(
      tx,
      scope,
      share,
      { amount: take, reason: null, initiatedBy: 'processor', metadata: {}, processor: { refund: processor.refund, status: processor.status, failureReason: processor.failureReason } },
      now,
      kick,
    );
  }
}

const CLOSED_CARD_DISPUTE = new Set(['won', 'lost', 'warning_closed', 'charge_refunded']);
export const cardDisputeOpen = (status: string): boolean => !CLOSED_CARD_DISPUTE.has(status);

/**
 * A card dispute on the charge is open: the shares whose release has not started are held (their
 * release timers stop; a start asked for meanwhile is kept in release_due_at). Releases already
 * made stay made: the platform answers the dispute, as for an order's payment.
 */
export async function holdShareReleases(tx: Tx, scope: Scope, charge: PaymentRow, now: Date): Promise<void> {
  for (const share of await lockShares(tx, scope, charge)) {
    if (share.release_on_hold || moves.releaseState(share) !== 'held') continue;
    await cancelTimer(tx, scope, RELEASE_TIMER, share.id);
    await moves.changePayment(tx, scope, share, { release_on_hold: true }, now);
  }
}

/** Every card dispute on the charge closed: the held shares' releases go on (now, or at their time). */
export async function resumeShareReleases(tx: Tx, scope: Scope, charge: PaymentRow, now: Date, kick: CallKick): Promise<void> {
  if (await queries.chargeHasOpenCardDispute(tx, scope, charge.id, [...CLOSED_CARD_DISPUTE])) return;
  for (const share of await lockShares(tx, scope, charge)) {
    if (!share.release_on_hold) continue;
    const changes: Partial<PaymentMutable> = { release_on_hold: false };
    const after = await moves.changePayment(tx, scope, share, changes, now);
    if (moves.releaseState(after) !== 'held' || after.release_due_at === null) continue;
    if (after.release_due_at > now) {
      await scheduleTimer(tx, scope, RELEASE_TIMER, after.id, after.release_due_at);
      continue;
    }
    const seller = (await findSellerPayouts(tx, scope, moves.orderPartOf(after).sellerId)) ?? { payouts_status: 'not_started', processor_account: null };
    await moves.startRelease(tx, scope, after, 'platform', seller, now, kick);
  }
}
