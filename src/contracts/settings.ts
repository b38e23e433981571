// The settings of one mode of a marketplace: the schema every module reads them by, and their
// defaults. Reading them is the marketplaces module's (src/modules/marketplaces/mode-settings.ts).
import { Type, type Static } from '@sinclair/typebox';
import type { Mode } from '../scope.js';

const DAY = 86_400;
const Seconds = (description: string) => Type.Integer({ minimum: 0, maximum: 31_536_000, description });

export const PlatformFee = Type.Object(
  {
    percent_bps: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Basis points of the subtotal.' }),
    fixed_amount: Type.Integer({ minimum: 0, maximum: 99_999_999_999, description: 'Minor units.' }),
  },
  { additionalProperties: false },
);

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/**
 * How a seller is paid (docs/payouts.md): `per_order` (each completed order's share transferred on
 * its own, the default) or `scheduled` (shares move to the seller's available balance after
 * `delay_days`, and a payout run pays it in one movement on the `interval`, once it reaches
 * `minimum`). The mode's setting and a seller's override have this shape; a field left out takes
 * its default.
 */
export const PayoutSchedule = Type.Object(
  {
    method: Type.Union([Type.Literal('per_order'), Type.Literal('scheduled')], { description: 'per_order (default) or scheduled.' }),
    interval: Type.Optional(Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('manual')], { description: 'When a scheduled seller is paid: daily (default), weekly, monthly, or manual (only by POST /v1/payouts).' })),
    weekly_anchor: Type.Optional(Type.Union(WEEKDAYS.map((day) => Type.Literal(day)), { description: 'The weekday of a weekly schedule (default monday).' })),
    monthly_anchor: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, description: 'The day of a monthly schedule, 1 to 31 (default 1); a shorter month is paid on its last day.' })),
    delay_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 365, description: "Days after an order's completion before its share becomes available (default 0)." })),
    minimum: Type.Optional(Type.Integer({ minimum: 1, maximum: 99_999_999_999, description: 'A scheduled run pays a seller only when the available balance reaches this, in minor units (default 1).' })),
  },
  { additionalProperties: false },
);
export type PayoutScheduleInput = Static<typeof PayoutSchedule>;
export type PayoutSchedule = Required<PayoutScheduleInput>;

/** A schedule with every field (the defaults for those left out). */
export function fullPayoutSchedule(input: PayoutScheduleInput): PayoutSchedule {
  return {
    method: input.method,
    interval: input.interval ?? 'daily',
    weekly_anchor: input.weekly_anchor ?? 'monday',
    monthly_anchor: input.monthly_anchor ?? 1,
    delay_days: input.delay_days ?? 0,
    minimum: input.minimum ?? 1,
  };
}

export const Settings = Type.Object(
  {
    payments_enabled: Type.Boolean(),
    seller_verification_required: Type.Boolean(),
    platform_fee: PlatformFee,
    prohibited_words: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 500 }),
    checkout_success_url: Type.Union([Type.String({ format: 'uri', maxLength: 2000 }), Type.Null()]),
    checkout_cancel_url: Type.Union([Type.String({ format: 'uri', maxLength: 2000 }), Type.Null()]),
    payment_window_seconds: Seconds('How long an order awaits payment before it expires.'),
    claim_window_seconds: Seconds('How long the seller has to claim a committed order.'),
    confirm_window_seconds: Seconds('How long the buyer has to confirm a claimed order.'),
    dispute_window_seconds: Seconds('How long after completion the buyer may dispute.'),
    review_window_seconds: Seconds('How long after completion both parties may review.'),
    dispute_decision_seconds: Seconds('When an open dispute becomes overdue.'),
    booking_reminder_seconds: Seconds("How long before a booking's start `order.booking_starting` is emitted (0: never)."),
    release_delay_seconds: Seconds('Delay between completion and release of the seller share.'),
    rate_limit_per_second: Type.Integer({ minimum: 1, maximum: 10_000 }),
    payout_schedule: PayoutSchedule,
    seller_debt_write_off_days: Type.Union([Type.Integer({ minimum: 0, maximum: 3650 }), Type.Null()], {
      description:
        "What a seller owes after being paid (a refund whose reversal the processor refused, a refund made in the processor's dashboard, a lost card dispute's seller part): 0 (the default) the platform bears it at once (`shortfall`, platform_losses); N days: it is recovered from the seller's next releases and what is left N days after it arose is written off to platform_losses; null: recovered, never written off (docs/ledger.md).",
    }),
  },
  { additionalProperties: false },
);
export type Settings = Static<typeof Settings>;

/** PATCH body: any subset of the settings. */
export const SettingsPatch = Type.Partial(Settings, { additionalProperties: false });
export type SettingsPatch = Static<typeof SettingsPatch>;

export function defaultSettings(mode: Mode): Settings {
  return {
    payments_enabled: false,
    seller_verification_required: false,
    platform_fee: { percent_bps: 0, fixed_amount: 0 },
    prohibited_words: [],
    checkout_success_url: null,
    checkout_cancel_url: null,
    payment_window_seconds: 1800,
    claim_window_seconds: 7 * DAY,
    confirm_window_seconds: 3 * DAY,
    dispute_window_seconds: 14 * DAY,
    review_window_seconds: 14 * DAY,
    dispute_decision_seconds: 7 * DAY,
    booking_reminder_seconds: DAY,
    release_delay_seconds: 0,
    rate_limit_per_second: mode === 'live' ? 100 : 25,
    payout_schedule: fullPayoutSchedule({ method: 'per_order' }),
    seller_debt_write_off_days: 0,
  };
}

/** Stored settings over the defaults, so settings added later read with their default. */
export function withDefaults(mode: Mode, stored: unknown): Settings {
  const settings = { ...defaultSettings(mode), ...(stored as Partial<Settings>) };
  return { ...settings, payout_schedule: fullPayoutSchedule(settings.payout_schedule) };
}

