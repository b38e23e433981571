// Payment, refund and card dispute records, their bodies and list queries (interface.md 2.8, 2.9,
// 4.10, 4.11; contract 10, 12, 15).
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, ListQuery, MAX_AMOUNT, Metadata, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../../http/schemas.js';
import { PAYMENT_STATES, REFUND_STATES } from './machines.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const NullableId = Nullable(Type.String());

export const PaymentStatus = StringEnum(PAYMENT_STATES, { description: 'awaiting_payment, succeeded or canceled.' });
export const RELEASE_STATUSES = ['held', 'releasing', 'released', 'failed', 'nothing_to_release', 'in_balance'] as const;

export const Release = Type.Object({
  status: Nullable(StringEnum(RELEASE_STATUSES, { description: "held, releasing, released, failed, nothing_to_release, or in_balance (a seller paid on a schedule: the share moved to the seller's available balance, paid by a payout; docs/payouts.md); null until the buyer pays." })),
  amount: Type.Integer({ description: "The seller's share that is or will be transferred: while held, the planned amount, lowered by refunds; fixed once releasing." }),
  amount_reversed: Type.Integer({ description: 'Taken back from the seller for refunds after release.' }),
  recovered: Type.Integer({
    description:
      "The part of `amount` kept to pay what the seller owed (a `recovery` balance transaction); the transfer is the rest. Equal to `amount` when the whole share was kept: released with no transfer (`processor.transfer` null). 0 otherwise, and again when the release fails (it is owed again).",
  }),
  failure: Nullable(Type.String()),
  released_at: NullableTimestamp,
});

export const Payment = Type.Object(
  {
    object: Type.Literal('payment'),
    id: Type.String(),
    order: Nullable(Type.String({ description: "The order paid; null for a checkout's charge (its shares name the orders)." })),
    checkout: Nullable(Type.String({ description: "The checkout of a charge or share; null for an order's own payment." })),
    charge_payment: Nullable(
      Type.String({
        description:
          "For an order's share of a checkout's charge: the charge, the one payment the processor took. The share holds its order's release and refunds; null otherwise.",
      }),
    ),
    method: StringEnum(['checkout_session', 'payment_intent'] as const),
    status: PaymentStatus,
    amount: Type.Integer({ description: "The order's total: subtotal + fee_amount (a checkout's charge: the checkout's total)." }),
    fee_amount: Type.Integer({ description: "The customer's platform fee." }),
    currency: Type.String(),
    checkout_url: Nullable(Type.String({ description: 'The processor-hosted checkout; only while payment is due.' })),
    client_secret: Nullable(Type.String({ description: "For the processor's embedded payment form; only while payment is due." })),
    last_failure: Nullable(Type.String()),
    amount_refunded: Type.Integer({ description: 'Refunded or being refunded.' }),
    release: Release,
    processor: Type.Object({ payment_intent: NullableId, checkout_session: NullableId, charge: NullableId, transfer: NullableId }),
    metadata: Metadata,
    paid_at: NullableTimestamp,
    canceled_at: NullableTimestamp,
    amount_mismatch: Nullable(
      Type.Object(
        { amount: Type.Integer(), currency: Type.String(), reported_at: Timestamp },
        {
          description:
            "Set when the processor reported a success with another amount or currency than this payment's: that report was not applied (the payment did not succeed from it, the order was not paid) and `last_failure` says so. Check the payment at the processor; the dashboard flags it. Null while every report agreed.",
        },
      ),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "The payment of an order, a checkout's charge, or an order's share of that charge (docs/payments.md; docs/decisions/checkouts.md).", examples: [{
        object: 'payment',
        id: 'pay_01jd4a1b2c3d4e5f6g7h8j9k0m',
        order: 'ord_01jd4a0z9y8x7w6v5t4s3r2q1p',
        checkout: null,
        charge_payment: null,
        method: 'checkout_session',
        status: 'succeeded',
        amount: 4613,
        fee_amount: 113,
        currency: 'USD',
        checkout_url: null,
        client_secret: null,
        last_failure: null,
        amount_refunded: 0,
        release: { status: 'held', amount: 4500, amount_reversed: 0, recovered: 0, failure: null, released_at: null },
        processor: { payment_intent: 'pi_3QbX2c2eZvKYlo2C1abcdEfG', checkout_session: 'cs_test_a1b2c3', charge: 'ch_3QbX2c2eZvKYlo2C1xyz', transfer: null },
        metadata: {},
        paid_at: '2026-11-21T09:31:12.000Z',
        canceled_at: null,
        amount_mismatch: null,
        created_at: '2026-11-21T09:30:00.000Z',
        updated_at: '2026-11-21T09:31:12.000Z',
      }] },
);
export type Payment = Static<typeof Payment>;
export const PaymentList = ListOf(Payment);

export const ListPaymentsQuery = ListQuery({ order: Type.Optional(Id), status: Type.Optional(PaymentStatus) });
export type ListPaymentsQuery = Static<typeof ListPaymentsQuery>;

export const MetadataBody = Type.Object({ metadata: Metadata }, { additionalProperties: false, description: 'Replaces the metadata.', examples: [{ metadata: { invoice: 'INV-1042' } }] });
export type MetadataBody = Static<typeof MetadataBody>;

export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
export const INITIATORS = ['api', 'order_cancelled', 'order_expired', 'late_payment', 'processor'] as const;

export const Refund = Type.Object(
  {
    object: Type.Literal('refund'),
    id: Type.String(),
    payment: Type.String(),
    order: Type.String(),
    amount: Type.Integer(),
    currency: Type.String(),
    reason: Nullable(StringEnum(REFUND_REASONS)),
    initiated_by: StringEnum(INITIATORS, {
      description: "api, order_cancelled, order_expired, late_payment, or processor (made in the processor's dashboard; does not reverse the transfer).",
    }),
    status: StringEnum(REFUND_STATES, { description: 'pending, succeeded, failed or canceled.' }),
    failure_reason: Nullable(Type.String()),
    transfer_reversal: Nullable(
      Type.Object(
        {
          amount: Type.Integer({ description: "What the refund takes back from the seller's transfer." }),
          status: StringEnum(['pending', 'succeeded', 'failed'] as const, {
            description: "failed: the processor refused it (the seller's balance was short); the buyer is refunded all the same and `amount` is the platform's shortfall.",
          }),
          failure_reason: Nullable(Type.String({ description: "The processor's message when the reversal failed." })),
        },
        { description: "Taken back from the seller's transfer: present when the refund came after release." },
      ),
    ),
    processor: Type.Object({ refund: NullableId, transfer_reversal: NullableId }),
    metadata: Metadata,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'A refund of a payment (docs/payments.md).', examples: [{
        object: 'refund',
        id: 'ref_01jd4b2c3d4e5f6g7h8j9k0m1n',
        payment: 'pay_01jd4a1b2c3d4e5f6g7h8j9k0m',
        order: 'ord_01jd4a0z9y8x7w6v5t4s3r2q1p',
        amount: 1153,
        currency: 'USD',
        reason: 'requested_by_customer',
        initiated_by: 'api',
        status: 'pending',
        failure_reason: null,
        transfer_reversal: { amount: 1125, status: 'pending', failure_reason: null },
        processor: { refund: null, transfer_reversal: null },
        metadata: {},
        created_at: '2026-11-23T10:00:00.000Z',
        updated_at: '2026-11-23T10:00:00.000Z',
      }] },
);
export type Refund = Static<typeof Refund>;
export const RefundList = ListOf(Refund);

export const CreateRefundBody = Type.Object(
  {
    payment: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "The payment to refund; give this or `order`. A checkout's charge is refunded across its orders in item order." })),
    order: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The order whose payment to refund; give this or `payment`.' })),
    amount: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AMOUNT, description: 'Minor units; defaults to everything not yet refunded.' })),
    reason: Type.Optional(StringEnum(REFUND_REASONS)),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, examples: [{ order: 'ord_01jd2b7v8k0000000000000000', amount: 500, reason: 'requested_by_customer' }] },
);
export type CreateRefundBody = Static<typeof CreateRefundBody>;

export const ListRefundsQuery = ListQuery({
  payment: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "The payment refunded; a checkout's charge lists the refunds of its orders' shares." })),
  order: Type.Optional(Id),
});
export type ListRefundsQuery = Static<typeof ListRefundsQuery>;

export const CardDispute = Type.Object(
  {
    object: Type.Literal('card_dispute'),
    id: Type.String(),
    payment: Type.String(),
    order: Nullable(Type.String({ description: "The order paid; null for a dispute of a checkout's charge (about all its orders)." })),
    amount: Type.Integer(),
    reason: Type.String({ description: "The processor's reason, as it gives it (fraudulent, product_not_received, …)." }),
    status: Type.String({ description: "The processor's status, as it gives it (needs_response, under_review, won, lost, …)." }),
    evidence_due_by: NullableTimestamp,
    processor: Type.Object({ dispute: Type.String() }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'A chargeback the processor reported.', examples: [{
        object: 'card_dispute',
        id: 'cdp_01jd4c3d4e5f6g7h8j9k0m1n2p',
        payment: 'pay_01jd4a1b2c3d4e5f6g7h8j9k0m',
        order: 'ord_01jd4a0z9y8x7w6v5t4s3r2q1p',
        amount: 4613,
        reason: 'fraudulent',
        status: 'needs_response',
        evidence_due_by: '2026-12-01T23:59:59.000Z',
        processor: { dispute: 'dp_1QbX2c2eZvKYlo2C' },
        created_at: '2026-11-24T08:00:00.000Z',
        updated_at: '2026-11-24T08:00:00.000Z',
      }] },
);
export type CardDispute = Static<typeof CardDispute>;
export const CardDisputeList = ListOf(CardDispute);
export const ListCardDisputesQuery = ListQuery({ payment: Type.Optional(Id), order: Type.Optional(Id), status: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: "The processor's status, as it gives it (needs_response, under_review, won, lost, …)." })) });
export type ListCardDisputesQuery = Static<typeof ListCardDisputesQuery>;

// Test helpers (contract 15).
export const SucceedPaymentBody = Type.Union([
  Body({
    amount: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description: "What the processor says it took; defaults to the payment's amount." })),
    currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: "Defaults to the payment's currency." })),
  }),
  Type.Null(),
]);
export type SucceedPaymentBody = Static<typeof SucceedPaymentBody>;
export const FailPaymentBody = Type.Union([Body({ message: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) }), Type.Null()]);
export type FailPaymentBody = Static<typeof FailPaymentBody>;
export const ProcessorRefundBody = Type.Object({ amount: Type.Integer({ minimum: 1, maximum: MAX_AMOUNT }) }, { additionalProperties: false, examples: [{ amount: 500 }] });
export type ProcessorRefundBody = Static<typeof ProcessorRefundBody>;
export const CardDisputeBody = Type.Union([
  Body({
    amount: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AMOUNT, description: 'Defaults to the payment amount.' })),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default fraudulent.' })),
  }),
  Type.Null(),
]);
export type CardDisputeBody = Static<typeof CardDisputeBody>;
