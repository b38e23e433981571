// Every SQL statement of the events module: reading the event log, and rewriting stored payloads
// on erasure. Events are written only by emitEvent (src/outbox/emit.ts). Each names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { EventObject } from '../../contracts/events.js';
import type { EventType } from '../../contracts/events.js';
import type { Mode, Scope } from '../../scope.js';

export interface EventData {
  object: EventObject;
  previous_attributes?: Record<string, unknown>;
}

export interface EventRow {
  id: string;
  mode: Mode;
  type: EventType;
  data: EventData;
  created_at: Date;
}

const COLUMNS = 'id, mode, type, data, created_at';

export function selectEvents(q: Queryable, scope: Scope, page: PageRequest, filter: { type?: EventType }): Promise<EventRow[]> {
  return selectPage<EventRow>(q, {
    sql: `SELECT ${COLUMNS} FROM events WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { type: filter.type },
    page,
  });
}

export async function selectEvent(q: Queryable, scope: Scope, id: string): Promise<EventRow | null> {
  const rows = await q.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

/** The events about the given objects (events.object_id), locked in id order. */
export function lockEventsOfObjects(tx: Tx, scope: Scope, objectIds: readonly string[]): Promise<Array<{ id: string; data: EventData }>> {
  return tx.query(
    `SELECT id, data FROM events
      WHERE marketplace_id = $1 AND mode = $2 AND object_id = ANY($3::text[])
      ORDER BY id FOR UPDATE`,
    [scope.marketplaceId, scope.mode, objectIds],
  );
}

export async function updateEventData(tx: Tx, scope: Scope, id: string, data: EventData): Promise<void> {
  await tx.query('UPDATE events SET data = $4 WHERE marketplace_id = $1 AND mode = $2 AND id = $3', [
    scope.marketplaceId,
    scope.mode,
    id,
    JSON.stringify(data),
  ]);
}
