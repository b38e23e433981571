// The one way to record a state change: emitEvent(tx, …) inside the transaction of the change
// (the outbox pattern). An event exists exactly when its change committed; whatever pushes events
// out (webhook deliveries) is written here too, in the same transaction.
import { newId } from '../ids.js';
import { settleAll, type Tx } from '../db/db.js';
import { sameJson } from '../json.js';
import type { Scope } from '../scope.js';
import type { EventObject, EventRecord, EventSubscriber, EventType } from '../contracts/events.js';

declare module '../db/db.js' {
  interface TxCarried {
    /** The work written with every event (webhook fan-out…), given when the database handle is opened. */
    eventSubscribers: readonly EventSubscriber[];
  }
}

/**
 * The subscribers of the transaction's database handle. A handle opened without them could record
 * events that no webhook ever delivers, so that is refused instead of passing silently.
 */
function subscribersOf(tx: Tx): readonly EventSubscriber[] {
  const subscribers = tx.carried.eventSubscribers;
  if (!subscribers) throw new Error('This database handle was opened without the event subscribers of the wiring (src/app/runtime.ts openDatabase).');
  return subscribers;
}

/** The envelope of a new event: what is stored, delivered and answered by GET /v1/events. */
function eventRecord(scope: Scope, at: Date, type: EventType, object: EventObject, previousAttributes?: Record<string, unknown>): EventRecord {
  return {
    id: newId('event'),
    object: 'event',
    type,
    api_version: 'v1',
    created: at.toISOString(),
    livemode: scope.mode === 'live',
    data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
  };
}

export async function emitEvent(
  tx: Tx,
  scope: Scope,
  at: Date,
  type: EventType,
  object: EventObject,
  previousAttributes?: Record<string, unknown>,
): Promise<EventRecord> {
  const event = eventRecord(scope, at, type, object, previousAttributes);
  await tx.query(
    `INSERT INTO events (marketplace_id, mode, id, type, object_id, data, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [scope.marketplaceId, scope.mode, event.id, type, object.id, JSON.stringify(event.data), at],
  );
  for (const subscriber of subscribersOf(tx)) await subscriber(tx, scope, event);
  return event;
}

/**
 * The old values of the fields that changed between two versions of an object, for
 * data.previous_attributes of *.updated events. Nested objects compare as a whole, whatever the
 * order of their keys.
 */
export function previousAttributes<T extends Record<string, unknown>>(
  before: T,
  after: T,
  ignore: readonly string[] = ['updated_at'],
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (ignore.includes(key)) continue;
    if (!sameJson(before[key], after[key])) changed[key] = before[key];
  }
  return changed;
}

/**
 * Several events of one change in one statement (a multi-row INSERT), in the order given: for hot
 * paths (order creation; docs/performance.md R3). Every subscriber runs for the events (its `many`
 * form once, else once per event, in order), issued right behind the INSERT without waiting for
 * its answer, so on any connection they run after it, in the order issued.
 */
export async function emitEvents(
  tx: Tx,
  scope: Scope,
  at: Date,
  events: ReadonlyArray<{ type: EventType; object: EventObject }>,
): Promise<EventRecord[]> {
  if (events.length === 0) return [];
  const records = events.map(({ type, object }) => eventRecord(scope, at, type, object));
  const params: unknown[] = [scope.marketplaceId, scope.mode, at];
  const values = records.map((event) => {
    params.push(event.id, event.type, event.data.object.id, JSON.stringify(event.data));
    const n = params.length;
    return `($1, $2, $${n - 3}, $${n - 2}, $${n - 1}, $${n}, $3)`;
  });
  const inserted = tx.query(`INSERT INTO events (marketplace_id, mode, id, type, object_id, data, created_at) VALUES ${values.join(', ')}`, params);
  const subscribed = (async () => {
    for (const subscriber of subscribersOf(tx)) {
      if (subscriber.many) await subscriber.many(tx, scope, records);
      else for (const event of records) await subscriber(tx, scope, event);
    }
  })();
  await settleAll([inserted, subscribed]);
  return records;
}
