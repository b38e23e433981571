// Placing an order that books time (POST /v1/orders with a booking, a listing of unit_type day or
// time; docs/bookings.md): the order's transaction of place-order.ts, with the booking in place of
// the units. After contract 9's refusals (planOrder, then the processor's two) the bookings module
// checks the booking (400 invalid_booking, 409 outside_availability, 409 time_unavailable on the
// unlocked reads), orders drafts the order with its amounts (price × units of time × seats) and
// writes it with its timer, payment, events and booking reminder (order.booking_starting); last, the listing's availability row is locked and
// the seats are held by one statement sent with the COMMIT, so the lock is held for that statement
// only. Two bookings racing for the last seat: the second waits for the lock, then finds the seat
// taken and raises, which rolls its transaction back (409 time_unavailable); the exclusion
// constraint of booked_seats holds even if the pick were wrong.
import { settleAll } from '../db/db.js';
import { exclusionViolation, refusal } from '../db/pg-errors.js';
import type { OperationContext } from '../contracts/context.js';
import { checkBooking, lockBookedListing, seatsReservation, timeUnavailable } from '../modules/bookings/index.js';
import { announceCreated, draftOrder, insertDraft, paymentView, scheduleBookingReminder, serializeOrder, setOrderPayment, type Order, type OrderPlan } from '../modules/orders/index.js';
import { assertCanPay, createOrderPayment, processorCallsAfterCommit } from '../modules/payments/index.js';

export async function placeBooking(ctx: OperationContext, plan: OrderPlan): Promise<Order> {
  const { scope, db } = ctx;
  const { listingId, sellerId, unitType, seats, slotMinutes } = plan.orderable;
  const listing = { id: listingId, unit_type: unitType, seats, slot_minutes: slotMinutes };
  let seatsAsked = 1;
  try {
    return await db.transaction(async (tx) => {
      if (plan.settings.payments_enabled) await assertCanPay(tx, scope, sellerId);
      const booking = (await checkBooking(tx, scope, listing, plan.body.booking, plan.quantity, plan.now))!;
      seatsAsked = booking.seats;
      const draft = draftOrder(plan, booking);
      let row = draft.row;
      const inserted = insertDraft(tx, scope, draft);
      if (row.state === 'awaiting_payment') {
        await settleAll([inserted]);
        const paymentId = await createOrderPayment(tx, scope, paymentView(row), plan.settings, plan.now, processorCallsAfterCommit(ctx));
        row = await setOrderPayment(tx, scope, row.id, paymentId);
      }
      const order = serializeOrder(row);
      await settleAll([inserted, announceCreated(tx, scope, plan.now, [order]), scheduleBookingReminder(tx, scope, order, plan.settings, plan.now)]);
      // Last: the listing's bookings take turns from here to the COMMIT, sent with the seats' hold.
      await lockBookedListing(tx, scope, listingId);
      const hold = seatsReservation(scope, booking, row.id);
      await tx.queryThenCommit(hold.sql, hold.params);
      return order;
    });
  } catch (error) {
    if (refusal(error) !== 'time_unavailable' && !exclusionViolation(error)) throw error;
    throw timeUnavailable(listingId, seatsAsked);
  }
}
