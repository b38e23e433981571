// Review record, its bodies and list query (interface.md 2.10, 4.12; contract 11).
import { Type, type Static } from '@sinclair/typebox';
import { ListOf, ListQuery, Nullable, StringEnum, Timestamp } from '../../http/schemas.js';

export const REVIEW_BODY_MAX = 5000;

export const Review = Type.Object(
  {
    object: Type.Literal('review'),
    id: Type.String(),
    order: Type.String(),
    author_role: StringEnum(['buyer', 'seller'] as const),
    author: Type.String(),
    subject: Type.String({ description: 'The buyer or seller reviewed.' }),
    visible: Type.Boolean({ description: 'False until both parties have reviewed the order or the review window has closed.' }),
    rating: Nullable(Type.Integer({ minimum: 1, maximum: 5, description: 'Null while not visible.' })),
    body: Nullable(Type.String({ description: 'Null while not visible, when none was given, or once its author was erased.' })),
    removed: Type.Boolean({ description: 'Removed by moderation: no longer listed, and no longer counted toward reputation.' }),
    created_at: Timestamp,
  },
  {
    $id: 'Review',
    examples: [
      {
        object: 'review',
        id: 'rev_01jd3p0000000000000000000a',
        order: 'ord_01jd3m0000000000000000000a',
        author_role: 'buyer',
        author: 'byr_01jd2b7v8k0000000000000000',
        subject: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y',
        visible: true,
        rating: 5,
        body: 'Exactly as described.',
        removed: false,
        created_at: '2026-11-25T09:30:00.000Z',
      },
    ],
  },
);
export type Review = Static<typeof Review>;
export const ReviewList = ListOf(Review);

export const CreateReviewBody = Type.Object(
  {
    actor: Type.String({ minLength: 1, maxLength: 100, description: 'The buyer or seller of the order who writes the review.' }),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    body: Type.Optional(Type.String({ maxLength: REVIEW_BODY_MAX, description: 'Up to 5000 characters.' })),
  },
  { additionalProperties: false, examples: [{ actor: 'byr_01jd2b7v8k0000000000000000', rating: 5, body: 'Exactly as described.' }] },
);
export type CreateReviewBody = Static<typeof CreateReviewBody>;

export const RemoveReviewBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Up to 500 characters; kept with the review.' }) },
  { additionalProperties: false, examples: [{ reason: 'Abusive language.' }] },
);
export type RemoveReviewBody = Static<typeof RemoveReviewBody>;

export const ListReviewsQuery = ListQuery({
  subject: Type.String({ minLength: 1, maxLength: 100, description: 'The buyer or seller the reviews are about; required.' }),
});
export type ListReviewsQuery = Static<typeof ListReviewsQuery>;
