// Order, order transition and dispute records, their bodies and list queries (contract 9, 12).
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, ListQuery, Metadata, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../../http/schemas.js';
import { ERASED_TEXT } from '../../contracts/redaction.js';
import { DISPUTE_STATUSES } from './dispute-machine.js';
import { ORDER_STATES } from './machine.js';

export const ORDER_QUANTITY_MAX = 100_000;
export const REASON_MAX = 500;
export const DISPUTE_TEXT_MAX = 5000;

export const OrderState = StringEnum(ORDER_STATES, {
  description: 'awaiting_payment, committed, claimed, disputed, completed, cancelled or expired.',
});
const Id = (example: string) => Type.String({ minLength: 1, maxLength: 100, examples: [example] });
const PartyId = Type.String({ minLength: 1, maxLength: 100, description: 'The buyer or seller id of the end user who acts.', examples: ['byr_01jd2b7v8k0000000000000000'] });
const Reason = Type.String({ minLength: 1, maxLength: REASON_MAX, description: 'Up to 500 characters.' });

/** What a party's text reads as once that party is erased (src/modules/orders/erasure.ts). */
const ERASED_NOTE = `Reads \`${ERASED_TEXT}\` once the party who wrote it is erased.`;

export const Cancellation = Type.Object({
  proposed_by: StringEnum(['buyer', 'seller'] as const),
  reason: Nullable(Type.String({ description: ERASED_NOTE })),
  proposed_at: Timestamp,
});

export const BOOKING_TIME_MAX = 40;

export const OrderBooking = Type.Object(
  {
    start: Timestamp,
    end: Timestamp,
    seats: Type.Integer({ description: 'Seats held; quantity = the units of time (nights, slots) × seats.' }),
    time_zone: Type.String({ description: "The listing's IANA time zone when the booking was made.", examples: ['Europe/Berlin'] }),
  },
  { description: 'The time the order holds (a listing that sells time), end exclusive; null for an order of counted units.' },
);

/** A booking asked for: the time of a day or time listing (docs/bookings.md). */
export const BookingRequest = Type.Object(
  {
    start: Type.String({ minLength: 1, maxLength: BOOKING_TIME_MAX, description: 'An ISO 8601 timestamp; for a day listing a date (`2026-10-24`: its local midnight) is also taken.' }),
    end: Type.String({ minLength: 1, maxLength: BOOKING_TIME_MAX, description: 'End exclusive, as start: for a day listing the check-out date.' }),
    seats: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Seats, default 1; at most the listing\'s seats.' })),
  },
  { additionalProperties: false, description: 'For a listing of unit_type day or time (and only for one): the time to book, reserved with the order.' },
);
export type BookingRequest = Static<typeof BookingRequest>;

export const Order = Type.Object(
  {
    object: Type.Literal('order'),
    id: Type.String(),
    buyer: Type.String(),
    seller: Type.String(),
    listing: Type.String(),
    quantity: Type.Integer(),
    unit_amount: Type.Integer({ description: "The listing's price when the order was made." }),
    subtotal: Type.Integer({ description: 'unit_amount × quantity: the seller share.' }),
    fee_amount: Type.Integer({ description: "round_half_up(subtotal × percent_bps / 10000) + fixed_amount, from the category's fee or the mode's platform_fee." }),
    total: Type.Integer({ description: 'subtotal + fee_amount.' }),
    currency: Type.String(),
    state: OrderState,
    payment: Nullable(Type.String()),
    cancellation: Nullable(Cancellation),
    dispute: Nullable(Type.String()),
    deadline: Nullable(Timestamp),
    metadata: Metadata,
    checkout: Nullable(Type.String({ description: 'The checkout the order was made in (`chk_…`); null for an order made alone.' })),
    booking: Nullable(OrderBooking),
    claimed_at: NullableTimestamp,
    completed_at: NullableTimestamp,
    cancelled_at: NullableTimestamp,
    expired_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'Order',
    examples: [
      {
        object: 'order',
        id: 'ord_01jd3m0000000000000000000a',
        buyer: 'byr_01jd2b7v8k0000000000000000',
        seller: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y',
        listing: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6e',
        quantity: 1,
        unit_amount: 4500,
        subtotal: 4500,
        fee_amount: 113,
        total: 4613,
        currency: 'USD',
        state: 'committed',
        payment: null,
        cancellation: null,
        dispute: null,
        deadline: '2026-11-28T09:30:00.000Z',
        metadata: {},
        checkout: null,
        booking: null,
        claimed_at: null,
        completed_at: null,
        cancelled_at: null,
        expired_at: null,
        created_at: '2026-11-21T09:30:00.000Z',
        updated_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type Order = Static<typeof Order>;
export const OrderList = ListOf(Order);

/**
 * A page the buyer is sent to: http or https only. The uri format alone would let javascript:,
 * data: or ftp: through, and the processor's page would follow them.
 */
export function RedirectUrl(description: string) {
  return Type.String({
    format: 'uri',
    maxLength: 2000,
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
    description: `${description} An http:// or https:// URL, up to 2000 characters; any other scheme (javascript:, data:, ftp:) answers 400 invalid_request naming the field.`,
  });
}

export const CreateOrderBody = Type.Object(
  {
    buyer: Id('byr_01jd2b7v8k0000000000000000'),
    listing: Id('lst_01jd3k5v8w9x0y1z2a3b4c5d6e'),
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: ORDER_QUANTITY_MAX, default: 1, description: '1 to 100000, default 1.' })),
    payment_method: Type.Optional(StringEnum(['checkout_session', 'payment_intent'] as const, { description: 'With payments on: checkout_session (default) or payment_intent.' })),
    success_url: Type.Optional(RedirectUrl('Where Checkout sends the buyer after paying (else the mode\'s checkout_success_url).')),
    cancel_url: Type.Optional(RedirectUrl('Where Checkout sends the buyer who goes back (else the mode\'s checkout_cancel_url).')),
    metadata: Type.Optional(Metadata),
    booking: Type.Optional(BookingRequest),
  },
  { additionalProperties: false, examples: [{ buyer: 'byr_01jd2b7v8k0000000000000000', listing: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6e', quantity: 1 }] },
);
export type CreateOrderBody = Static<typeof CreateOrderBody>;

export const ActorBody = Type.Object(
  { actor: PartyId, reason: Type.Optional(Reason) },
  {
    additionalProperties: false,
    description: 'The end user who acts (the buyer or the seller of the order), and an optional reason.',
    examples: [{ actor: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y' }],
  },
);
export type ActorBody = Static<typeof ActorBody>;

/** cancel: with an actor (a party, awaiting payment only) or without (the platform). */
export const CancelOrderBody = Type.Union(
  [Body({ actor: Type.Optional(PartyId), reason: Type.Optional(Reason) }), Type.Null()],
  { description: 'Without `actor` the platform cancels; with it, a party does (awaiting_payment only).', examples: [{ reason: 'Out of stock.' }] },
);
export type CancelOrderBody = Static<typeof CancelOrderBody>;

export const DISPUTE_REASONS = ['not_received', 'not_as_described', 'other'] as const;
export const DisputeOrderBody = Type.Object(
  {
    actor: PartyId,
    reason: StringEnum(DISPUTE_REASONS, { description: 'not_received, not_as_described or other.' }),
    description: Type.String({ minLength: 1, maxLength: DISPUTE_TEXT_MAX, description: 'Up to 5000 characters.' }),
  },
  { additionalProperties: false, examples: [{ actor: 'byr_01jd2b7v8k0000000000000000', reason: 'not_received', description: 'Nothing arrived after two weeks.' }] },
);
export type DisputeOrderBody = Static<typeof DisputeOrderBody>;

export const ListOrdersQuery = ListQuery({
  buyer: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  seller: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  listing: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  state: Type.Optional(OrderState),
  checkout: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The orders of one checkout (`chk_…`).' })),
});
export type ListOrdersQuery = Static<typeof ListOrdersQuery>;

export const OrderTransition = Type.Object(
  {
    object: Type.Literal('order_transition'),
    id: Type.String(),
    order: Type.String(),
    from: Nullable(OrderState),
    to: OrderState,
    transition: Type.String({ description: '`create`, or the operation of the order table (docs/orders.md).' }),
    actor: Nullable(Type.String({ description: 'The acting buyer or seller; null for the platform, a timer or the processor.' })),
    reason: Nullable(
      Type.String({ description: `The acting party's or the platform's reason (for \`dispute\`, the dispute's reason). A party's reason reads \`${ERASED_TEXT}\` once that party is erased.` }),
    ),
    created_at: Timestamp,
  },
  {
    examples: [
      {
        object: 'order_transition',
        id: 'otr_01jd3m0000000000000000000b',
        order: 'ord_01jd3m0000000000000000000a',
        from: null,
        to: 'committed',
        transition: 'create',
        actor: null,
        reason: null,
        created_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type OrderTransition = Static<typeof OrderTransition>;
export const OrderTransitionList = ListOf(OrderTransition);
export const ListOrderTransitionsQuery = ListQuery({});

// ---- disputes ----

export const DisputeStatus = StringEnum(DISPUTE_STATUSES, { description: 'open or decided.' });

export const Evidence = Type.Object({ actor: Type.String(), text: Type.String({ description: ERASED_NOTE }), created_at: Timestamp });

export const Dispute = Type.Object(
  {
    object: Type.Literal('dispute'),
    id: Type.String(),
    order: Type.String(),
    opened_by: Type.String(),
    reason: StringEnum(DISPUTE_REASONS),
    description: Type.String({ description: ERASED_NOTE }),
    status: DisputeStatus,
    outcome: Nullable(StringEnum(['buyer', 'seller'] as const)),
    decision_note: Nullable(Type.String()),
    decision_due_at: Timestamp,
    evidence: Type.Array(Evidence),
    created_at: Timestamp,
    decided_at: NullableTimestamp,
  },
  {
    $id: 'Dispute',
    examples: [
      {
        object: 'dispute',
        id: 'dsp_01jd3n0000000000000000000a',
        order: 'ord_01jd3m0000000000000000000a',
        opened_by: 'byr_01jd2b7v8k0000000000000000',
        reason: 'not_received',
        description: 'Nothing arrived after two weeks.',
        status: 'open',
        outcome: null,
        decision_note: null,
        decision_due_at: '2026-11-28T09:30:00.000Z',
        evidence: [{ actor: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y', text: 'Tracking number 1Z999.', created_at: '2026-11-21T10:00:00.000Z' }],
        created_at: '2026-11-21T09:30:00.000Z',
        decided_at: null,
      },
    ],
  },
);
export type Dispute = Static<typeof Dispute>;
export const DisputeList = ListOf(Dispute);

export const ListDisputesQuery = ListQuery({
  order: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  status: Type.Optional(DisputeStatus),
});
export type ListDisputesQuery = Static<typeof ListDisputesQuery>;

export const AddEvidenceBody = Type.Object(
  { actor: PartyId, text: Type.String({ minLength: 1, maxLength: DISPUTE_TEXT_MAX, description: 'Up to 5000 characters.' }) },
  { additionalProperties: false, examples: [{ actor: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y', text: 'Tracking number 1Z999.' }] },
);
export type AddEvidenceBody = Static<typeof AddEvidenceBody>;

export const DecideDisputeBody = Type.Object(
  {
    outcome: StringEnum(['buyer', 'seller'] as const, { description: 'For whom the platform decides.' }),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: DISPUTE_TEXT_MAX })),
  },
  { additionalProperties: false, examples: [{ outcome: 'buyer', note: 'No proof of delivery.' }] },
);
export type DecideDisputeBody = Static<typeof DecideDisputeBody>;
