// The event envelope from a stored events row: what GET /v1/events answers and, since a webhook
// delivery refers to its event instead of carrying a copy (migration 0031), the body every
// delivery of the event sends and shows. One function, so the two can never differ.
import type { Mode } from '../scope.js';
import type { EventObject, EventRecord, EventType } from '../contracts/events.js';

export interface StoredEventData {
  object: EventObject;
  previous_attributes?: Record<string, unknown>;
}

export interface StoredEvent {
  id: string;
  mode: Mode;
  type: EventType;
  data: StoredEventData;
  created_at: Date;
}

/**
 * data is jsonb, which keeps keys sorted by length, so id and object are put back first for people
 * reading the JSON.
 */
export function eventEnvelope(row: StoredEvent): EventRecord {
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
