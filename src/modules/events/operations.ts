// Reading the event log (interface.md 4.9): every state change of this marketplace and mode,
// newest first. Events are written only by emitEvent, in the transaction of their change.
import type { Queryable } from '../../db/db.js';
import { selectPage } from '../../db/page-query.js';
import { errors } from '../../errors.js';
import type { EventObject, EventRecord } from '../../events/emit.js';
import { isEventType, type EventType } from '../../events/types.js';
import { toList, type ListEnvelope, type PageRequest } from '../../http/pagination.js';
import type { Mode, Scope } from '../../scope.js';

interface EventRow {
  id: string;
  mode: Mode;
  type: EventType;
  data: { object: EventObject; previous_attributes?: Record<string, unknown> };
  created_at: Date;
}

const COLUMNS = 'id, mode, type, data, created_at';

/**
 * The stored row as the envelope of interface.md 6.2. data is jsonb, which keeps keys sorted by
 * length, so id and object are put back first for people reading the JSON.
 */
export function eventFromRow(row: EventRow): EventRecord {
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

export async function listEvents(
  q: Queryable,
  scope: Scope,
  page: PageRequest,
  filter: { type?: string },
): Promise<ListEnvelope<EventRecord>> {
  if (filter.type !== undefined && !isEventType(filter.type)) {
    throw errors.invalidRequest(`Unknown event type '${filter.type}'; use one of the types in the API reference.`, 'type');
  }
  const rows = await selectPage<EventRow>(q, { select: `SELECT ${COLUMNS} FROM events`, scope, page, equals: { type: filter.type } });
  return toList(rows.map(eventFromRow), page.limit);
}

export async function retrieveEvent(q: Queryable, scope: Scope, id: string): Promise<EventRecord> {
  const [row] = await q.query<EventRow>(
    `SELECT ${COLUMNS} FROM events WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [scope.marketplaceId, scope.mode, id],
  );
  if (!row) throw errors.missing('event', id, 'id');
  return eventFromRow(row);
}
