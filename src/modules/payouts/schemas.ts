// The payouts' API objects and request bodies (docs/payouts.md).
import { Type, type Static } from '@sinclair/typebox';
import { PayoutSchedule, WEEKDAYS } from '../../contracts/settings.js';
import { ListOf, ListQuery, Nullable, NullableTimestamp, StringEnum, TimeInput, Timestamp } from '../../http/schemas.js';
import { PAYOUT_STATES } from './machine.js';

export const PayoutStatus = StringEnum(PAYOUT_STATES, { description: 'pending → in_transit → paid | failed; pending → canceled (docs/state-machines.md).' });

export const Payout = Type.Object(
  {
    object: Type.Literal('payout'),
    id: Type.String({ description: 'po_…' }),
    seller: Type.String(),
    amount: Type.Integer({ description: "Minor units: the seller's available balance when the payout was made (the sum of its lines)." }),
    currency: Type.String(),
    status: PayoutStatus,
    automatic: Type.Boolean({ description: 'true when made by a scheduled run, false when asked for by POST /v1/payouts.' }),
    processor_reference: Nullable(Type.String({ description: "The processor's transfer (tr_…) once made." })),
    failure_message: Nullable(Type.String({ description: 'Why the payout failed.' })),
    period_start: Timestamp,
    period_end: Timestamp,
    created: Timestamp,
    paid_at: NullableTimestamp,
    failed_at: NullableTimestamp,
    canceled_at: NullableTimestamp,
    livemode: Type.Boolean(),
  },
  {
    additionalProperties: false,
    description: "A seller's available balance paid in one movement (docs/payouts.md). period_start is the time of its oldest line, period_end when it was made.",
    examples: [{
      object: 'payout', id: 'po_01jd0000000000000000000000', seller: 'sel_01jd0000000000000000000000', amount: 8100, currency: 'USD', status: 'paid', automatic: true,
      processor_reference: 'tr_sim_AbCdEfGhIjKlMnOpQrStUvWx', failure_message: null, period_start: '2026-11-02T10:00:00.000Z', period_end: '2026-11-09T00:00:00.000Z',
      created: '2026-11-09T00:00:00.000Z', paid_at: '2026-11-09T00:00:01.000Z', failed_at: null, canceled_at: null, livemode: false,
    }],
  },
);
export type Payout = Static<typeof Payout>;

export const PAYOUT_LINE_TYPES = ['order_share', 'refund', 'fee', 'recovery', 'returned_payout', 'adjustment'] as const;

export const PayoutLine = Type.Object(
  {
    object: Type.Literal('payout_line'),
    type: StringEnum(PAYOUT_LINE_TYPES, {
      description:
        "order_share (an order's share that became available), refund (a refund after that, negative), fee (the fee's part of such a refund), " +
        'recovery (what the seller owed, kept before the payout, or given back after a failed one: docs/payouts.md), returned_payout (a failed or canceled payout back in the balance), adjustment (any other line).',
    }),
    amount: Type.Integer({ description: 'Signed minor units; the lines of a payout sum to its amount.' }),
    currency: Type.String(),
    balance_transaction: Type.String({ description: 'btx_…: the ledger line on the seller_available account (GET /v1/balance_transactions/{id}).' }),
    ledger_type: Type.String({ description: "The ledger line's type (share_available, refund, platform_fee_refund …)." }),
    source: Type.String({ description: 'What caused the line: pay_…, ref_…, po_….' }),
    payment: Nullable(Type.String()),
    order: Nullable(Type.String()),
    created: Timestamp,
  },
  {
    additionalProperties: false,
    examples: [{
      object: 'payout_line', type: 'order_share', amount: 4500, currency: 'USD', balance_transaction: 'btx_01jd0000000000000000000000', ledger_type: 'share_available',
      source: 'pay_01jd0000000000000000000000', payment: 'pay_01jd0000000000000000000000', order: 'ord_01jd0000000000000000000000', created: '2026-11-02T10:00:00.000Z',
    }],
  },
);
export type PayoutLine = Static<typeof PayoutLine>;

export const PayoutList = ListOf(Payout);
export const PayoutLineList = ListOf(PayoutLine);

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const ListPayoutsQuery = ListQuery({
  seller: Type.Optional(Id),
  status: Type.Optional(PayoutStatus),
  'created[gte]': Type.Optional(TimeInput('Created at or after this time.')),
  'created[gt]': Type.Optional(TimeInput('Created after this time.')),
  'created[lte]': Type.Optional(TimeInput('Created at or before this time.')),
  'created[lt]': Type.Optional(TimeInput('Created before this time.')),
});
export type ListPayoutsQuery = Static<typeof ListPayoutsQuery>;

export const ListPayoutLinesQuery = ListQuery({});
export type ListPayoutLinesQuery = Static<typeof ListPayoutLinesQuery>;

export const CreatePayoutBody = Type.Object(
  { seller: Id },
  { additionalProperties: false, examples: [{ seller: 'sel_01jd0000000000000000000000' }] },
);
export type CreatePayoutBody = Static<typeof CreatePayoutBody>;

export const SellerPayoutSchedule = Type.Object(
  {
    object: Type.Literal('payout_schedule'),
    seller: Type.String(),
    source: StringEnum(['seller', 'mode'] as const, { description: "seller: the seller's own (PUT); mode: the mode's payout_schedule setting." }),
    method: StringEnum(['per_order', 'scheduled'] as const),
    interval: StringEnum(['daily', 'weekly', 'monthly', 'manual'] as const),
    weekly_anchor: StringEnum(WEEKDAYS),
    monthly_anchor: Type.Integer({ minimum: 1, maximum: 31 }),
    delay_days: Type.Integer({ minimum: 0, maximum: 365 }),
    minimum: Type.Integer({ minimum: 1 }),
    livemode: Type.Boolean(),
  },
  {
    additionalProperties: false,
    examples: [{ object: 'payout_schedule', seller: 'sel_01jd0000000000000000000000', source: 'seller', method: 'scheduled', interval: 'weekly', weekly_anchor: 'friday', monthly_anchor: 1, delay_days: 7, minimum: 1000, livemode: false }],
  },
);
export type SellerPayoutSchedule = Static<typeof SellerPayoutSchedule>;

export const PutPayoutScheduleBody = Type.Object(PayoutSchedule.properties, {
  additionalProperties: false,
  examples: [{ method: 'scheduled', interval: 'weekly', weekly_anchor: 'friday', delay_days: 7, minimum: 1000 }],
});
