// The orders of a checkout, in the steps src/flows/check-out.ts takes in the checkout's
// transaction: checkCheckoutItems checks every item as an order made alone is checked
// (creation.ts, the same code); draftCheckoutOrders fixes the amounts and the units each listing
// gives; the flow reserves them (listings) and asks the sellers' processors (payments) between
// these; shortListingRefusal names the item a short listing refuses; insertCheckoutOrders writes
// the orders and their timers once the checkout's row exists (the orders name it, a foreign key).
import { settleAll, type Tx } from '../../db/db.js';
import { errors, type DomainError } from '../../errors.js';
import type { OperationContext } from '../../contracts/context.js';
import type { Settings } from '../../contracts/settings.js';
import { MAX_AMOUNT } from '../../http/schemas.js';
import type { ShortListing, UnitsWanted } from '../listings/index.js';
import { settingsAndNowOf } from '../marketplaces/index.js';
import { checkOrderable, itemParams, listingNotOrderable, newOrder, quantityUnavailable, type NewOrder, type OrderableInputs } from './creation.js';
import { STATE_WINDOW } from './machine.js';
import { insertOrder, selectOrderInputs, updateOrderPayment, type OrderRow } from './queries.js';

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

/** A checkout's items that passed contract 9's refusals, with the mode's settings and time. */
export interface CheckedCheckoutItems {
  readonly request: CheckoutOrdersRequest;
  /** One per item, in item order. */
  readonly orderable: readonly OrderableInputs[];
  /** The sellers, in the order they first appear (the processor's refusals are asked in it). */
  readonly sellerIds: readonly string[];
  readonly settings: Settings;
  readonly now: Date;
}

/** A checkout's orders, checked and their amounts fixed, not yet reserved nor written. */
export interface DraftedCheckoutOrders {
  readonly request: CheckoutOrdersRequest;
  /** One per item, in item order. */
  readonly made: readonly NewOrder[];
  readonly orderIds: readonly string[];
  readonly currency: string;
  readonly subtotal: number;
  readonly feeAmount: number;
  readonly total: number;
  /** The units to reserve: one reservation per listing, its items' quantities summed, in the order listings first appear. */
  readonly units: readonly UnitsWanted[];
  /** The shared payment window's end with payments on (every order's deadline); else null. */
  readonly expiresAt: Date | null;
  readonly settings: Settings;
  readonly now: Date;
}

/**
 * Checks every item in item order with contract 9's refusals (404 buyer, `items[i].listing`; 409
 * invalid_state; 403 self_order, seller_suspended), reading in the checkout's transaction.
 */
export async function checkCheckoutItems(tx: Tx, ctx: OperationContext, request: CheckoutOrdersRequest): Promise<CheckedCheckoutItems> {
  const { items } = request;
  const inputs = await selectOrderInputs(tx, ctx.scope, request.buyer, items.map((item) => item.listing));
  const { settings, now } = settingsAndNowOf(ctx.clock, ctx.scope, inputs[0] ?? { settings: {}, clock_offset_ms: 0 });
  const orderable = items.map((item, i) => checkOrderable(inputs[i], { buyer: request.buyer, listing: item.listing }, itemParams(i)));
  return { request, orderable, sellerIds: [...new Set(orderable.map((o) => o.sellerId))], settings, now };
}

/**
 * Fixes each order's amounts (its own category's fee, else the mode's; 400 when the checkout's
 * total exceeds MAX_AMOUNT) and sums the units each listing must give.
 */
export function draftCheckoutOrders(checked: CheckedCheckoutItems): DraftedCheckoutOrders {
  const { request, settings, now } = checked;
  checked.orderable.forEach((o, i) => {
    if (o.unitType !== 'item') {
      throw errors.invalidRequest(`The listing ${o.listingId} sells time (unit_type ${o.unitType}); book it with POST /v1/orders and a booking.`, `items[${i}].listing`);
    }
  });
  const made = checked.orderable.map((o, i) => newOrder(o, request.items[i]!.quantity ?? 1, request, request.checkout, settings, now, itemParams(i)));
  const sum = (field: 'subtotal' | 'fee_amount' | 'total') => made.reduce((total, m) => total + Number(m.row[field]), 0);
  const total = sum('total');
  if (total > MAX_AMOUNT) throw errors.invalidRequest(`The checkout's total would exceed ${MAX_AMOUNT} minor units; order fewer items or units.`, 'items');
  // One reservation per listing, in the order listings first appear (the short one answered is
  // then the first in item order); the lock order is the reserving statement's.
  const wanted = new Map<string, UnitsWanted>();
  for (const { row } of made) {
    const units = wanted.get(row.listing_id) ?? { listing: row.listing_id, quantity: 0 };
    units.quantity += row.quantity;
    wanted.set(row.listing_id, units);
  }
  return {
    request,
    made,
    orderIds: made.map((m) => m.row.id),
    currency: made[0]!.row.currency,
    subtotal: sum('subtotal'),
    feeAmount: sum('fee_amount'),
    total,
    units: [...wanted.values()],
    expiresAt: settings.payments_enabled ? made[0]!.row.deadline : null,
    settings,
    now,
  };
}

/** What a listing the reservation found short refuses: named by the first of its items (`items[i].listing` or `.quantity`). */
export function shortListingRefusal(drafted: DraftedCheckoutOrders, short: ShortListing): DomainError {
  const first = drafted.made.findIndex((m) => m.row.listing_id === short.listing);
  const params = itemParams(first);
  if (short.status === null) return errors.missing('listing', short.listing, params.listing);
  if (short.status !== 'published') return listingNotOrderable(short.listing, short.status, params.listing);
  const asked = drafted.units.find((units) => units.listing === short.listing)!.quantity;
  return quantityUnavailable(short.listing, short.available, asked, 'checkout', params.quantity);
}

/** Writes the drafted orders (after the checkout's row) and their window timers; answers their rows. */
export async function insertCheckoutOrders(tx: Tx, ctx: OperationContext, drafted: DraftedCheckoutOrders): Promise<OrderRow[]> {
  await settleAll(drafted.made.map(({ row, transition }) => insertOrder(tx, ctx.scope, row, transition, STATE_WINDOW[row.state]!.timer)));
  return drafted.made.map((m) => m.row);
}

/** Names each order's share of the checkout's charge (in the orders' order); answers the rows. */
export async function setCheckoutOrderPayments(tx: Tx, ctx: OperationContext, rows: readonly OrderRow[], paymentIds: readonly string[]): Promise<OrderRow[]> {
  const updated = rows.map((row, i) => updateOrderPayment(tx, ctx.scope, row.id, paymentIds[i]!));
  await settleAll(updated);
  return Promise.all(updated);
}
