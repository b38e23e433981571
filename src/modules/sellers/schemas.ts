// Seller, storefront and public profile records (contract 5), and the bodies and queries of the
// seller operations. Types are derived from the schemas.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, Metadata, Nullable, NullableTimestamp, PageQuery, StringEnum, Timestamp } from '../../http/schemas.js';

export const SellerStatus = StringEnum(['active', 'suspended']);
export type SellerStatus = Static<typeof SellerStatus>;

export const VerificationState = StringEnum(['unverified', 'pending', 'verified', 'rejected']);
export type VerificationState = Static<typeof VerificationState>;

export const PayoutsStatus = StringEnum(['not_started', 'pending', 'enabled', 'restricted']);
export type PayoutsStatus = Static<typeof PayoutsStatus>;

export const StorefrontRecord = Type.Object(
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
export type Storefront = Static<typeof StorefrontRecord>;

export const SellerRecord = Type.Object(
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
    storefront: Nullable(StorefrontRecord),
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
export type Seller = Static<typeof SellerRecord>;

export const SellerList = ListOf(SellerRecord);

export const Reputation = Type.Object({
  rating_average: Nullable(Type.Number({ description: 'Average rating, one decimal; null without ratings.' })),
  rating_count: Type.Integer(),
  completed_orders: Type.Integer(),
});
export type Reputation = Static<typeof Reputation>;

export const SellerProfileRecord = Type.Object(
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
export type SellerProfile = Static<typeof SellerProfileRecord>;

export const StorefrontBody = Body(
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
export type StorefrontBody = Static<typeof StorefrontBody>;

export const Reason = Type.String({
  minLength: 1,
  maxLength: 500,
  pattern: '\\S',
  description: 'Up to 500 characters, not blank.',
  examples: ['Repeated reports of counterfeit goods.'],
});

export const SuspendBody = Body({ reason: Reason });
export type SuspendBody = Static<typeof SuspendBody>;

export const UnsuspendBody = Body({ reason: Type.Optional(Reason) }, 'Optional: why the suspension ends.');
export type UnsuspendBody = Static<typeof UnsuspendBody>;

export const SellerListQuery = Type.Object(
  {
    ...PageQuery,
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Finds the seller with this external id.' })),
    status: Type.Optional(SellerStatus),
  },
  { additionalProperties: false },
);
export type SellerListQuery = Static<typeof SellerListQuery>;
