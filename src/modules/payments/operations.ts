// Payments, refunds and card disputes through the API (interface.md 4.10, 4.11; contract 10),
// and the release timer.
import type { Queryable, Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { modeNow, type Scope } from '../../scope.js';
import type { DueTimer } from '../../contracts/background.js';
import type { OperationContext } from '../../contracts/context.js';
import { findSellerPayouts } from '../sellers/index.js';
import { LEAVE_TO_WORKER } from './call-queue.js';
import { kickFor } from './kick.js';
import { isCharge, refundCharge } from './checkout-charge.js';
import * as moves from './moves.js';
import { lockOrderThenPayment } from './processor-reports.js';
import { retryReleaseOf } from './release-retries.js';
import * as queries from './queries.js';
import type { CardDispute, CreateRefundBody, ListCardDisputesQuery, ListPaymentsQuery, ListRefundsQuery, MetadataBody, Payment, Refund } from './schemas.js';
import { serializeCardDispute, serializePayment, serializeRefund } from './serialize.js';
import { RELEASE_TIMER } from './machines.js';

export { RELEASE_TIMER };

export async function listPayments(ctx: OperationContext, query: ListPaymentsQuery): Promise<ListEnvelope<Payment>> {
  const page = pageRequest(query, 'payment');
  const rows = await queries.selectPaymentPage(ctx.db, ctx.scope, { order: query.order, status: query.status }, page);
  return toList(rows.map(serializePayment), page.limit);
}

/**
 * The hosted page where the buyer pays a checkout's charge (or an order's payment): its URL while
 * payment is due, else null (paid, canceled, a PaymentIntent paid in the storefront's own form,
 * or a Stripe session whose start call has not answered yet).
 */
export async function paymentPageUrl(q: Queryable, scope: Scope, paymentId: string): Promise<string | null> {
  const row = await queries.selectPayment(q, scope, paymentId);
  return row !== null && row.status === 'awaiting_payment' ? row.checkout_url : null;
}

/** The page URLs of these payments (those awaiting payment; null for the others), in one statement. */
export async function paymentPageUrls(q: Queryable, scope: Scope, paymentIds: readonly string[]): Promise<Map<string, string | null>> {
  const rows = await queries.selectPaymentsByIds(q, scope, paymentIds);
  return new Map(rows.map((row) => [row.id, row.status === 'awaiting_payment' ? row.checkout_url : null]));
}

export async function retrievePayment(ctx: OperationContext, id: string): Promise<Payment> {
  const row = await queries.selectPayment(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('payment', id);
  return serializePayment(row);
}

export async function updatePaymentMetadata(ctx: OperationContext, id: string, body: MetadataBody): Promise<Payment> {
  return ctx.db.transaction(async (tx) => {
    const row = await moves.requirePaymentLocked(tx, ctx.scope, id);
    const now = await modeNow(tx, ctx.clock, ctx.scope);
    return serializePayment(await moves.changePayment(tx, ctx.scope, row, { metadata: body.metadata }, now));
  });
}

/** failed → releasing (or failed again with the reason, or nothing_to_release); 409 invalid_state unless failed. */
export async function retryRelease(ctx: OperationContext, id: string): Promise<Payment> {
  return ctx.db.transaction(async (tx) => {
    const row = await moves.requirePaymentLocked(tx, ctx.scope, id);
    if (moves.releaseState(row) !== 'failed') {
      throw errors.invalidState('payment', `release ${row.release_status ?? 'not started'}`, 'have its release retried (only a failed release can be)');
    }
    const now = await modeNow(tx, ctx.clock, ctx.scope);
    return serializePayment(await retryReleaseOf(tx, ctx.scope, row, now, kickFor(ctx)));
  });
}

/** The release timer (release_delay_seconds after completion): a stale one is dropped. */
export async function releaseTimer(tx: Tx, scope: Scope, timer: DueTimer, now: Date): Promise<void> {
  const row = await queries.lockPayment(tx, scope, timer.subjectId);
  if (!row || moves.releaseState(row) !== 'held' || row.release_due_at === null || row.release_due_at > now) return;
  const seller = (await findSellerPayouts(tx, scope, moves.orderPartOf(row).sellerId)) ?? { payouts_status: 'not_started', processor_account: null };
  await moves.startRelease(tx, scope, row, 'timer', seller, now, LEAVE_TO_WORKER);
}

// ---- refunds ----

/**
 * Refusals in order: 400 neither or both of payment and order (unless they agree); 404 the payment
 * or order; 409 invalid_state when the payment has not succeeded; 400 `amount` above what is left.
 */
export async function createRefund(ctx: OperationContext, body: CreateRefundBody): Promise<Refund> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const paymentId = await paymentIdOf(tx, scope, body);
    const found = await queries.selectPayment(tx, scope, paymentId);
    if (found && isCharge(found)) {
      // A checkout's charge: refunded across its orders' shares, in item order (the first refund answers).
      const charge = await lockOrderThenPayment(tx, scope, found.id);
      const now = await modeNow(tx, ctx.clock, scope);
      const refunds = await refundCharge(tx, scope, charge!, { amount: body.amount, reason: body.reason ?? null, metadata: body.metadata ?? {} }, now, kickFor(ctx));
      return serializeRefund(refunds[0]!);
    }
    const row = await moves.requirePaymentLocked(tx, scope, paymentId);
    if (row.status !== 'succeeded') throw errors.invalidState('payment', row.status, 'be refunded');
    const left = row.amount - row.amount_refunded;
    const amount = body.amount ?? left;
    if (left === 0) throw errors.invalidState('payment', 'fully refunded', 'be refunded again');
    if (amount > left) throw errors.invalidRequest(`amount may be at most ${left}: what is left of the payment's ${row.amount} after refunds.`, 'amount');
    const now = await modeNow(tx, ctx.clock, scope);
    const { refund } = await moves.createRefund(tx, scope, row, { amount, reason: body.reason ?? null, initiatedBy: 'api', metadata: body.metadata ?? {} }, now, kickFor(ctx));
    return serializeRefund(refund);
  });
}

async function paymentIdOf(tx: Tx, scope: Scope, body: CreateRefundBody): Promise<string> {
  if (body.payment === undefined && body.order === undefined) throw errors.invalidRequest('Give payment or order: the payment to refund.', 'payment');
  if (body.order === undefined) return body.payment!;
  const rows = await queries.selectPaymentPage(tx, scope, { order: body.order }, { limit: 1, startingAfter: null });
  const byOrder = rows[0];
  if (!byOrder) {
    if (body.payment !== undefined) throw errors.invalidRequest(`The order ${body.order} has no payment; give payment or order, not both.`, 'order');
    throw errors.missing('payment', `of order ${body.order}`, 'order');
  }
  if (body.payment !== undefined && body.payment !== byOrder.id) {
    throw errors.invalidRequest(`The payment ${body.payment} is not the payment of order ${body.order}; give one of them.`, 'order');
  }
  return byOrder.id;
}

export async function listRefunds(ctx: OperationContext, query: ListRefundsQuery): Promise<ListEnvelope<Refund>> {
  const page = pageRequest(query, 'refund');
  const rows = await queries.selectRefundPage(ctx.db, ctx.scope, { payment: query.payment, order: query.order }, page);
  return toList(rows.map(serializeRefund), page.limit);
}

export async function retrieveRefund(ctx: OperationContext, id: string): Promise<Refund> {
  const row = await queries.selectRefund(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('refund', id);
  return serializeRefund(row);
}

export async function updateRefundMetadata(ctx: OperationContext, id: string, body: MetadataBody): Promise<Refund> {
  return ctx.db.transaction(async (tx) => {
    const row = await queries.lockRefund(tx, ctx.scope, id);
    if (!row) throw errors.missing('refund', id);
    const now = await modeNow(tx, ctx.clock, ctx.scope);
    return serializeRefund(await queries.updateRefund(tx, ctx.scope, id, { metadata: body.metadata }, now));
  });
}

// ---- card disputes ----

export async function listCardDisputes(ctx: OperationContext, query: ListCardDisputesQuery): Promise<ListEnvelope<CardDispute>> {
  const page = pageRequest(query, 'cardDispute');
  const rows = await queries.selectCardDisputePage(ctx.db, ctx.scope, { payment: query.payment, order: query.order, status: query.status }, page);
  return toList(rows.map(serializeCardDispute), page.limit);
}

export async function retrieveCardDispute(ctx: OperationContext, id: string): Promise<CardDispute> {
  const row = await queries.selectCardDispute(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('card dispute', id);
  return serializeCardDispute(row);
}
