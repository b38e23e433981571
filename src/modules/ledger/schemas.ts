// The ledger's API records (docs/ledger.md): a line of the ledger is a balance transaction.
import { Type, type Static } from '@sinclair/typebox';
import { ListOf, ListQuery, Nullable, StringEnum, TimeInput, Timestamp } from '../../http/schemas.js';
import { ENTRY_TYPES } from './entries.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const EntryTypeSchema = StringEnum(ENTRY_TYPES, {
  description:
    'charge / charge_reversal (buyer_funds), platform_fee / platform_fee_refund (platform_fees), refund / refund_failure (refunds_out), ' +
    'transfer / transfer_reversal / transfer_failure (transfers_out), shortfall / shortfall_reversal (platform_losses), ' +
    'seller_debt / seller_debt_reversal (seller_receivables: what the seller owes after release), recovery / recovery_reversal (seller_receivables: ' +
    'a release or a payout kept to pay it back, and given back when the release or payout fails), each paired with the seller account ' +
    '(or seller_available:<id> for a payout\'s); seller_debt_write_off (seller_receivables to platform_losses); dispute, dispute_won, dispute_lost ' +
    '(a card dispute: buyer_funds, disputes, and platform_losses, or seller_receivables and platform_fees when the seller owes their part); ' +
    'share_available (a scheduled seller\'s share moved from seller:<id> to seller_available:<id>), payout, payout_failure, payout_cancellation (transfers_out and seller_available:<id>; docs/payouts.md).',
});

export const BalanceTransaction = Type.Object(
  {
    object: Type.Literal('balance_transaction'),
    id: Type.String({ description: 'btx_…: one line of a journal entry.' }),
    entry: Type.String({ description: 'jrn_…: the journal entry; its lines balance (debits = credits).' }),
    type: EntryTypeSchema,
    amount: Type.Integer({ description: "Minor units, signed: positive when the account's balance grows." }),
    currency: Type.String({ description: "The payment's currency, upper case." }),
    account: Type.String({ description: 'buyer_funds, disputes, seller_receivables, platform_losses (debit accounts), platform_fees, transfers_out, refunds_out, seller:<seller id> or seller_available:<seller id> (credit accounts).' }),
    side: StringEnum(['debit', 'credit'] as const, { description: "The account's normal side." }),
    source: Type.String({ description: 'What caused it: the payment (pay_…: charge, fee, transfer, recovery, share_available), the refund (ref_…), the card dispute (cdp_…), the payout (po_…: payout, recovery) or the seller (sel_…: a write-off of their debt).' }),
    payment: Nullable(Type.String({ description: "The payment whose money moved (a checkout's charge for a card dispute on it); null for a payout's entries and a write-off of a seller's debt." })),
    order: Nullable(Type.String()),
    seller: Nullable(Type.String({ description: "The entry's seller, on both of its lines." })),
    processor_reference: Nullable(Type.String({ description: "The processor's id of the movement (charge or intent, refund, transfer, transfer reversal, dispute), for reconciliation." })),
    created: Timestamp,
  },
  {
    additionalProperties: false,
    examples: [
      {
        object: 'balance_transaction', id: 'btx_01jd0000000000000000000000', entry: 'jrn_01jd0000000000000000000000', type: 'charge', amount: 4613, currency: 'USD',
        account: 'buyer_funds', side: 'debit', source: 'pay_01jd0000000000000000000000', payment: 'pay_01jd0000000000000000000000',
        order: 'ord_01jd0000000000000000000000', seller: 'sel_01jd0000000000000000000000', processor_reference: 'ch_sim_123', created: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type BalanceTransaction = Static<typeof BalanceTransaction>;
export const BalanceTransactionList = ListOf(BalanceTransaction);

export const ListBalanceTransactionsQuery = ListQuery({
  seller: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Lines of the seller's entries (both sides of each)." })),
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 110, description: 'Lines on this account (`seller:<id>` for a seller account).' })),
  order: Type.Optional(Id),
  payment: Type.Optional(Id),
  type: Type.Optional(EntryTypeSchema),
  'created[gte]': Type.Optional(TimeInput('Created at or after this time.')),
  'created[gt]': Type.Optional(TimeInput('Created after this time.')),
  'created[lte]': Type.Optional(TimeInput('Created at or before this time.')),
  'created[lt]': Type.Optional(TimeInput('Created before this time.')),
});
export type ListBalanceTransactionsQuery = Static<typeof ListBalanceTransactionsQuery>;

export const SellerBalance = Type.Object(
  {
    object: Type.Literal('seller_balance'),
    seller: Type.String(),
    currency: Type.String({ description: 'The marketplace currency.' }),
    pending: Type.Integer({ description: "The seller account's balance: owed to the seller and not sent yet, nor available (paid orders not released, a scheduled seller's shares within their delay_days, less refunds)." }),
    available: Type.Integer({ description: "A scheduled seller's available balance (the seller_available account): what the next payout pays. Negative when refunds after a payout took more than was left; later shares make it up before anything is paid. 0 for a seller paid per order (docs/payouts.md)." }),
    transferred: Type.Integer({ description: 'Sent to the seller by per-order releases: the sum of transfer lines.' }),
    reversed: Type.Integer({ description: 'Taken back: transfer reversals and transfers that failed after they were made.' }),
    paid_out: Type.Integer({ description: 'Sent to the seller by payouts: payouts pending, in transit or paid (failed and canceled ones came back to available).' }),
    owed: Type.Integer({ description: "What the seller owes the platform after being paid (a refund whose reversal was refused, a lost card dispute's seller part), not recovered from a release or a payout or written off yet: the seller's seller_receivables balance." }),
    net: Type.Integer({ description: 'What the seller keeps of the marketplace: pending + available + transferred + paid_out − reversed − owed.' }),
    next_payout_at: Type.Union([Timestamp, Type.Null()], { description: "When the seller's schedule next runs (00:00 UTC of a run day on the mode's clock); null for per_order and manual schedules." }),
    livemode: Type.Boolean(),
  },
  {
    additionalProperties: false,
    examples: [{ object: 'seller_balance', seller: 'sel_01jd0000000000000000000000', currency: 'USD', pending: 0, available: 0, transferred: 3375, reversed: 1951, paid_out: 0, owed: 0, net: 1424, next_payout_at: null, livemode: false }],
  },
);
export type SellerBalance = Static<typeof SellerBalance>;

export const DailyTotalsQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'How many days, today included (1 to 90; default 30).' })) },
  { additionalProperties: false },
);
export type DailyTotalsQuery = Static<typeof DailyTotalsQuery>;

export const DailyTotal = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'The UTC day (YYYY-MM-DD), on the mode’s clock.' }),
    orders: Type.Integer({ description: 'Orders paid that day: orders whose payment (or checkout share) was charged.' }),
    gross_volume: Type.Integer({ description: 'Charged to buyers that day (charges less charge reversals), in minor units.' }),
    fees: Type.Integer({ description: 'Platform fees earned that day, less the fee part of refunds.' }),
    refunds: Type.Integer({ description: 'Refunded to buyers that day (refunds that succeeded, less those that failed after).' }),
  },
  { additionalProperties: false },
);

export const DailyTotals = Type.Object(
  {
    object: Type.Literal('daily_totals'),
    currency: Type.String({ description: 'The marketplace currency.' }),
    livemode: Type.Boolean(),
    data: Type.Array(DailyTotal, { description: 'One item per day, oldest first, the last one today; a day without movement reads zeros.' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        object: 'daily_totals',
        currency: 'USD',
        livemode: false,
        data: [{ date: '2026-11-28', orders: 3, gross_volume: 58094, fees: 1417, refunds: 1000 }],
      },
    ],
  },
);
export type DailyTotals = Static<typeof DailyTotals>;
