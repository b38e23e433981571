// Verification rows as API objects.
import type { VerificationRow } from './queries.js';
import type { Verification } from './schemas.js';

export function serializeVerification(row: VerificationRow): Verification {
  return {
    object: 'verification',
    id: row.id,
    seller: row.seller_id,
    status: row.status,
    reason: row.reason,
    notes: row.notes,
    metadata: row.metadata,
    created_at: row.created_at.toISOString(),
    decided_at: row.decided_at ? row.decided_at.toISOString() : null,
  };
}
