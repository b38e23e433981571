// Bookings: a listing's availability (set and read), its time slots, and the checks and steps of
// an order that books time (src/flows/place-booking.ts calls them in order): checkBooking before
// the order is written, lockBookedListing and seatsReservation last, with the COMMIT;
// releaseBooking when an order that held time ends (src/flows/order-booking.ts). docs/bookings.md.
import type { Queryable, Tx } from '../../db/db.js';
import type { ListEnvelope } from '../../db/paging.js';
import { DomainError, errors } from '../../errors.js';
import type { Scope } from '../../scope.js';
import type { Statement } from '../listings/index.js';
import {
  deleteBookedSeats,
  lockAvailability,
  reserveSeatsStatement,
  selectAvailability,
  selectSlots,
  upsertAvailability,
  type AvailabilityRow,
  type StoredException,
  type StoredRule,
} from './queries.js';
import { BOOKING_DAYS_MAX, TIMESLOTS_DAYS_MAX, type Availability, type PutAvailabilityBody, type Timeslot, type TimeslotsQuery } from './schemas.js';
import { canonicalZone, isDate, localIso, readTime } from './zones.js';

const DAY_MS = 86_400_000;
export const DEFAULT_MAX_ADVANCE_DAYS = 365;

/** What the bookings module needs of a listing (the listings module's row has these fields). */
export interface BookableListing {
  id: string;
  unit_type: 'item' | 'day' | 'time';
  seats: number;
  slot_minutes: number | null;
}

/** A listing that sells time: day or time. */
type TimeListing = BookableListing & { unit_type: 'day' | 'time' };

function sellsTime(listing: BookableListing): listing is TimeListing {
  return listing.unit_type !== 'item';
}

function assertSellsTime(listing: BookableListing, action: string): asserts listing is TimeListing {
  if (!sellsTime(listing)) {
    throw new DomainError('invalid_state', `The listing ${listing.id} sells counted units (unit_type item); it has no ${action}. Create a listing of unit_type day or time.`);
  }
}

// ---- availability ----

/** Sets (replaces) a listing's availability; the caller holds the listing. 409 for an item listing, 400 naming the field. */
export async function putAvailability(tx: Tx, scope: Scope, listing: BookableListing, body: PutAvailabilityBody, now: Date): Promise<Availability> {
  assertSellsTime(listing, 'availability');
  const zone = canonicalZone(body.time_zone);
  if (zone === null) throw errors.invalidRequest(`time_zone must be an IANA time zone such as Europe/Berlin ('${body.time_zone}' is not one).`, 'time_zone');
  const rules = body.rules.map((rule, i): StoredRule => {
    const at = `rules[${i}]`;
    if (rule.seats !== undefined && rule.seats > listing.seats) throw errors.invalidRequest(`${at}.seats is ${rule.seats}; the listing has ${listing.seats} seats.`, `${at}.seats`);
    if (listing.unit_type === 'day') {
      if (rule.start !== undefined || rule.end !== undefined) {
        throw errors.invalidRequest(`A day listing's rules offer whole days: give ${at}.days without start or end.`, rule.start !== undefined ? `${at}.start` : `${at}.end`);
      }
      return { days: rule.days, start: null, end: null, seats: rule.seats ?? null };
    }
    if (rule.start === undefined) throw errors.invalidRequest(`A time listing's rule needs a start (HH:MM).`, `${at}.start`);
    if (rule.end === undefined) throw errors.invalidRequest(`A time listing's rule needs an end (HH:MM, up to 24:00).`, `${at}.end`);
    if (rule.start === '24:00' || rule.end <= rule.start) throw errors.invalidRequest(`${at}.end (${rule.end}) must come after its start (${rule.start}) on the same day.`, `${at}.end`);
    return { days: rule.days, start: rule.start, end: rule.end, seats: rule.seats ?? null };
  });
  const exceptions = (body.exceptions ?? []).map((exception, i): StoredException => {
    const at = `exceptions[${i}]`;
    const start = readTime(exception.start, zone, true);
    if (start === null) throw errors.invalidRequest(`${at}.start must be an ISO 8601 timestamp or a date (2026-10-24).`, `${at}.start`);
    const end = readTime(exception.end, zone, true);
    if (end === null) throw errors.invalidRequest(`${at}.end must be an ISO 8601 timestamp or a date (2026-10-24).`, `${at}.end`);
    if (end <= start) throw errors.invalidRequest(`${at}.end must come after its start.`, `${at}.end`);
    if (exception.seats !== undefined && !exception.available) throw errors.invalidRequest(`${at}.seats is for an exception that opens time (available: true).`, `${at}.seats`);
    if (exception.seats !== undefined && exception.seats > listing.seats) throw errors.invalidRequest(`${at}.seats is ${exception.seats}; the listing has ${listing.seats} seats.`, `${at}.seats`);
    return { start: start.toISOString(), end: end.toISOString(), available: exception.available, seats: exception.seats ?? null, reason: exception.reason ?? null };
  });
  const row = await upsertAvailability(
    tx,
    scope,
    {
      listing_id: listing.id,
      time_zone: zone,
      rules,
      exceptions,
      buffer_minutes: body.buffer_minutes ?? 0,
      min_notice_minutes: body.min_notice_minutes ?? 0,
      max_advance_days: body.max_advance_days ?? DEFAULT_MAX_ADVANCE_DAYS,
    },
    now,
  );
  return serializeAvailability(row, listing);
}

/** A listing's availability; one never set offers nothing (no rules, `updated_at` null). 409 for an item listing. */
export async function getAvailability(q: Queryable, scope: Scope, listing: BookableListing): Promise<Availability> {
  assertSellsTime(listing, 'availability');
  const row = await selectAvailability(q, scope, listing.id);
  if (row) return serializeAvailability(row, listing);
  return {
    object: 'availability',
    listing: listing.id,
    time_zone: 'UTC',
    rules: [],
    exceptions: [],
    buffer_minutes: 0,
    min_notice_minutes: 0,
    max_advance_days: DEFAULT_MAX_ADVANCE_DAYS,
    updated_at: null,
  };
}

function serializeAvailability(row: AvailabilityRow, listing: BookableListing): Availability {
  const zone = row.time_zone;
  return {
    object: 'availability',
    listing: row.listing_id,
    time_zone: zone,
    rules: row.rules.map((rule) => ({ days: rule.days as Availability['rules'][number]['days'], start: rule.start, end: rule.end, seats: Math.min(rule.seats ?? listing.seats, listing.seats) })),
    exceptions: row.exceptions.map((exception) => {
      const start = new Date(exception.start);
      const end = new Date(exception.end);
      return {
        start: start.toISOString(),
        end: end.toISOString(),
        start_local: localIso(start, zone),
        end_local: localIso(end, zone),
        available: exception.available,
        seats: exception.seats,
        reason: exception.reason,
      };
    }),
    buffer_minutes: row.buffer_minutes,
    min_notice_minutes: row.min_notice_minutes,
    max_advance_days: row.max_advance_days,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

// ---- time slots ----

/** An API time of a query or booking, as an instant for checks; dates read as UTC midnight (only for bounds). */
function roughInstant(text: string): number | null {
  if (isDate(text)) return Date.parse(`${text}T00:00:00Z`);
  const at = readTime(text, 'UTC', false);
  return at === null ? null : at.getTime();
}

/**
 * The listing's bookable slots that start in [start, end), with seats_available >= seats: one
 * statement (selectSlots). 400 for a range that is not one or spans more than 90 days.
 */
export async function listTimeslots(q: Queryable, scope: Scope, listing: BookableListing, query: TimeslotsQuery, now: Date): Promise<ListEnvelope<Timeslot>> {
  assertSellsTime(listing, 'time slots');
  const from = roughInstant(query.start);
  if (from === null) throw errors.invalidRequest('start must be an ISO 8601 timestamp (2026-10-24T09:00:00Z) or a date (2026-10-24).', 'start');
  const to = roughInstant(query.end);
  if (to === null) throw errors.invalidRequest('end must be an ISO 8601 timestamp (2026-10-24T09:00:00Z) or a date (2026-10-24).', 'end');
  if (to <= from) throw errors.invalidRequest('end must come after start.', 'end');
  if (to - from > TIMESLOTS_DAYS_MAX * DAY_MS) throw errors.invalidRequest(`A query spans at most ${TIMESLOTS_DAYS_MAX} days; ask for the next days with a new start.`, 'end');
  let after: Date | null = null;
  if (query.starting_after !== undefined) {
    after = readTime(query.starting_after, 'UTC', false);
    if (after === null) throw errors.invalidRequest('starting_after must be the next_cursor of the previous page (a slot\'s start).', 'starting_after');
  }
  const limit = query.limit ?? 20;
  const rows = await selectSlots(q, scope, {
    listingId: listing.id,
    unitType: listing.unit_type,
    slotMinutes: listing.slot_minutes,
    listingSeats: listing.seats,
    from: query.start,
    to: query.end,
    now,
    minSeats: query.seats ?? 1,
    after,
    limit: limit + 1,
  });
  const hasMore = rows.length > limit;
  const data = (hasMore ? rows.slice(0, limit) : rows).map((row): Timeslot => {
    const start = new Date(row.start);
    const end = new Date(row.end);
    return { object: 'timeslot', start: start.toISOString(), end: end.toISOString(), start_local: localIso(start, row.time_zone), end_local: localIso(end, row.time_zone), seats_available: row.seats_available };
  });
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.start : null };
}

// ---- booking (an order's) ----

/** A booking asked for in an order's body. */
export interface BookingAsked {
  start: string;
  end: string;
  seats?: number;
}

/** A booking that passed every check but the seats' reservation: what the order stores and the reservation needs. */
export interface BookingPlan {
  listingId: string;
  start: Date;
  end: Date;
  seats: number;
  timeZone: string;
  /** Nights (day) or slots (time): the order's quantity is units × seats. */
  units: number;
  bufferMinutes: number;
  listingSeats: number;
  /** The fewest seats any of its slots offers. */
  offered: number;
}

const invalid = (message: string, param: string) => new DomainError('invalid_booking', message, param);

/**
 * An order's booking checked against its listing, in this order: 400 invalid_booking (a booking
 * for an item listing, none for a day or time listing, a quantity beside it, times that cannot be
 * read, an end not after the start, more than 366 days, more seats than the listing has); 409
 * outside_availability (some of the time is not offered: not one run of the listing's slots,
 * closed, within the notice, past the horizon); 409 time_unavailable (offered, but too few seats
 * free in one of its slots). `quantity` is the order's (1 when not given). Null: an order of
 * counted units, nothing to book.
 */
export async function checkBooking(q: Queryable, scope: Scope, listing: BookableListing, asked: BookingAsked | undefined, quantity: number, now: Date): Promise<BookingPlan | null> {
  if (!sellsTime(listing)) {
    if (asked !== undefined) throw invalid(`The listing ${listing.id} sells counted units (unit_type item); order a quantity, not a booking.`, 'booking');
    return null;
  }
  if (asked === undefined) throw invalid(`The listing ${listing.id} sells time (unit_type ${listing.unit_type}); the order needs a booking {start, end, seats}.`, 'booking');
  if (quantity !== 1) throw invalid("A booking's quantity is its time × seats: give booking.seats, not quantity.", 'quantity');
  const seats = asked.seats ?? 1;
  const availability = await selectAvailability(q, scope, listing.id);
  const zone = availability?.time_zone ?? 'UTC';
  const dates = listing.unit_type === 'day';
  const kind = dates ? 'an ISO 8601 timestamp or a date (2026-10-24)' : 'an ISO 8601 timestamp (2026-10-24T09:00:00Z)';
  const start = readTime(asked.start, zone, dates);
  if (start === null) throw invalid(`booking.start must be ${kind}.`, 'booking.start');
  const end = readTime(asked.end, zone, dates);
  if (end === null) throw invalid(`booking.end must be ${kind}.`, 'booking.end');
  if (end <= start) throw invalid('booking.end must come after booking.start (end exclusive).', 'booking.end');
  if (end.getTime() - start.getTime() > BOOKING_DAYS_MAX * DAY_MS) throw invalid(`A booking lasts at most ${BOOKING_DAYS_MAX} days.`, 'booking.end');
  if (seats > listing.seats) throw invalid(`booking.seats is ${seats}; the listing has ${listing.seats} seats.`, 'booking.seats');
  const outside = (why: string) => new DomainError('outside_availability', `The listing ${listing.id} does not offer ${start.toISOString()} to ${end.toISOString()}: ${why}. GET /v1/listings/${listing.id}/timeslots lists what it offers.`, 'booking');
  if (availability === null) throw outside('it has no availability');
  const slots = await selectSlots(q, scope, {
    listingId: listing.id,
    unitType: listing.unit_type,
    slotMinutes: listing.slot_minutes,
    listingSeats: listing.seats,
    from: start.toISOString(),
    to: end.toISOString(),
    now,
    minSeats: 0,
    after: null,
    limit: null,
  });
  // The booking must be one run of offered slots: the first starts at its start, each next one
  // where the one before ends, the last ends at its end.
  const byStart = new Map(slots.map((slot) => [new Date(slot.start).getTime(), slot]));
  let cursor = start.getTime();
  let units = 0;
  let offered = listing.seats;
  let available = listing.seats;
  while (cursor < end.getTime()) {
    const slot = byStart.get(cursor);
    if (!slot) throw outside(`no offered ${listing.unit_type === 'day' ? 'day' : 'slot'} starts at ${new Date(cursor).toISOString()}`);
    cursor = new Date(slot.end).getTime();
    units++;
    offered = Math.min(offered, slot.seats_offered);
    available = Math.min(available, slot.seats_available);
  }
  if (cursor !== end.getTime()) throw outside(`its end falls inside a ${listing.unit_type === 'day' ? 'day' : 'slot'}`);
  if (available < seats) throw timeUnavailable(listing.id, seats, available);
  return { listingId: listing.id, start, end, seats, timeZone: zone, units, bufferMinutes: availability.buffer_minutes, listingSeats: listing.seats, offered };
}

export function timeUnavailable(listingId: string, asked: number, free?: number): DomainError {
  const left = free === undefined ? 'too few seats are free' : `${free} of its seats are free`;
  return new DomainError('time_unavailable', `The time asked of the listing ${listingId} is taken: ${left}, the booking asks for ${asked}.`, 'booking');
}

/**
 * Locks the listing's availability before its seats are picked (bookings of one listing take
 * turns). 409 outside_availability when it is gone (a listing that never had one fails before).
 */
export async function lockBookedListing(tx: Tx, scope: Scope, listingId: string): Promise<void> {
  if ((await lockAvailability(tx, scope, listingId)) === null) throw new DomainError('outside_availability', `The listing ${listingId} has no availability.`, 'booking');
}

/** The statement that holds the booking's seats for the order, sent last with the COMMIT; it raises the refusal 'time_unavailable'. */
export function seatsReservation(scope: Scope, plan: BookingPlan, orderId: string): Statement {
  return reserveSeatsStatement(scope, {
    listingId: plan.listingId,
    orderId,
    start: plan.start,
    end: plan.end,
    bufferMinutes: plan.bufferMinutes,
    listingSeats: plan.listingSeats,
    seats: plan.seats,
    offered: plan.offered,
  });
}

/** Frees the time an ended (cancelled or expired) order held, in its move's transaction. */
export function releaseBooking(tx: Tx, scope: Scope, orderId: string): Promise<void> {
  return deleteBookedSeats(tx, scope, orderId);
}
