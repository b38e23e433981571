// The checkout record, its creation body and list query (docs/decisions/checkouts.md).
import { Type, type Static } from '@sinclair/typebox';
import { ListOf, ListQuery, Metadata, Nullable, StringEnum, Timestamp } from '../../http/schemas.js';
import { ORDER_QUANTITY_MAX, RedirectUrl } from '../orders/index.js';
import { CHECKOUT_STATUSES } from './status.js';

export const CHECKOUT_ITEMS_MAX = 50;

export const CheckoutStatus = StringEnum(CHECKOUT_STATUSES, {
  description:
    '`awaiting_payment` (payments on, until its one payment succeeds), `completed` (every order paid, or made with payments off), `expired` (the payment window passed: every order expired and returned its units) or `cancelled` (every order was cancelled).',
});

export const Checkout = Type.Object(
  {
    object: Type.Literal('checkout'),
    id: Type.String(),
    buyer: Type.String(),
    status: CheckoutStatus,
    orders: Type.Array(Type.String(), { description: 'Its orders (`ord_…`), one per item, in item order. Each is an order like any other: `GET /v1/orders?checkout=` lists them.' }),
    currency: Type.String(),
    subtotal: Type.Integer({ description: "The sum of its orders' subtotals (the sellers' shares)." }),
    fee_amount: Type.Integer({ description: "The sum of its orders' fees (each from its listing's category, else the mode's platform_fee)." }),
    total: Type.Integer({ description: "subtotal + fee_amount: the sum of its orders' totals, the amount of its one payment." }),
    payment: Nullable(Type.String({ description: "The checkout's payment (`pay_…`): one charge for `total`; null with payments off." })),
    payment_url: Nullable(
      Type.String({
        description:
          "The page where the buyer pays the charge (the processor's hosted checkout page) while the checkout awaits its payment; else null. The processor makes the page right after the checkout is created: an answer stored under an `Idempotency-Key` holds null, and `GET /v1/checkouts/{id}` gives the page.",
      }),
    ),
    expires_at: Type.Union([Timestamp, Type.Null()], { description: 'With payments on, the end of the payment window that all its orders share; null with payments off.' }),
    metadata: Metadata,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'Checkout',
    examples: [
      {
        object: 'checkout',
        id: 'chk_01jd3m0000000000000000000c',
        buyer: 'byr_01jd2b7v8k0000000000000000',
        status: 'completed',
        orders: ['ord_01jd3m0000000000000000000a', 'ord_01jd3m0000000000000000000b'],
        currency: 'USD',
        subtotal: 7000,
        fee_amount: 175,
        total: 7175,
        payment: null,
        payment_url: null,
        expires_at: null,
        metadata: { cart: 'c_1234' },
        created_at: '2026-11-21T09:30:00.000Z',
        updated_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type Checkout = Static<typeof Checkout>;
export const CheckoutList = ListOf(Checkout);

export const CheckoutItem = Type.Object(
  {
    listing: Type.String({ minLength: 1, maxLength: 100, examples: ['lst_01jd3k5v8w9x0y1z2a3b4c5d6e'] }),
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: ORDER_QUANTITY_MAX, default: 1, description: '1 to 100000, default 1.' })),
  },
  { additionalProperties: false, description: 'One order to make: a listing and how many of its units.', examples: [{ listing: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6e', quantity: 2 }] },
);

export const CreateCheckoutBody = Type.Object(
  {
    buyer: Type.String({ minLength: 1, maxLength: 100, examples: ['byr_01jd2b7v8k0000000000000000'] }),
    items: Type.Array(CheckoutItem, {
      minItems: 1,
      maxItems: CHECKOUT_ITEMS_MAX,
      description: 'One to 50 items, each becoming one order, in this order. Two items may name the same listing (two orders, one reservation of their units summed).',
    }),
    payment_method: Type.Optional(StringEnum(['checkout_session', 'payment_intent'] as const, { description: 'With payments on: checkout_session (default) or payment_intent.' })),
    success_url: Type.Optional(RedirectUrl("Where the payment page sends the buyer after paying (else the mode's checkout_success_url).")),
    cancel_url: Type.Optional(RedirectUrl("Where the payment page sends the buyer who goes back (else the mode's checkout_cancel_url).")),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [
      {
        buyer: 'byr_01jd2b7v8k0000000000000000',
        items: [{ listing: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6e', quantity: 1 }, { listing: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6f', quantity: 2 }],
        metadata: { cart: 'c_1234' },
      },
    ],
  },
);
export type CreateCheckoutBody = Static<typeof CreateCheckoutBody>;

export const ListCheckoutsQuery = ListQuery({
  buyer: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "One buyer's checkouts." })),
  status: Type.Optional(CheckoutStatus),
});
export type ListCheckoutsQuery = Static<typeof ListCheckoutsQuery>;
