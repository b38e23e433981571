// The orders of a checkout (src/modules/checkouts/), made in the checkout's transaction in two
// steps around the checkout's own row: reserveCheckoutOrders checks every item as createOrder
// checks an order (creation.ts, the same code), fixes the amounts and reserves every unit, all or
// nothing; writeCheckoutOrders then writes the orders, their timers, their payment shares (with
// payments on) and their events. The checkout's row is written between the two: the orders name
// it (a foreign key), and the payment is made once the checkout and its orders exist.
import { settleAll, type Tx } from '../../db/db.js';
import { errors } from '../../errors.js';
import { emitEvents } from '../../outbox/emit.js';
import type { OperationContext } from '../../contracts/context.js';
import type { Settings } from '../../contracts/settings.js';
import { MAX_AMOUNT } from '../../http/schemas.js';
import { reserveUnitsOfListings, type UnitsWanted } from '../listings/index.js';
import { settingsAndNowOf } from '../marketplaces/index.js';
import { checkOrderable, createdEvents, itemParams, listingNotOrderable, newOrder, paymentView, quantityUnavailable, type NewOrder } from './creation.js';
import { STATE_WINDOW } from './machine.js';
import { insertOrder, selectOrderInputs, updateOrderPayment } from './queries.js';
import type { Order } from './schemas.js';
import { serializeOrder } from './serialize.js';

export interface CheckoutItem {
  listing: string;
  quantity?: number;
}

export interface CheckoutOrdersRequest {
  /** The checkout's id, chosen by the caller: each order's `checkout`. */
  checkout: string;
  buyer: string;
  items: readonly CheckoutItem[];
  payment_method?: string;
  success_url?: string;
  cancel_url?: string;
}

/** A checkout's orders, checked, their amounts fixed and their units reserved, not yet written. */
export interface ReservedCheckoutOrders {
  readonly request: CheckoutOrdersRequest;
  /** One per item, in item order. */
  readonly made: readonly NewOrder[];
  readonly orderIds: readonly string[];
  readonly currency: string;
  readonly subtotal: number;
  readonly feeAmount: number;
  readonly total: number;
  /** The shared payment window's end with payments on (every order's deadline); else null. */
  readonly expiresAt: Date | null;
  readonly settings: Settings;
  readonly now: Date;
}

/**
 * Checks every item in item order with contract 9's refusals (404 buyer, `items[i].listing`; 409
 * invalid_state; 403 self_order, seller_suspended), then with payments on the processor's
 * (assertCanPay, once per seller, in the order the sellers first appear), fixes each order's
 * amounts (its own category's fee, else the mode's), and reserves the units of all items, the
 * items of one listing as one reservation, locking the listings in id order. A short listing
 * answers 409 quantity_unavailable naming the first of its items (`items[i].quantity`); nothing is
 * reserved then (the caller's transaction rolls back with the error).
 */
export async function reserveCheckoutOrders(tx: Tx, ctx: OperationContext, request: CheckoutOrdersRequest): Promise<ReservedCheckoutOrders> {
  const { scope } = ctx;
  const { items } = request;
  const inputs = await selectOrderInputs(tx, scope, request.buyer, items.map((item) => item.listing));
  const { settings, now } = settingsAndNowOf(ctx.clock, scope, inputs[0] ?? { settings: {}, clock_offset_ms: 0 });
  const orderable = items.map((item, i) => checkOrderable(inputs[i], { buyer: request.buyer, listing: item.listing }, itemParams(i)));
  if (settings.payments_enabled) {
    for (const sellerId of new Set(orderable.map((o) => o.sellerId))) await ctx.hooks.orderPayments.assertCanPay(tx, scope, sellerId, settings);
  }
  const made = orderable.map((o, i) => newOrder(o, items[i]!.quantity ?? 1, request, request.checkout, settings, now, itemParams(i)));
  const sum = (field: 'subtotal' | 'fee_amount' | 'total') => made.reduce((total, m) => total + Number(m.row[field]), 0);
  const total = sum('total');
  if (total > MAX_AMOUNT) throw errors.invalidRequest(`The checkout's total would exceed ${MAX_AMOUNT} minor units; order fewer items or units.`, 'items');

  // One reservation per listing, its items' quantities summed, in the order listings first appear
  // (the short one answered is then the first in item order); the lock order is the statement's.
  const wanted = new Map<string, UnitsWanted>();
  for (const { row } of made) {
    const units = wanted.get(row.listing_id) ?? { listing: row.listing_id, quantity: 0 };
    units.quantity += row.quantity;
    wanted.set(row.listing_id, units);
  }
  const short = await reserveUnitsOfListings(tx, scope, [...wanted.values()]);
  if (short) {
    const first = made.findIndex((m) => m.row.listing_id === short.listing);
    const params = itemParams(first);
    if (short.status === null) throw errors.missing('listing', short.listing, params.listing);
    if (short.status !== 'published') throw listingNotOrderable(short.listing, short.status, params.listing);
    throw quantityUnavailable(short.listing, short.available, wanted.get(short.listing)!.quantity, 'checkout', params.quantity);
  }
  return {
    request,
    made,
    orderIds: made.map((m) => m.row.id),
    currency: made[0]!.row.currency,
    subtotal: sum('subtotal'),
    feeAmount: sum('fee_amount'),
    total,
    expiresAt: settings.payments_enabled ? made[0]!.row.deadline : null,
    settings,
    now,
  };
}

/**
 * Writes the reserved orders (after the checkout's row), their window timers, and with payments
 * on the checkout's payment (ctx.hooks.orderPayments.createCheckoutPayment: one charge, a share
 * per order, each order's payment_id its share), then every order's events in item order
 * (order.created, and order.committed with payments off). Answers the orders and the charge.
 */
export async function writeCheckoutOrders(tx: Tx, ctx: OperationContext, reserved: ReservedCheckoutOrders): Promise<{ orders: Order[]; payment: string | null }> {
  const { scope } = ctx;
  const { made, settings, now, request } = reserved;
  const written: Array<Promise<unknown>> = [];
  for (const { row, transition } of made) {
    written.push(insertOrder(tx, scope, row, transition, STATE_WINDOW[row.state]!.timer));
  }
  await settleAll(written);
  let rows = made.map((m) => m.row);
  let payment: string | null = null;
  if (settings.payments_enabled) {
    const paid = await ctx.hooks.orderPayments.createCheckoutPayment(
      tx,
      scope,
      {
        id: request.checkout,
        buyer: request.buyer,
        currency: reserved.currency,
        subtotal: reserved.subtotal,
        fee_amount: reserved.feeAmount,
        total: reserved.total,
        payment_method: request.payment_method ?? 'checkout_session',
        success_url: request.success_url ?? null,
        cancel_url: request.cancel_url ?? null,
        orders: rows.map(paymentView),
      },
      settings,
      now,
      ctx,
    );
    payment = paid.payment;
    const updated = rows.map((row, i) => updateOrderPayment(tx, scope, row.id, paid.orderPayments[i]!));
    await settleAll(updated);
    rows = await Promise.all(updated);
  }
  const orders = rows.map(serializeOrder);
  await emitEvents(tx, scope, now, orders.flatMap(createdEvents));
  return { orders, payment };
}
