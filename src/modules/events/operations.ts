// Reading the event log: every state change of this marketplace and mode,
// newest first; and the catalog of event types (the same for every marketplace and mode). Events are written only by emitEvent, in the transaction of their change.
import { pageOfItems, pageRequest, toList, type ListEnvelope, type PageParams } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { isEventType, type EventCatalog, type EventRecord } from '../../contracts/events.js';
import type { OperationContext } from '../../contracts/context.js';
import * as queries from './queries.js';
import type { EventTypeObject, ListEventsQuery } from './schemas.js';
import { serializeEvent, serializeEventType } from './serialize.js';

export async function listEvents(ctx: OperationContext, query: ListEventsQuery): Promise<ListEnvelope<EventRecord>> {
  const { type } = query;
  if (type !== undefined && !isEventType(ctx.hooks.eventCatalog, type)) {
    throw errors.invalidRequest(`Unknown event type '${type}'; use one of the types in the API reference.`, 'type');
  }
  const page = pageRequest(query, 'event');
  const rows = await queries.selectEvents(ctx.db, ctx.scope, page, { type });
  return toList(rows.map(serializeEvent), page.limit);
}

export async function retrieveEvent(ctx: OperationContext, id: string): Promise<EventRecord> {
  const row = await queries.selectEvent(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('event', id, 'id');
  return serializeEvent(row);
}

/** The event types, in the order of the catalog, paged like every list (the cursor is a type). */
export function listEventTypes(catalog: EventCatalog, query: PageParams): ListEnvelope<EventTypeObject> {
  return pageOfItems([...catalog].map(([type, entry]) => serializeEventType(type, entry)), query, (item) => item.type);
}

export function retrieveEventType(catalog: EventCatalog, type: string): EventTypeObject {
  if (!isEventType(catalog, type)) throw errors.missing('event type', type, 'type');
  return serializeEventType(type, catalog.get(type)!);
}
