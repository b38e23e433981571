// Placing one order (POST /v1/orders, contract 9): one transaction, the modules' steps in the order
// the contract states them, and its few round trips in an order chosen for a hot listing. The
// rules' unlocked reads run before the transaction; in it the order, its timer, (payments on) its
// payment and its events are written first, and the listing's row is locked last, by the one
// conditional UPDATE that reserves the units, sent with the COMMIT, so the lock is held for that
// statement only. After the COMMIT the request makes the processor's start call (payments on), so
// the answer's payment page exists. docs/flows.md counts the round trips.
import { settleAll } from '../db/db.js';
import { refusal } from '../db/pg-errors.js';
import type { OperationContext } from '../contracts/context.js';
import { unitsReservation } from '../modules/listings/index.js';
import { announceCreated, draftOrder, insertDraft, paymentView, planOrder, serializeOrder, setOrderPayment, unitsRefusal, type CreateOrderBody, type Order } from '../modules/orders/index.js';
import { assertCanPay, createOrderPayment, processorCallsAfterCommit } from '../modules/payments/index.js';
import { placeBooking } from './place-booking.js';

/**
 * Refusals in contract 9's order: 404 buyer or listing; 409 invalid_state (listing not published,
 * buyer erased); 403 self_order, seller_suspended, then with payments on processor_not_connected,
 * seller_payouts_not_enabled; 400 a total over the maximum; 409 quantity_unavailable. A booking's
 * (place-booking.ts) take the last place.
 */
export async function placeOrder(ctx: OperationContext, body: CreateOrderBody): Promise<Order> {
  const { scope, db } = ctx;
  const plan = await planOrder(ctx, body);
  // An order of a listing that sells time (or one that asks for a booking) books time instead of units.
  if (plan.orderable.unitType !== 'item' || body.booking !== undefined) return placeBooking(ctx, plan);
  const { listingId, sellerId } = plan.orderable;
  try {
    return await db.transaction(async (tx) => {
      if (plan.settings.payments_enabled) await assertCanPay(tx, scope, sellerId);
      const draft = draftOrder(plan);
      let row = draft.row;
      // Nothing here waits for an answer before the next statement (the order's row is made here,
      // not read back): on PostgreSQL's pipelined connection the BEGIN, the order, its timer, its
      // events and their subscribers' statements leave in one write and share one round trip.
      const inserted = insertDraft(tx, scope, draft);
      if (row.state === 'awaiting_payment') {
        await settleAll([inserted]);
        const paymentId = await createOrderPayment(tx, scope, paymentView(row), plan.settings, plan.now, processorCallsAfterCommit(ctx));
        row = await setOrderPayment(tx, scope, row.id, paymentId);
      }
      const order = serializeOrder(row);
      await settleAll([inserted, announceCreated(tx, scope, plan.now, [order])]);
      // Last, sent with the COMMIT: the listing's row is locked for no round trip of the network.
      const reserve = unitsReservation(scope, listingId, plan.quantity);
      await tx.queryThenCommit(reserve.sql, reserve.params);
      return order;
    });
  } catch (error) {
    if (refusal(error) !== 'units_unavailable') throw error;
    // The transaction rolled back; tell a listing no longer published from too few units.
    throw await unitsRefusal(db, scope, listingId, plan.quantity);
  }
}
