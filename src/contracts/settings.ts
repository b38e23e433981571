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
    release_delay_seconds: Seconds('Delay between completion and release of the seller share.'),
    rate_limit_per_second: Type.Integer({ minimum: 1, maximum: 10_000 }),
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
    release_delay_seconds: 0,
    rate_limit_per_second: mode === 'live' ? 100 : 25,
    seller_debt_write_off_days: 0,
  };
}

/** Stored settings over the defaults, so settings added later read with their default. */
export function withDefaults(mode: Mode, stored: unknown): Settings {
  return { ...defaultSettings(mode), ...(stored as Partial<Settings>) };
}

