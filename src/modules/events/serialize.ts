// Event rows as the event envelope (docs/architecture.md, "Events: the outbox"), and the catalog's
// entries as event_type objects.
import type { TSchema } from '@sinclair/typebox';
import type { EventRecord, EventType, EventTypeEntry } from '../../contracts/events.js';
import { eventEnvelope } from '../../outbox/envelope.js';
import type { EventRow } from './queries.js';
import type { EventTypeObject } from './schemas.js';

/** The envelope (src/outbox/envelope.ts: the same body every webhook delivery of the event sends). */
export function serializeEvent(row: EventRow): EventRecord {
  return eventEnvelope(row);
}

/** A schema as plain JSON, every nested `$id` dropped, so it stands alone (no reference to resolve). */
export function selfContained(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => (key === '$id' ? undefined : value)) as Record<string, unknown>;
}

export function serializeEventType(type: EventType, entry: EventTypeEntry): EventTypeObject {
  return { object: 'event_type', type, description: entry.description, schema: selfContained(entry.object) };
}
