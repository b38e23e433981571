// What making an order checks and builds, shared by an order made alone (placing.ts,
// for src/flows/place-order.ts) and the orders of a checkout (checkout-orders.ts): the refusals of contract 9 on
// the inputs read by selectOrderInputs, the amounts, and the new row with its creation transition
// and events. The two differ only in how a refusal names its `param` (`listing` or
// `items[2].listing`), how many orders they make, and how they reserve the units.
import { DomainError, errors } from '../../errors.js';
import type { EventType } from '../../contracts/events.js';
import type { Settings } from '../../contracts/settings.js';
import { MAX_AMOUNT } from '../../http/schemas.js';
import { newId } from '../../ids.js';
import { STATE_WINDOW, type OrderState } from './machine.js';
import { newOrderRow, type OrderInputsRow, type OrderRow, type TransitionValues } from './queries.js';
import type { Order } from './schemas.js';

/** round_half_up(subtotal × percent_bps / 10000) + fixed_amount; a null member counts as 0. */
export function feeOf(subtotal: number, fee: { percent_bps: number | null; fixed_amount: number | null }): number {
  return Math.floor(((subtotal * (fee.percent_bps ?? 0)) + 5000) / 10_000) + (fee.fixed_amount ?? 0);
}

/** The `param` each refusal names: an order's own fields, or a checkout item's (`items[2].listing`). */
export interface InputParams {
  buyer: string;
  listing: string;
  quantity: string;
  /** Named by the 403s (self_order, seller_suspended); an order made alone names none. */
  party?: string;
}

export const ORDER_PARAMS: InputParams = { buyer: 'buyer', listing: 'listing', quantity: 'quantity' };

export function itemParams(index: number): InputParams {
  return { buyer: 'buyer', listing: `items[${index}].listing`, quantity: `items[${index}].quantity`, party: `items[${index}].listing` };
}

/** The inputs of an order that passed the refusals. */
export interface OrderableInputs {
  buyerId: string;
  listingId: string;
  sellerId: string;
  unitAmount: number;
  currency: string;
  fee: { percent_bps: number | null; fixed_amount: number | null } | null;
  /** What the listing sells (docs/bookings.md): counted units, or time (day, time) booked with a booking. */
  unitType: 'item' | 'day' | 'time';
  seats: number;
  slotMinutes: number | null;
}

/**
 * A booking checked by the bookings module: its time, seats, zone, and the units of time it
 * holds (nights or slots); the order's quantity is units × seats and it holds no counted units.
 */
export interface OrderBookingValues {
  start: Date;
  end: Date;
  seats: number;
  timeZone: string;
  units: number;
}

/**
 * Contract 9's refusals on the unlocked reads, in its order (docs/orders.md): 404 buyer, then
 * listing; 409 invalid_state for a listing not published, then an erased buyer; 403 self_order,
 * then seller_suspended. The payment hook's two and quantity_unavailable come after, from the
 * caller. `asked` is what was asked for, for the 404s' messages.
 */
export function checkOrderable(inputs: OrderInputsRow | undefined, asked: { buyer: string; listing: string }, params: InputParams): OrderableInputs {
  if (inputs?.buyer_id == null) throw errors.missing('buyer', asked.buyer, params.buyer);
  if (inputs.listing_id === null) throw errors.missing('listing', asked.listing, params.listing);
  if (inputs.listing_status !== 'published') throw listingNotOrderable(inputs.listing_id, inputs.listing_status!, params.listing);
  if (inputs.buyer_erased_at !== null) throw new DomainError('invalid_state', `The buyer ${inputs.buyer_id} is erased; it cannot start orders.`, params.buyer);
  const buyerExternalId = inputs.buyer_external_id;
  if (buyerExternalId !== null && buyerExternalId === inputs.seller_external_id) {
    throw errors.forbidden('self_order', `The buyer and the seller have the same external id ('${buyerExternalId}'); they cannot trade with each other.`, params.party);
  }
  const sellerId = inputs.seller_id!; // a listing's seller always exists (a foreign key)
  if (inputs.seller_status === 'suspended') throw errors.forbidden('seller_suspended', `The seller ${sellerId} is suspended and cannot take orders.`, params.party);
  return {
    buyerId: inputs.buyer_id,
    listingId: inputs.listing_id,
    sellerId,
    unitAmount: Number(inputs.price_amount),
    currency: inputs.currency!,
    fee: inputs.category_fee,
    unitType: inputs.unit_type ?? 'item',
    seats: inputs.seats ?? 1,
    slotMinutes: inputs.slot_minutes,
  };
}

export function listingNotOrderable(id: string, status: string, param: string): DomainError {
  return new DomainError('invalid_state', `The listing ${id} is ${status}; it cannot be ordered.`, param);
}

/** What an order's creation body gives besides its buyer, listing and quantity. */
export interface OrderOptions {
  payment_method?: string;
  success_url?: string;
  cancel_url?: string;
  metadata?: Record<string, string>;
}

export interface NewOrder {
  row: OrderRow;
  transition: TransitionValues;
}

/**
 * The row of a new order, its amounts fixed now (the fee from the listing's category, else the
 * mode's platform_fee), and its creation transition: `committed` with payments off,
 * `awaiting_payment` with them, its deadline the window of that state. 400 when its total would
 * exceed MAX_AMOUNT.
 */
export function newOrder(
  inputs: OrderableInputs,
  quantity: number,
  options: OrderOptions,
  checkoutId: string | null,
  settings: Settings,
  now: Date,
  params: InputParams,
  booking: OrderBookingValues | null = null,
): NewOrder {
  if (booking !== null) quantity = booking.units * booking.seats;
  const subtotal = inputs.unitAmount * quantity;
  const feeAmount = feeOf(subtotal, inputs.fee ?? settings.platform_fee);
  if (subtotal + feeAmount > MAX_AMOUNT) {
    throw errors.invalidRequest(`The order's total would exceed ${MAX_AMOUNT} minor units; order fewer units.`, booking === null ? params.quantity : 'booking');
  }
  const state: OrderState = settings.payments_enabled ? 'awaiting_payment' : 'committed';
  const deadline = new Date(now.getTime() + settings[STATE_WINDOW[state]!.setting] * 1000);
  const row = newOrderRow({
    id: newId('order'),
    buyer_id: inputs.buyerId,
    seller_id: inputs.sellerId,
    listing_id: inputs.listingId,
    quantity,
    unit_amount: inputs.unitAmount,
    subtotal,
    fee_amount: feeAmount,
    total: subtotal + feeAmount,
    currency: inputs.currency,
    state,
    units: booking === null ? 'reserved' : 'none',
    payment_id: null,
    payment_method: options.payment_method ?? 'checkout_session',
    success_url: options.success_url ?? null,
    cancel_url: options.cancel_url ?? null,
    cancellation_proposed_by: null,
    cancellation_reason: null,
    cancellation_proposed_at: null,
    dispute_id: null,
    deadline,
    metadata: options.metadata ?? {},
    checkout_id: checkoutId,
    booking_start: booking?.start ?? null,
    booking_end: booking?.end ?? null,
    booking_seats: booking?.seats ?? null,
    booking_time_zone: booking?.timeZone ?? null,
    claimed_at: null,
    completed_at: null,
    cancelled_at: null,
    expired_at: null,
    created_at: now,
  });
  const transition: TransitionValues = { id: newId('orderTransition'), from: null, to: state, transition: 'create', actor: null, reason: null };
  return { row, transition };
}

/** A new order's events: order.created, and order.committed when it starts committed. */
export function createdEvents(order: Order): Array<{ type: EventType; object: Order }> {
  return order.state === 'committed'
    ? [{ type: 'order.created', object: order }, { type: 'order.committed', object: order }]
    : [{ type: 'order.created', object: order }];
}

/** What an order (or a checkout's orders) refused for: a listing's units are short. */
export function quantityUnavailable(listingId: string, available: number, asked: number, who: 'order' | 'checkout', param: string): DomainError {
  return new DomainError('quantity_unavailable', `The listing ${listingId} has ${available} units available; the ${who} asks for ${asked}.`, param);
}

/** The payment hooks' view of an order. */
export function paymentView(row: OrderRow) {
  return {
    id: row.id,
    buyer: row.buyer_id,
    seller: row.seller_id,
    listing: row.listing_id,
    subtotal: Number(row.subtotal),
    fee_amount: Number(row.fee_amount),
    total: Number(row.total),
    currency: row.currency,
    payment_method: row.payment_method,
    success_url: row.success_url,
    cancel_url: row.cancel_url,
  };
}
