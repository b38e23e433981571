// Erasure of personal data from every stored copy the service keeps (contract 5, last row).
// Records are erased by their own module; this rewrites the stored event payloads that carried
// the data: data.object and data.previous_attributes of every event about the given objects.
// The rewritten event ids are returned, so other stored copies built from those events (webhook
// delivery bodies) are rewritten from them in the same transaction.
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';

/** Field name → the value it holds once erased. Only fields present in a payload are touched. */
export type Redaction = Readonly<Record<string, unknown>>;

/** What a seller or buyer record holds of personal data. */
export const PARTY_REDACTION: Redaction = { external_id: null, name: null, email: null, metadata: {} };

type Payload = Record<string, unknown>;

interface StoredEvent {
  id: string;
  data: { object: Payload; previous_attributes?: Payload };
}

function redact(payload: Payload, redaction: Redaction): Payload {
  const out: Payload = { ...payload };
  for (const [field, erased] of Object.entries(redaction)) {
    if (field in out) out[field] = erased;
  }
  return out;
}

/**
 * Rewrites the events whose object is one of objectIds (events.object_id) so that every field of
 * the redaction holds its erased value, in the object and in previous_attributes.
 */
export async function redactStoredEvents(
  tx: Tx,
  scope: Scope,
  objectIds: readonly string[],
  redaction: Redaction,
): Promise<string[]> {
  if (objectIds.length === 0) return [];
  const events = await tx.query<StoredEvent>(
    `SELECT id, data FROM events
      WHERE marketplace_id = $1 AND mode = $2 AND object_id = ANY($3::text[])
      ORDER BY id FOR UPDATE`,
    [scope.marketplaceId, scope.mode, objectIds],
  );
  const rewritten: string[] = [];
  for (const event of events) {
    const data: StoredEvent['data'] = { object: redact(event.data.object, redaction) };
    if (event.data.previous_attributes !== undefined) {
      data.previous_attributes = redact(event.data.previous_attributes, redaction);
    }
    if (JSON.stringify(data) === JSON.stringify(event.data)) continue;
    await tx.query('UPDATE events SET data = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3', [
      scope.marketplaceId,
      scope.mode,
      event.id,
      JSON.stringify(data),
    ]);
    rewritten.push(event.id);
  }
  return rewritten;
}
