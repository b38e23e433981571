// What an order's move means for the time it booked, the same for every flow that moves an order
// (a party's or the platform's move, a window's timer, a dispute's decision): an order that ended
// (cancelled, expired) frees its time in the move's transaction (the bookings module deletes its
// held seats), whoever ended it and whenever; a completed order keeps it. An order of counted
// units has no booking and nothing follows.
import type { Tx } from '../db/db.js';
import type { Scope } from '../scope.js';
import { releaseBooking } from '../modules/bookings/index.js';
import type { OrderMove } from '../modules/orders/index.js';

export async function bookingFollowsOrder(tx: Tx, scope: Scope, move: OrderMove): Promise<void> {
  if (move.order.booking === null) return;
  if (move.to === 'cancelled' || move.to === 'expired') await releaseBooking(tx, scope, move.order.id);
}
