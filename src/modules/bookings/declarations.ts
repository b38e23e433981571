// What the bookings module declares for the composition root to assemble (its manifest lists it):
// its error codes with their HTTP statuses. The `declare module` makes each code a checked ErrorCode.
import type { CodesOf } from '../../contracts/wiring.js';

export const BOOKING_ERROR_CODES = {
  /** The time asked is offered, but too few of its seats are free (taken by other bookings, or their buffers). */
  time_unavailable: 409,
  /** The time asked is not offered at all: outside the rules, closed by an exception, within the notice or past the horizon, off the slot grid. */
  outside_availability: 409,
  /** A booking that cannot be read as one: its times, its seats, or a booking for a listing that sells counted units (its `param` names the field). */
  invalid_booking: 400,
} as const;

type BookingErrorCodes = CodesOf<typeof BOOKING_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends BookingErrorCodes {}
}
