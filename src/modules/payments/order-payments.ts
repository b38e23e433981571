// The payments module's side of orders: what an order's creation and moves do to its payment, in
// the order's transaction, called by the flows (src/flows/) in their order.
import { errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import type { Settings } from '../../contracts/settings.js';
import { findSellerPayouts } from '../sellers/index.js';
import { emitEvent } from '../../outbox/emit.js';
import { cancelDueShare } from './checkout-charge.js';
import * as moves from './moves.js';
import { enqueueCall, type CallKick } from './call-queue.js';
import * as queries from './queries.js';
import { serializePayment } from './serialize.js';
import { connectedProvider } from '../marketplaces/index.js';

/** What a payment needs to know of its order. */
export interface OrderForPayment {
  id: string;
  buyer: string;
  seller: string;
  /** Its listing: named on the processor's checkout page of a checkout's charge. */
  listing?: string;
  subtotal: number;
  fee_amount: number;
  total: number;
  currency: string;
  payment_method: string;
  success_url: string | null;
  cancel_url: string | null;
}

/** A checkout's charge: one payment for the total of its orders (each order keeps its own share). */
export interface CheckoutForPayment {
  id: string;
  buyer: string;
  currency: string;
  subtotal: number;
  fee_amount: number;
  total: number;
  payment_method: string;
  success_url: string | null;
  cancel_url: string | null;
  /** Its orders, in item order. */
  orders: readonly OrderForPayment[];
}

type Payer = Pick<OrderForPayment, 'payment_method' | 'success_url' | 'cancel_url'>;
type Start = Pick<queries.NewPayment, 'provider' | 'method' | 'success_url' | 'cancel_url' | 'checkout_url' | 'client_secret'>;

/** The processor, method and return URLs of a new payment; 403 with no processor, 400 a Stripe checkout without its URLs. */
async function paymentStart(tx: Tx, scope: Scope, payer: Payer, settings: Settings): Promise<Start> {
  const provider = await connectedProvider(tx, scope);
  if (provider === null) throw errors.forbidden('processor_not_connected', 'Payments are on and this mode has no processor connection.');
  const method = payer.payment_method === 'payment_intent' ? 'payment_intent' : 'checkout_session';
  const successUrl = payer.success_url ?? settings.checkout_success_url;
  const cancelUrl = payer.cancel_url ?? settings.checkout_cancel_url;
  if (provider === 'stripe' && method === 'checkout_session' && (successUrl === null || cancelUrl === null)) {
    const field = successUrl === null ? 'success_url' : 'cancel_url';
    throw errors.invalidRequest(`A Stripe checkout needs ${field}: give it with the order, or set checkout_${field} in the mode's settings.`, field);
  }
  return { provider, method, success_url: successUrl, cancel_url: cancelUrl, checkout_url: null, client_secret: null };
}

async function insertAndAnnounce(tx: Tx, scope: Scope, payment: queries.NewPayment, now: Date): Promise<void> {
  await queries.insertPayment(tx, scope, payment);
  const row = await queries.selectPayment(tx, scope, payment.id);
  await emitEvent(tx, scope, now, 'payment.created', serializePayment(row!));
}

/**
 * What to do about a seller who cannot be paid yet: the onboarding link always; in test mode also
 * the test helper that finishes onboarding at once (a demo or a test need not click through).
 */
export function payoutsNotEnabledMessage(scope: Scope, sellerId: string, payoutsStatus: string): string {
  const base = `Payments are on and the seller ${sellerId} has not finished processor onboarding (payouts ${payoutsStatus}): send the seller to the page POST /v1/sellers/${sellerId}/onboarding_links answers`;
  if (scope.mode === 'live') return `${base}.`;
  return `${base}, or, in test mode, finish it at once with POST /v1/test_helpers/sellers/${sellerId}/payouts {"status": "enabled"}.`;
}

/**
 * With payments on, before units are reserved: 403 processor_not_connected, then
 * seller_payouts_not_enabled. Contract 9's order: the platform's own connection before the
 * seller's onboarding, so a mode without a processor never sends the developer to the seller's
 * onboarding.
 */
export async function assertCanPay(tx: Tx, scope: Scope, sellerId: string): Promise<void> {
  if ((await connectedProvider(tx, scope)) === null) {
    throw errors.forbidden('processor_not_connected', 'Payments are on and this mode has no processor connection; connect one in the dashboard first.');
  }
  const seller = await findSellerPayouts(tx, scope, sellerId);
  if (!seller || seller.payouts_status !== 'enabled') {
    throw errors.forbidden('seller_payouts_not_enabled', payoutsNotEnabledMessage(scope, sellerId, seller?.payouts_status ?? 'not_started'));
  }
}

/** Creates the order's payment (payment.created) and asks the processor to start it; answers its id. */
export async function createOrderPayment(tx: Tx, scope: Scope, order: OrderForPayment, settings: Settings, now: Date, kick: CallKick): Promise<string> {
  const start = await paymentStart(tx, scope, order, settings);
  const id = newId('payment');
  await insertAndAnnounce(tx, scope, {
    ...start,
    id,
    order_id: order.id,
    seller_id: order.seller,
    checkout_id: null,
    charge_payment_id: null,
    share_index: null,
    line_items: null,
    amount: order.total,
    fee_amount: order.fee_amount,
    subtotal: order.subtotal,
    currency: order.currency,
    created_at: now,
  }, now);
  await enqueueCall(tx, scope, id, { call: 'start', description: `Order ${order.id}`, successUrl: start.success_url, cancelUrl: start.cancel_url }, now, kick);
  return id;
}

/**
 * Creates a checkout's payment: one charge for the checkout's total (the only payment the
 * processor is asked to start; its id answers as `payment`), then a share per order in item order
 * (`orderPayments`), each holding its order's money life (docs/decisions/checkouts.md): what the
 * order's moves (settleEnded, release, holdRelease) and its refunds act on.
 */
export async function createCheckoutPayment(
  tx: Tx,
  scope: Scope,
  checkout: CheckoutForPayment,
  settings: Settings,
  now: Date,
  kick: CallKick,
): Promise<{ payment: string; orderPayments: readonly string[] }> {
  const start = await paymentStart(tx, scope, checkout, settings);
  const chargeId = newId('payment');
  const common = { ...start, currency: checkout.currency, created_at: now };
  await insertAndAnnounce(tx, scope, {
    ...common,
    id: chargeId,
    order_id: null,
    seller_id: null,
    checkout_id: checkout.id,
    charge_payment_id: null,
    share_index: null,
    line_items: checkout.orders.map((order) => ({ order: order.id, listing: order.listing ?? null, amount: order.total })),
    amount: checkout.total,
    fee_amount: checkout.fee_amount,
    subtotal: checkout.subtotal,
  }, now);
  const orderPayments: string[] = [];
  for (const [index, order] of checkout.orders.entries()) {
    const id = newId('payment');
    await insertAndAnnounce(tx, scope, {
      ...common,
      id,
      order_id: order.id,
      seller_id: order.seller,
      checkout_id: checkout.id,
      charge_payment_id: chargeId,
      share_index: index,
      line_items: null,
      amount: order.total,
      fee_amount: order.fee_amount,
      subtotal: order.subtotal,
    }, now);
    orderPayments.push(id);
  }
  const call = { call: 'start' as const, description: `Checkout ${checkout.id}`, successUrl: start.success_url, cancelUrl: start.cancel_url };
  await enqueueCall(tx, scope, chargeId, call, now, kick);
  return { payment: chargeId, orderPayments };
}

/**
 * The order was cancelled or expired: its payment is canceled, or refunded (`order_cancelled`,
 * `order_expired`). A checkout's share still due is canceled alone; the charge once every share
 * is (one cancel call).
 */
export async function settleEndedOrderPayment(tx: Tx, scope: Scope, paymentId: string, reason: 'order_cancelled' | 'order_expired', now: Date, kick: CallKick): Promise<void> {
  const row = await moves.requirePaymentLocked(tx, scope, paymentId);
  if (row.charge_payment_id !== null && row.status === 'awaiting_payment') {
    await cancelDueShare(tx, scope, row, reason === 'order_expired' ? 'timer' : 'platform', now, kick);
    return;
  }
  await moves.settleEndedOrder(tx, scope, row, reason, now, kick);
}

/**
 * The order completed: the seller's share is released after release_delay_seconds; or, for a
 * seller paid on a schedule (`toBalance`: the payouts module's answer, docs/payouts.md), moved to
 * their available balance after the schedule's delay_days.
 */
export async function releaseOrderPayment(tx: Tx, scope: Scope, paymentId: string, settings: Settings, now: Date, kick: CallKick, toBalance: { delayDays: number } | null = null): Promise<void> {
  const row = await moves.requirePaymentLocked(tx, scope, paymentId);
  const seller = (await findSellerPayouts(tx, scope, moves.orderPartOf(row).sellerId)) ?? { payouts_status: 'not_started', processor_account: null };
  const delaySeconds = toBalance === null ? settings.release_delay_seconds : toBalance.delayDays * 86_400;
  await moves.scheduleRelease(tx, scope, row, delaySeconds, now, seller, kick, toBalance !== null);
}

/** The order was disputed: its release waits until the dispute is decided. */
export async function holdOrderRelease(tx: Tx, scope: Scope, paymentId: string, now: Date): Promise<void> {
  const row = await moves.requirePaymentLocked(tx, scope, paymentId);
  await moves.holdRelease(tx, scope, row, now);
}
