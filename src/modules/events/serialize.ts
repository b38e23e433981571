// Event rows as the event envelope (docs/architecture.md, "Events: the outbox"), and the catalog's
// entries as event_type objects.
import type { TSchema } from '@sinclair/typebox';
import type { EventRecord, EventType } from '../../contracts/events.js';
import { EVENT_CATALOG } from './catalog.js';
import type { EventRow } from './queries.js';
import type { EventTypeObject } from './schemas.js';

/**
 * data is jsonb, which keeps keys sorted by length, so id and object are put back first for people
 * reading the JSON.
 */
export function serializeEvent(row: EventRow): EventRecord {
  const { id, object, ...rest } = row.data.object;
  const data: EventRecord['data'] = { object: { id, object, ...rest } };
  if (row.data.previous_attributes !== undefined) data.previous_attributes = row.data.previous_attributes;
  return {
    id: row.id,
    object: 'event',
    type: row.type,
    api_version: 'v1',
    created: row.created_at.toISOString(),
    livemode: row.mode === 'live',
    data,
  };
}

/** A schema as plain JSON, every nested `$id` dropped, so it stands alone (no reference to resolve). */
export function selfContained(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => (key === '$id' ? undefined : value)) as Record<string, unknown>;
}

export function serializeEventType(type: EventType): EventTypeObject {
  const entry = EVENT_CATALOG[type];
  return { object: 'event_type', type, description: entry.description, schema: selfContained(entry.object) };
}
