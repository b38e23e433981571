// Verification records and the bodies and queries of the verification operations.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, ListQuery, Metadata, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../../http/schemas.js';
import { Reason } from '../sellers/index.js';

export const VerificationStatus = StringEnum(['pending', 'verified', 'rejected']);
export type VerificationStatus = Static<typeof VerificationStatus>;

export const Verification = Type.Object(
  {
    object: Type.Literal('verification'),
    id: Type.String(),
    seller: Type.String(),
    status: VerificationStatus,
    reason: Nullable(Type.String({ description: 'Why it was rejected.' })),
    notes: Nullable(Type.String()),
    metadata: Metadata,
    created_at: Timestamp,
    decided_at: NullableTimestamp,
  },
  {
    examples: [
      {
        object: 'verification',
        id: 'ver_01jd2b7v8k0000000000000000',
        seller: 'sel_01jd2b7v8k0000000000000000',
        status: 'pending',
        reason: null,
        notes: 'Business registration checked by phone.',
        metadata: {},
        created_at: '2026-11-21T09:30:00.000Z',
        decided_at: null,
      },
    ],
  },
);
export type Verification = Static<typeof Verification>;

export const VerificationList = ListOf(Verification);

export const CreateVerificationBody = Body({
  notes: Type.Optional(Type.String({ maxLength: 2000, examples: ['Business registration checked by phone.'] })),
  metadata: Type.Optional(Metadata),
});
Object.assign(CreateVerificationBody, { examples: [{ notes: 'Business registration checked by phone.' }] });
export type CreateVerificationBody = Static<typeof CreateVerificationBody>;

export const RejectVerificationBody = Body({ reason: Reason });
Object.assign(RejectVerificationBody, { examples: [{ reason: 'The registration number does not match the business name.' }] });
export type RejectVerificationBody = Static<typeof RejectVerificationBody>;

export const ListVerificationsQuery = ListQuery({
  seller: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this seller\'s verifications.' })),
  status: Type.Optional(VerificationStatus),
});
export type ListVerificationsQuery = Static<typeof ListVerificationsQuery>;
