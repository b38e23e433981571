// The event subscriber that writes one pending delivery per enabled endpoint subscribed to the
// event's type, inside the event's own transaction: a delivery exists exactly when its event
// committed. A delivery carries no copy of the body: it refers to its event. To an endpoint at its
// bound of pending deliveries (pending_full, docs/decisions/webhooks.md) the delivery is written
// failed with `pending_limit_exceeded`: recorded, shown in its list, replayable, never sent. No NOTIFY is sent (it would serialize every producing commit on PostgreSQL's notify
// lock): the dispatcher polls briefly, and a dispatcher in this process is signalled after commit.
import type { Tx } from '../../db/db.js';
import type { EventRecord, EventSubscriber } from '../../contracts/events.js';
import type { Scope } from '../../scope.js';
import { newId } from '../../ids.js';
import { signalDeliveriesOnCommit } from './wake.js';
import * as queries from './queries.js';

/** The error of a delivery written failed because its endpoint was at its bound of pending deliveries. */
export const PENDING_LIMIT_EXCEEDED = 'pending_limit_exceeded';

const refusal = (endpoint: { pending_full: boolean }) => (endpoint.pending_full ? { refusedWith: PENDING_LIMIT_EXCEEDED } : {});

const fanOutOne = async (tx: Tx, scope: Scope, event: EventRecord): Promise<void> => {
  const endpoints = await queries.selectSubscribedEndpoints(tx, scope, event.type);
  if (endpoints.length === 0) return;
  await queries.insertDeliveries(
    tx,
    scope,
    endpoints.map((endpoint) => ({
      id: newId('webhookDelivery'),
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: event.type,
      replayOf: null,
      objectId: event.data.object.id,
      ...refusal(endpoint),
    })),
    new Date(event.created),
  );
  signalDeliveriesOnCommit(tx);
};

/**
 * Several events of one change (emitEvents): the endpoints subscribed to any of their types in one
 * statement, then every delivery in one, in the order of the events and, per event, of the
 * endpoints (as one call per event would write them).
 */
const fanOutMany = async (tx: Tx, scope: Scope, events: readonly EventRecord[]): Promise<void> => {
  if (events.length === 1) return fanOutOne(tx, scope, events[0]!);
  const types = [...new Set(events.map((event) => event.type))];
  const endpoints = await queries.selectEndpointsSubscribedToAny(tx, scope, types);
  if (endpoints.length === 0) return;
  const deliveries: queries.NewDelivery[] = [];
  for (const event of events) {
    const subscribed = endpoints.filter((endpoint) => endpoint.enabled_events.includes('*') || endpoint.enabled_events.includes(event.type));
    if (subscribed.length === 0) continue;
    for (const endpoint of subscribed) {
      deliveries.push({
        id: newId('webhookDelivery'),
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        replayOf: null,
        objectId: event.data.object.id,
        ...refusal(endpoint),
      });
    }
  }
  if (deliveries.length === 0) return;
  // The events of one change share their instant.
  await queries.insertDeliveries(tx, scope, deliveries, new Date(events[0]!.created));
  signalDeliveriesOnCommit(tx);
};

export const webhookFanOut: EventSubscriber = Object.assign(fanOutOne, { many: fanOutMany });
