// Erasure of personal data from every stored copy the service keeps (contract 5, last row).
// Stored answers of idempotent requests (replayed for 24 hours) are rewritten the same way.
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

/**
 * Rewrites the stored answers of idempotent requests (kept for replays, contract 4) whose body is
 * one of objectIds, so that every field of the redaction holds its erased value: a replay after
 * erasure answers the erased values, and no copy of the personal data outlives the erasure.
 */
export async function redactStoredResponses(
  tx: Tx,
  scope: Scope,
  objectIds: readonly string[],
  redaction: Redaction,
): Promise<void> {
  if (objectIds.length === 0) return;
  const ids = new Set(objectIds);
  const rows = await tx.query<{ key: string; response_body: string }>(
    `SELECT key, response_body FROM idempotency_keys
      WHERE marketplace_id = $1 AND mode = $2 AND response_body LIKE ANY($3::text[])
      ORDER BY key FOR UPDATE`,
    [scope.marketplaceId, scope.mode, objectIds.map((id) => `%${id}%`)],
  );
  for (const row of rows) {
    let body: unknown;
    try {
      body = JSON.parse(row.response_body);
    } catch {
      continue;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) continue;
    const payload = body as Payload;
    if (typeof payload.id !== 'string' || !ids.has(payload.id)) continue;
    await tx.query('UPDATE idempotency_keys SET response_body = $4 WHERE marketplace_id = $1 AND mode = $2 AND key = $3', [
      scope.marketplaceId,
      scope.mode,
      row.key,
      JSON.stringify(redact(payload, redaction)),
    ]);
  }
}
