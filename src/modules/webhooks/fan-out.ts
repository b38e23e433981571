// The event subscriber that writes one pending delivery per enabled endpoint subscribed to the
// event's type, inside the event's own transaction: a delivery exists exactly when its event
// committed. No NOTIFY is sent (it would serialize every producing commit on PostgreSQL's notify
// lock): the dispatcher polls briefly, and a dispatcher in this process is signalled after commit.
import type { EventSubscriber } from '../../events/emit.js';
import { newId } from '../../ids.js';
import { signalDeliveries } from './wake.js';
import * as queries from './queries.js';

export const webhookFanOut: EventSubscriber = async (tx, scope, event) => {
  const endpointIds = await queries.selectSubscribedEndpointIds(tx, scope, event.type);
  if (endpointIds.length === 0) return;
  const body = JSON.stringify(event);
  await queries.insertDeliveries(
    tx,
    scope,
    endpointIds.map((endpointId) => ({ id: newId('webhookDelivery'), endpointId, eventId: event.id, eventType: event.type, replayOf: null, body })),
    new Date(event.created),
  );
  tx.afterCommit(signalDeliveries);
};
