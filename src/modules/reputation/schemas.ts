// Reputation event record and its list query (contract 11).
import { Type, type Static } from '@sinclair/typebox';
import { ListOf, ListQuery, Nullable, StringEnum, Timestamp } from '../../http/schemas.js';

export const ReputationEvent = Type.Object(
  {
    object: Type.Literal('reputation_event'),
    id: Type.String(),
    subject: Type.String({ description: 'The buyer or seller whose reputation it counts toward.' }),
    kind: StringEnum(['review', 'order_completed', 'dispute_lost'] as const),
    order: Type.String(),
    review: Nullable(Type.String()),
    rating: Nullable(Type.Integer()),
    voided: Type.Boolean({ description: 'A voided event (its review was removed) no longer counts.' }),
    created_at: Timestamp,
  },
  {
    $id: 'ReputationEvent',
    examples: [
      {
        object: 'reputation_event',
        id: 'rep_01jd3q0000000000000000000a',
        subject: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y',
        kind: 'review',
        order: 'ord_01jd3m0000000000000000000a',
        review: 'rev_01jd3p0000000000000000000a',
        rating: 5,
        voided: false,
        created_at: '2026-11-25T09:30:00.000Z',
      },
    ],
  },
);
export type ReputationEvent = Static<typeof ReputationEvent>;
export const ReputationEventList = ListOf(ReputationEvent);

export const ListReputationEventsQuery = ListQuery({
  subject: Type.String({ minLength: 1, maxLength: 100, description: 'The buyer or seller; required.' }),
});
export type ListReputationEventsQuery = Static<typeof ListReputationEventsQuery>;
