// Buyer record (contract 5) and the list query. The bodies are the party bodies of parties/.
import { Type, type Static } from '@sinclair/typebox';
import { ListOf, Metadata, Nullable, NullableTimestamp, PageQuery, Timestamp } from '../../http/schemas.js';

export const BuyerRecord = Type.Object(
  {
    object: Type.Literal('buyer'),
    id: Type.String(),
    external_id: Nullable(Type.String()),
    name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    metadata: Metadata,
    erased_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    examples: [
      {
        object: 'buyer',
        id: 'byr_01jd2b7v8k0000000000000000',
        external_id: 'user_7310',
        name: 'Grace Hopper',
        email: 'grace@example.com',
        metadata: {},
        erased_at: null,
        created_at: '2026-11-21T09:30:00.000Z',
        updated_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type Buyer = Static<typeof BuyerRecord>;

export const BuyerList = ListOf(BuyerRecord);

export const BuyerListQuery = Type.Object(
  {
    ...PageQuery,
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Finds the buyer with this external id.' })),
  },
  { additionalProperties: false },
);
export type BuyerListQuery = Static<typeof BuyerListQuery>;
