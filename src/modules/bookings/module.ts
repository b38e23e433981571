// The bookings module's manifest (src/contracts/wiring.ts): a listing's availability and the time
// open orders hold. Its routes start flows (they read the listing first: src/flows/listing-availability.ts),
// so they are declared by the flows (src/flows/manifests.ts); an order's booking is placed by
// src/flows/place-booking.ts and freed by src/flows/order-booking.ts.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { BOOKING_ERROR_CODES } from './declarations.js';

export const bookingsModule: ModuleManifest = {
  name: 'bookings',
  tables: ['listing_availability', 'booked_seats'],
  errorCodes: BOOKING_ERROR_CODES,
  tags: [{ name: 'Availability', description: "When a listing that sells time (unit_type day or time) can be booked, and its bookable time slots (docs/bookings.md).", rank: 35 }],
};
