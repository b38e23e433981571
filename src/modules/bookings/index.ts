// The bookings module's public surface: what the flows and the composition root may use of it
// (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { checkBooking, getAvailability, listTimeslots, lockBookedListing, putAvailability, releaseBooking, seatsReservation, timeUnavailable } from './operations.js';
export type { BookableListing, BookingAsked, BookingPlan } from './operations.js';
export { Availability, PutAvailabilityBody, Timeslot, TimeslotList, TimeslotsQuery } from './schemas.js';
