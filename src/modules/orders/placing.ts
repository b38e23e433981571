// The orders' part of placing one order (src/flows/place-order.ts calls these in order): the
// rules' unlocked reads and refusals before the transaction (planOrder), then in it the new row
// with its amounts (draftOrder), its INSERT with its timer (insertDraft), its payment's id once
// the payments module made one (setOrderPayment), its events (announceCreated); after a rollback
// for units, which refusal that was (unitsRefusal).
import type { Db, Tx } from '../../db/db.js';
import type { DomainError } from '../../errors.js';
import type { OperationContext } from '../../contracts/context.js';
import type { Settings } from '../../contracts/settings.js';
import { emitEvents } from '../../outbox/emit.js';
import type { Scope } from '../../scope.js';
import { findListingForOrder } from '../listings/index.js';
import { settingsAndNowOf } from '../marketplaces/index.js';
import { checkOrderable, createdEvents, listingNotOrderable, newOrder, ORDER_PARAMS, quantityUnavailable, type NewOrder, type OrderableInputs, type OrderBookingValues } from './creation.js';
import { STATE_WINDOW } from './machine.js';
import { insertOrder, selectOrderInputs, updateOrderPayment, type OrderRow } from './queries.js';
import type { CreateOrderBody, Order } from './schemas.js';

/** An order that passed contract 9's refusals on the unlocked reads, with the mode's settings and time. */
export interface OrderPlan {
  readonly body: CreateOrderBody;
  readonly orderable: OrderableInputs;
  readonly quantity: number;
  readonly settings: Settings;
  readonly now: Date;
}

/**
 * The rules read without locks, so their reads run before the transaction, in one statement: the
 * transaction then holds its connection for its writes only (a time that bounds the orders per
 * second of a pool). Inside an Idempotency-Key's transaction they simply join it. Refusals in
 * contract 9's order (docs/orders.md): 404 buyer, then listing; 409 invalid_state; 403 self_order,
 * seller_suspended. The processor's two and quantity_unavailable come after, from the flow.
 */
export async function planOrder(ctx: OperationContext, body: CreateOrderBody): Promise<OrderPlan> {
  const [inputs] = await selectOrderInputs(ctx.db, ctx.scope, body.buyer, [body.listing]);
  const { settings, now } = settingsAndNowOf(ctx.clock, ctx.scope, inputs ?? { settings: {}, clock_offset_ms: 0 });
  const orderable = checkOrderable(inputs, body, ORDER_PARAMS);
  return { body, orderable, quantity: body.quantity ?? 1, settings, now };
}

/**
 * The new order's row and creation transition, amounts fixed; 400 when its total exceeds
 * MAX_AMOUNT. With a booking (checked by the bookings module) its quantity is the booking's units
 * of time × seats, and it holds no counted units.
 */
export function draftOrder(plan: OrderPlan, booking: OrderBookingValues | null = null): NewOrder {
  return newOrder(plan.orderable, plan.quantity, plan.body, null, plan.settings, plan.now, ORDER_PARAMS, booking);
}

/** Writes the drafted order, its transition and its window's timer (one statement). */
export function insertDraft(tx: Tx, scope: Scope, draft: NewOrder): Promise<void> {
  return insertOrder(tx, scope, draft.row, draft.transition, STATE_WINDOW[draft.row.state]!.timer);
}

/** Names the order's payment (its own, or its share of a checkout's charge). */
export function setOrderPayment(tx: Tx, scope: Scope, orderId: string, paymentId: string): Promise<OrderRow> {
  return updateOrderPayment(tx, scope, orderId, paymentId);
}

/** New orders' events, in order: order.created, and order.committed for one made committed. */
export function announceCreated(tx: Tx, scope: Scope, now: Date, orders: readonly Order[]): Promise<unknown> {
  return emitEvents(tx, scope, now, orders.flatMap(createdEvents));
}

/** After the reservation refused (the transaction rolled back): a listing no longer published, or too few units. */
export async function unitsRefusal(db: Db, scope: Scope, listingId: string, quantity: number): Promise<DomainError> {
  const current = await findListingForOrder(db, scope, listingId);
  if (current && current.status !== 'published') return listingNotOrderable(listingId, current.status, 'listing');
  return quantityUnavailable(listingId, current?.quantity_available ?? 0, quantity, 'order', 'quantity');
}
