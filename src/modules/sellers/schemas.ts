// Seller, storefront and public profile records, and the bodies and queries of the
// seller operations. Types are derived from the schemas.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, ListQuery, Metadata, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../../http/schemas.js';
import { CreatePartyBody, UpdatePartyBody } from '../parties/index.js';

export const SellerStatus = StringEnum(['active', 'suspended']);
export type SellerStatus = Static<typeof SellerStatus>;

export const VerificationState = StringEnum(['unverified', 'pending', 'verified', 'rejected']);
export type VerificationState = Static<typeof VerificationState>;

export const PayoutsStatus = StringEnum(['not_started', 'pending', 'enabled', 'restricted']);
export type PayoutsStatus = Static<typeof PayoutsStatus>;

export const Storefront = Type.Object(
  {
    object: Type.Literal('storefront'),
    id: Type.String(),
    seller: Type.String(),
    name: Type.String(),
    slug: Nullable(Type.String()),
    description: Nullable(Type.String()),
    metadata: Metadata,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    examples: [
      {
        object: 'storefront',
        id: 'sto_01jd2b7v8k0000000000000000',
        seller: 'sel_01jd2b7v8k0000000000000000',
        name: "Ada's Prints",
        slug: 'adas-prints',
        description: 'Letterpress prints made in Lisbon.',
        metadata: {},
        created_at: '2026-11-21T09:30:00.000Z',
        updated_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type Storefront = Static<typeof Storefront>;

export const Seller = Type.Object(
  {
    object: Type.Literal('seller'),
    id: Type.String(),
    external_id: Nullable(Type.String()),
    name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    status: SellerStatus,
    suspended_reason: Nullable(Type.String()),
    verification: Type.Object({ status: VerificationState, updated_at: NullableTimestamp }),
    payouts: Type.Object({ status: PayoutsStatus, processor_account: Nullable(Type.String()) }),
    storefront: Nullable(Storefront),
    metadata: Metadata,
    erased_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    examples: [
      {
        object: 'seller',
        id: 'sel_01jd2b7v8k0000000000000000',
        external_id: 'user_4821',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        status: 'active',
        suspended_reason: null,
        verification: { status: 'unverified', updated_at: null },
        payouts: { status: 'not_started', processor_account: null },
        storefront: null,
        metadata: {},
        erased_at: null,
        created_at: '2026-11-21T09:30:00.000Z',
        updated_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type Seller = Static<typeof Seller>;

export const SellerList = ListOf(Seller);

export const Reputation = Type.Object({
  rating_average: Nullable(Type.Number({ description: 'Average rating, one decimal; null without ratings.' })),
  rating_count: Type.Integer(),
  completed_orders: Type.Integer(),
});
export type Reputation = Static<typeof Reputation>;

export const SellerProfile = Type.Object(
  {
    object: Type.Literal('seller_profile'),
    id: Type.String(),
    name: Nullable(Type.String()),
    storefront: Nullable(Type.Object({ name: Type.String(), slug: Nullable(Type.String()), description: Nullable(Type.String()) })),
    reputation: Reputation,
    created_at: Timestamp,
  },
  {
    description: 'What a buyer may see of a seller: no email, external id or metadata.',
    examples: [
      {
        object: 'seller_profile',
        id: 'sel_01jd2b7v8k0000000000000000',
        name: 'Ada Lovelace',
        storefront: { name: "Ada's Prints", slug: 'adas-prints', description: 'Letterpress prints made in Lisbon.' },
        reputation: { rating_average: null, rating_count: 0, completed_orders: 0 },
        created_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type SellerProfile = Static<typeof SellerProfile>;

export const CreateSellerBody = {
  ...CreatePartyBody,
  examples: [{ external_id: 'user_4821', name: 'Ada Lovelace', email: 'ada@example.com' }],
};
export type CreateSellerBody = Static<typeof CreateSellerBody>;

export const UpdateSellerBody = { ...UpdatePartyBody, examples: [{ name: 'Ada King', metadata: { tier: 'gold' } }] };
export type UpdateSellerBody = Static<typeof UpdateSellerBody>;

export const PutStorefrontBody = Body(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 120,
      pattern: '\\S',
      description: 'Up to 120 characters, not blank.',
      examples: ["Ada's Prints"],
    }),
    slug: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[a-z0-9-]{3,60}$',
          description: 'Unique per marketplace and mode; null or left out: no slug.',
          examples: ['adas-prints'],
        }),
      ),
    ),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    metadata: Type.Optional(Metadata),
  },
  'Storefront body: creates the storefront or replaces it whole (fields left out become null or empty).',
);
Object.assign(PutStorefrontBody, {
  examples: [{ name: "Ada's Prints", slug: 'adas-prints', description: 'Letterpress prints made in Lisbon.' }],
});
export type PutStorefrontBody = Static<typeof PutStorefrontBody>;

export const Reason = Type.String({
  minLength: 1,
  maxLength: 500,
  pattern: '\\S',
  description: 'Up to 500 characters, not blank.',
  examples: ['Repeated reports of counterfeit goods.'],
});

export const SuspendSellerBody = Body({ reason: Reason });
Object.assign(SuspendSellerBody, { examples: [{ reason: 'Repeated reports of counterfeit goods.' }] });
export type SuspendSellerBody = Static<typeof SuspendSellerBody>;

export const UnsuspendSellerBody = Body({ reason: Type.Optional(Reason) }, 'Optional: why the suspension ends.');
Object.assign(UnsuspendSellerBody, { examples: [{ reason: 'Appeal accepted.' }] });
export type UnsuspendSellerBody = Static<typeof UnsuspendSellerBody>;

export const ListSellersQuery = ListQuery({
  external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Finds the seller with this external id.' })),
  status: Type.Optional(SellerStatus),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only those whose name starts with this text, case-insensitively (`Ada` finds `Ada Lovelace`).' })),
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'Only those with this email address, case-insensitively.' })),
});
export type ListSellersQuery = Static<typeof ListSellersQuery>;
