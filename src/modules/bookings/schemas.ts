// Availability and time slot records, the availability body and the time slots' query (docs/bookings.md).
import { Type, type Static } from '@sinclair/typebox';
import { ListOf, Nullable, StringEnum, Timestamp } from '../../http/schemas.js';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const RULES_MAX = 50;
export const EXCEPTIONS_MAX = 500;
export const REASON_MAX = 500;
export const TIMESLOTS_DAYS_MAX = 90;
export const BOOKING_DAYS_MAX = 366;

const LocalTime = (description: string) =>
  Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description, examples: ['09:00'] });
const TimeText = (description: string) =>
  Type.String({ minLength: 1, maxLength: 40, description, examples: ['2026-10-24T09:00:00Z', '2026-10-24'] });
const SeatsIn = Type.Integer({ minimum: 1, maximum: 1000, description: "Seats offered, at most the listing's seats (its seats when absent)." });

export const AvailabilityRuleBody = Type.Object(
  {
    days: Type.Array(StringEnum(WEEKDAYS), { minItems: 1, maxItems: 7, uniqueItems: true, description: 'Weekdays, in the listing\'s time zone.' }),
    start: Type.Optional(LocalTime('Local time the rule opens, `HH:MM`; required for a time listing, omitted for a day listing (whole days).')),
    end: Type.Optional(LocalTime('Local time it closes, `HH:MM` (up to `24:00`), after start.')),
    seats: Type.Optional(SeatsIn),
  },
  { additionalProperties: false },
);

export const AvailabilityExceptionBody = Type.Object(
  {
    start: TimeText('An ISO 8601 timestamp, or a date (its local midnight in the time zone).'),
    end: TimeText('As start; end exclusive.'),
    available: Type.Boolean({ description: 'true opens this time (in place of the rules), false closes it.' }),
    seats: Type.Optional(SeatsIn),
    reason: Type.Optional(Type.String({ maxLength: REASON_MAX, description: 'Up to 500 characters.' })),
  },
  { additionalProperties: false },
);

export const PutAvailabilityBody = Type.Object(
  {
    time_zone: Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone (`Europe/Berlin`); rules and dates are read in it.', examples: ['Europe/Berlin'] }),
    rules: Type.Array(AvailabilityRuleBody, { maxItems: RULES_MAX, description: 'Weekly rules, up to 50.' }),
    exceptions: Type.Optional(Type.Array(AvailabilityExceptionBody, { maxItems: EXCEPTIONS_MAX, description: 'Up to 500; a closing one wins over everything.' })),
    buffer_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 10080, description: 'Free time kept after each booking before the next, 0 (default) to 10080.' })),
    min_notice_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 525600, description: 'How long before its start a time can still be booked, 0 (default) to 525600.' })),
    max_advance_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 1095, description: 'How far ahead a time can be booked, 1 to 1095, default 365.' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        time_zone: 'Europe/Berlin',
        rules: [{ days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], start: '09:00', end: '17:00' }],
        exceptions: [{ start: '2026-12-24', end: '2026-12-27', available: false, reason: 'Holidays' }],
        buffer_minutes: 15,
        min_notice_minutes: 60,
        max_advance_days: 180,
      },
    ],
  },
);
export type PutAvailabilityBody = Static<typeof PutAvailabilityBody>;

export const AvailabilityRule = Type.Object({
  days: Type.Array(StringEnum(WEEKDAYS)),
  start: Nullable(Type.String({ description: 'Local `HH:MM`; null for a day listing (whole days).' })),
  end: Nullable(Type.String()),
  seats: Type.Integer(),
});

export const AvailabilityException = Type.Object({
  start: Timestamp,
  end: Timestamp,
  start_local: Type.String({ description: 'start in the time zone, with its offset: `2026-10-25T02:30:00+01:00`.' }),
  end_local: Type.String(),
  available: Type.Boolean(),
  seats: Nullable(Type.Integer({ description: 'Seats an opening offers; null: the listing\'s.' })),
  reason: Nullable(Type.String()),
});

export const Availability = Type.Object(
  {
    object: Type.Literal('availability'),
    listing: Type.String(),
    time_zone: Type.String(),
    rules: Type.Array(AvailabilityRule),
    exceptions: Type.Array(AvailabilityException),
    buffer_minutes: Type.Integer(),
    min_notice_minutes: Type.Integer(),
    max_advance_days: Type.Integer(),
    updated_at: Nullable(Timestamp),
  },
  {
    $id: 'Availability',
    description: 'When a listing that sells time can be booked (docs/bookings.md); `updated_at` null: never set (nothing offered).',
    examples: [
      {
        object: 'availability',
        listing: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6e',
        time_zone: 'Europe/Berlin',
        rules: [{ days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], start: '09:00', end: '17:00', seats: 1 }],
        exceptions: [
          { start: '2026-12-23T23:00:00.000Z', end: '2026-12-26T23:00:00.000Z', start_local: '2026-12-24T00:00:00+01:00', end_local: '2026-12-27T00:00:00+01:00', available: false, seats: null, reason: 'Holidays' },
        ],
        buffer_minutes: 15,
        min_notice_minutes: 60,
        max_advance_days: 180,
        updated_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type Availability = Static<typeof Availability>;

export const Timeslot = Type.Object(
  {
    object: Type.Literal('timeslot'),
    start: Timestamp,
    end: Timestamp,
    start_local: Type.String({ description: "start in the listing's time zone, with its offset." }),
    end_local: Type.String(),
    seats_available: Type.Integer(),
  },
  { $id: 'Timeslot', examples: [{ object: 'timeslot', start: '2026-10-26T08:00:00.000Z', end: '2026-10-26T09:00:00.000Z', start_local: '2026-10-26T09:00:00+01:00', end_local: '2026-10-26T10:00:00+01:00', seats_available: 2 }] },
);
export type Timeslot = Static<typeof Timeslot>;
export const TimeslotList = ListOf(Timeslot);

export const TimeslotsQuery = Type.Object(
  {
    start: TimeText('From (an ISO 8601 timestamp, or for a day listing a date): slots that start at or after it.'),
    end: TimeText('To, exclusive: slots that start before it; at most 90 days after start.'),
    seats: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Only slots with at least this many seats free; default 1.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    starting_after: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'The next_cursor of the previous page (the `start` of its last slot).' })),
  },
  { additionalProperties: false },
);
export type TimeslotsQuery = Static<typeof TimeslotsQuery>;
