// Buyer record, its bodies (the party bodies of parties/) and the list query.
import { Type, type Static } from '@sinclair/typebox';
import { ListOf, ListQuery, Metadata, Nullable, NullableTimestamp, Timestamp } from '../../http/schemas.js';
import { CreatePartyBody, UpdatePartyBody } from '../parties/index.js';

export const Buyer = Type.Object(
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
export type Buyer = Static<typeof Buyer>;

export const BuyerList = ListOf(Buyer);

export const CreateBuyerBody = {
  ...CreatePartyBody,
  examples: [{ external_id: 'user_7310', name: 'Grace Hopper', email: 'grace@example.com' }],
};
export type CreateBuyerBody = Static<typeof CreateBuyerBody>;

export const UpdateBuyerBody = { ...UpdatePartyBody, examples: [{ email: 'grace.hopper@example.com' }] };
export type UpdateBuyerBody = Static<typeof UpdateBuyerBody>;

export const ListBuyersQuery = ListQuery({
  external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Finds the buyer with this external id.' })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only those whose name starts with this text, case-insensitively (`Ada` finds `Ada Lovelace`).' })),
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'Only those with this email address, case-insensitively.' })),
});
export type ListBuyersQuery = Static<typeof ListBuyersQuery>;
