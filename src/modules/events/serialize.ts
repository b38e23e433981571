// Event rows as the event envelope (docs/architecture.md, "Events: the outbox").
import type { EventRecord } from '../../contracts/events.js';
import type { EventRow } from './queries.js';

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
