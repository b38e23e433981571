// Every SQL statement of the bookings module: listing_availability and booked_seats. Each one
// names marketplace_id and mode. The time slots are computed by one statement (selectSlots): the
// local days of the range (generate_series), each rule's window on each day turned into UTC with
// AT TIME ZONE (so a 09:00–17:00 rule is 09:00–17:00 local on both sides of a clock change), the
// slots of each window stepped in real minutes, the exceptions, notice and horizon, and the seats
// that bookings (with their buffers) hold.
import type { Queryable, Tx } from '../../db/db.js';
import type { Statement } from '../listings/index.js';
import type { Scope } from '../../scope.js';

/** A stored rule: local times as `HH:MM` (null for a day listing's whole days), seats null: the listing's. */
export interface StoredRule {
  days: string[];
  start: string | null;
  end: string | null;
  seats: number | null;
}

/** A stored exception, its times UTC ISO 8601. */
export interface StoredException {
  start: string;
  end: string;
  available: boolean;
  seats: number | null;
  reason: string | null;
}

export interface AvailabilityRow {
  listing_id: string;
  time_zone: string;
  rules: StoredRule[];
  exceptions: StoredException[];
  buffer_minutes: number;
  min_notice_minutes: number;
  max_advance_days: number;
  updated_at: Date;
}

const COLUMNS = 'listing_id, time_zone, rules, exceptions, buffer_minutes, min_notice_minutes, max_advance_days, updated_at';

export async function upsertAvailability(tx: Tx, scope: Scope, row: Omit<AvailabilityRow, 'updated_at'>, now: Date): Promise<AvailabilityRow> {
  const rows = await tx.query<AvailabilityRow>(
    `INSERT INTO listing_availability (marketplace_id, mode, listing_id, time_zone, rules, exceptions, buffer_minutes,
                                       min_notice_minutes, max_advance_days, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
     ON CONFLICT (marketplace_id, mode, listing_id) DO UPDATE
       SET time_zone = EXCLUDED.time_zone, rules = EXCLUDED.rules, exceptions = EXCLUDED.exceptions,
           buffer_minutes = EXCLUDED.buffer_minutes, min_notice_minutes = EXCLUDED.min_notice_minutes,
           max_advance_days = EXCLUDED.max_advance_days, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [
      scope.marketplaceId,
      scope.mode,
      row.listing_id,
      row.time_zone,
      JSON.stringify(row.rules),
      JSON.stringify(row.exceptions),
      row.buffer_minutes,
      row.min_notice_minutes,
      row.max_advance_days,
      now,
    ],
  );
  return rows[0]!;
}

export async function selectAvailability(q: Queryable, scope: Scope, listingId: string): Promise<AvailabilityRow | null> {
  const rows = await q.query<AvailabilityRow>(`SELECT ${COLUMNS} FROM listing_availability WHERE marketplace_id = $1 AND mode = $2 AND listing_id = $3`, [
    scope.marketplaceId,
    scope.mode,
    listingId,
  ]);
  return rows[0] ?? null;
}

/**
 * The listing's availability row locked (FOR UPDATE), its time zone answered; null when it has
 * none. A booking takes it before it picks its seats, so the bookings of one listing pick in
 * turn and each sees the seats the one before took (the exclusion constraint holds regardless).
 */
export async function lockAvailability(tx: Tx, scope: Scope, listingId: string): Promise<string | null> {
  const rows = await tx.query<{ time_zone: string }>(
    'SELECT time_zone FROM listing_availability WHERE marketplace_id = $1 AND mode = $2 AND listing_id = $3 FOR UPDATE',
    [scope.marketplaceId, scope.mode, listingId],
  );
  return rows[0]?.time_zone ?? null;
}

/** What the slots are computed for: the listing's unit and seats, the range and the mode's now. */
export interface SlotsAsked {
  listingId: string;
  unitType: 'day' | 'time';
  /** A time listing's slot length; ignored for a day listing. */
  slotMinutes: number | null;
  listingSeats: number;
  /** An ISO 8601 timestamp, or a date (its local midnight in the listing's time zone). */
  from: string;
  to: string;
  now: Date;
  /** Only slots with at least this many seats free (0: every offered slot). */
  minSeats: number;
  /** Only slots that start after this (paging); null: from `from`. */
  after: Date | null;
  /** At most this many slots; null: all. */
  limit: number | null;
}

export interface SlotRow {
  start: Date;
  end: Date;
  seats_offered: number;
  seats_available: number;
  time_zone: string;
}

/**
 * The offered slots that start in [from, to), by start, with their seats: one statement (no loop
 * over days in JavaScript). Steps, each a CTE:
 * - `a`: the availability, and the range cut by the notice (now + min_notice) and the horizon
 *   (now + max_advance_days);
 * - `d`: the local days of the range (timestamps without zone, so each day is a calendar day);
 * - `w`: each rule's window on each day it names, its local start and end turned into instants
 *   with AT TIME ZONE (`24:00` is the next local midnight);
 * - `rs`: a day listing's window is its one slot; a time listing's is stepped by slot_minutes of
 *   real time from its start (a slot across a clock change lasts slot_minutes all the same);
 * - `x`, `xs`: the exceptions near the range, and the slots an opening one offers (stepped from
 *   its start; for a day listing the whole local days inside it); an opening replaces the rules'
 *   slots it overlaps, a closing one removes every slot it overlaps;
 * - one slot per start (the most seats), then the seats bookings hold: a new booking would hold
 *   [start, end + buffer), so a seat is taken when a held range overlaps that.
 */
export async function selectSlots(q: Queryable, scope: Scope, asked: SlotsAsked): Promise<SlotRow[]> {
  const step = asked.unitType === 'time' ? asked.slotMinutes! : 1440;
  return q.query<SlotRow>(
    `WITH a AS (
       SELECT time_zone AS tz, rules, exceptions, buffer_minutes,
              greatest(CASE WHEN $4::text ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN ($4::text)::date::timestamp AT TIME ZONE time_zone ELSE ($4::text)::timestamptz END,
                       $8::timestamptz + make_interval(mins => min_notice_minutes)) AS lo,
              least(CASE WHEN $5::text ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN ($5::text)::date::timestamp AT TIME ZONE time_zone ELSE ($5::text)::timestamptz END,
                    $8::timestamptz + make_interval(days => max_advance_days)) AS hi
         FROM listing_availability
        WHERE marketplace_id = $1 AND mode = $2 AND listing_id = $3),
     d AS (
       SELECT g AS day
         FROM a, generate_series(((a.lo AT TIME ZONE a.tz)::date - 1)::timestamp, ((a.hi AT TIME ZONE a.tz)::date)::timestamp, interval '1 day') g
        WHERE a.lo < a.hi),
     w AS (
       SELECT (d.day + coalesce((r->>'start')::interval, interval '0')) AT TIME ZONE a.tz AS ws,
              (d.day + coalesce((r->>'end')::interval, interval '24 hours')) AT TIME ZONE a.tz AS we,
              least(coalesce((r->>'seats')::int, $7), $7) AS seats
         FROM a CROSS JOIN d CROSS JOIN jsonb_array_elements(a.rules) r
        WHERE r->'days' ? (ARRAY['monday','tuesday','wednesday','thursday','friday','saturday','sunday'])[extract(isodow FROM d.day)::int]),
     rs AS (
       SELECT w.ws AS s, w.we AS e, w.seats FROM w WHERE $6 = 'day'
       UNION ALL
       SELECT g, g + make_interval(mins => $9), w.seats
         FROM w, generate_series(w.ws, w.we - make_interval(mins => $9), make_interval(mins => $9)) g
        WHERE $6 = 'time'),
     x AS (
       SELECT (e->>'start')::timestamptz AS s, (e->>'end')::timestamptz AS e, (e->>'available')::boolean AS open,
              least(coalesce((e->>'seats')::int, $7), $7) AS seats
         FROM a CROSS JOIN jsonb_array_elements(a.exceptions) e
        WHERE (e->>'start')::timestamptz < a.hi + interval '2 days' AND (e->>'end')::timestamptz > a.lo - interval '2 days'),
     xs AS (
       SELECT g AS s, g + make_interval(mins => $9) AS e, x.seats
         FROM x, a, generate_series(
                x.s + make_interval(mins => $9) * greatest(0, ceil(extract(epoch FROM a.lo - x.s) / ($9 * 60)))::int,
                least(x.e, a.hi + make_interval(mins => $9)) - make_interval(mins => $9),
                make_interval(mins => $9)) g
        WHERE $6 = 'time' AND x.open
       UNION ALL
       SELECT d.day AT TIME ZONE a.tz, (d.day + interval '1 day') AT TIME ZONE a.tz, x.seats
         FROM x, a, d
        WHERE $6 = 'day' AND x.open AND d.day AT TIME ZONE a.tz >= x.s AND (d.day + interval '1 day') AT TIME ZONE a.tz <= x.e),
     slots AS (
       SELECT s, e, seats FROM rs
        WHERE NOT EXISTS (SELECT 1 FROM x WHERE x.open AND x.s < rs.e AND rs.s < x.e)
       UNION ALL
       SELECT s, e, seats FROM xs),
     offered AS (
       SELECT DISTINCT ON (slots.s) slots.s, slots.e, slots.seats
         FROM slots, a
        WHERE slots.s >= a.lo AND slots.s < a.hi AND ($11::timestamptz IS NULL OR slots.s > $11::timestamptz)
          AND NOT EXISTS (SELECT 1 FROM x WHERE NOT x.open AND x.s < slots.e AND slots.s < x.e)
        ORDER BY slots.s, slots.seats DESC),
     counted AS (
       SELECT o.s, o.e, o.seats,
              greatest(0, o.seats - (SELECT count(DISTINCT b.seat_index)
                                       FROM booked_seats b
                                      WHERE b.marketplace_id = $1 AND b.mode = $2 AND b.listing_id = $3
                                        AND b.during && tstzrange(o.s, o.e + make_interval(mins => a.buffer_minutes))))::int AS available
         FROM offered o, a)
     SELECT s AS start, e AS "end", seats AS seats_offered, available AS seats_available, (SELECT tz FROM a) AS time_zone
       FROM counted
      WHERE available >= $10
      ORDER BY s
      LIMIT $12`,
    [scope.marketplaceId, scope.mode, asked.listingId, asked.from, asked.to, asked.unitType, asked.listingSeats, asked.now, step, asked.minSeats, asked.after, asked.limit],
  );
}

/**
 * Holds `seats` seats of the listing over [start, end + buffer) for the order: the lowest seat
 * indexes free over the whole range, when there are that many and the fewest seats the slots offer
 * (`offered`) still leaves room beside the seats taken. Otherwise it raises the refusal (checked
 * by the outer SELECT, which always runs, on what the data-modifying CTE wrote; a check joined to
 * the INSERT's rows would be skipped when no seat is free)
 * 'time_unavailable' (migrations/0014_refusals.sql), which rolls the transaction back. Sent by
 * the flow after lockAvailability, with its COMMIT; the exclusion constraint of booked_seats
 * refuses any overlap on one seat whatever this statement decides.
 */
export function reserveSeatsStatement(scope: Scope, hold: SeatHold): Statement {
  return {
    sql: `WITH want AS (
       SELECT tstzrange($5::timestamptz, $6::timestamptz + make_interval(mins => $7)) AS during),
     taken AS (
       SELECT DISTINCT b.seat_index FROM booked_seats b, want
        WHERE b.marketplace_id = $1 AND b.mode = $2 AND b.listing_id = $3 AND b.during && want.during),
     free AS (
       SELECT i FROM generate_series(0, $8 - 1) i WHERE i NOT IN (SELECT seat_index FROM taken) ORDER BY i LIMIT $9),
     held AS (
       INSERT INTO booked_seats (marketplace_id, mode, order_id, seat_index, listing_id, during)
       SELECT $1, $2, $4, free.i, $3, want.during FROM free, want
       RETURNING seat_index)
     SELECT CASE WHEN (SELECT count(*) FROM held) = $9 AND $10 - (SELECT count(*) FROM taken) >= $9 THEN true
                 ELSE raise_refusal('time_unavailable') END AS held`,
    params: [scope.marketplaceId, scope.mode, hold.listingId, hold.orderId, hold.start, hold.end, hold.bufferMinutes, hold.listingSeats, hold.seats, hold.offered],
  };
}

export interface SeatHold {
  listingId: string;
  orderId: string;
  start: Date;
  end: Date;
  bufferMinutes: number;
  listingSeats: number;
  seats: number;
  /** The fewest seats any slot of the booking offers. */
  offered: number;
}

/** Frees the time an order held (it was cancelled or expired); nothing for an order that held none. */
export async function deleteBookedSeats(tx: Tx, scope: Scope, orderId: string): Promise<void> {
  await tx.query('DELETE FROM booked_seats WHERE marketplace_id = $1 AND mode = $2 AND order_id = $3', [scope.marketplaceId, scope.mode, orderId]);
}
