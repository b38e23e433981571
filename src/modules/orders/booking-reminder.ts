// The reminder of an order that booked time (docs/bookings.md): `order.booking_starting`, emitted
// once, the mode's booking_reminder_seconds before the booking's start (at once when the booking
// starts sooner), by the orders module's own timer. The timer is set when the order is placed
// (src/flows/place-booking.ts) and is never cancelled: when it runs, an order that is not
// committed, claimed or completed (awaiting payment, cancelled, expired, disputed), or whose time
// has begun, gets no reminder.
import type { Tx } from '../../db/db.js';
import type { TimerHandler } from '../../contracts/background.js';
import type { Settings } from '../../contracts/settings.js';
import { emitEvent } from '../../outbox/emit.js';
import type { Scope } from '../../scope.js';
import { scheduleTimer } from '../../workers/timers.js';
import { lockOrder } from './queries.js';
import type { Order } from './schemas.js';
import { serializeOrder } from './serialize.js';

export const BOOKING_STARTING_TIMER = 'order.booking_starting';

/** Sets the order's reminder; none when the order books no time or the setting is 0. */
export async function scheduleBookingReminder(tx: Tx, scope: Scope, order: Order, settings: Settings, now: Date): Promise<void> {
  if (order.booking === null || settings.booking_reminder_seconds === 0) return;
  const at = Date.parse(order.booking.start) - settings.booking_reminder_seconds * 1000;
  await scheduleTimer(tx, scope, BOOKING_STARTING_TIMER, order.id, new Date(Math.max(at, now.getTime())));
}

export const bookingStartingTimer: TimerHandler = async (tx, scope, timer, now) => {
  const order = await lockOrder(tx, scope, timer.subjectId);
  if (!order || order.booking_start === null || order.booking_start <= now) return;
  if (order.state !== 'committed' && order.state !== 'claimed' && order.state !== 'completed') return;
  await emitEvent(tx, scope, now, 'order.booking_starting', serializeOrder(order));
};
