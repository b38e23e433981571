// Reputation event row → the API object.
import type { ReputationEventRow } from './queries.js';
import type { ReputationEvent } from './schemas.js';

export function serializeReputationEvent(row: ReputationEventRow): ReputationEvent {
  return {
    object: 'reputation_event',
    id: row.id,
    subject: row.subject_id,
    kind: row.kind,
    order: row.order_id,
    review: row.review_id,
    rating: row.rating,
    voided: row.voided,
    created_at: new Date(row.created_at).toISOString(),
  };
}
