// POST /v1/webhook_endpoints/{id}/test (docs/webhooks.md, "Test event"; docs/decisions/webhooks.md):
// one signed POST of a `webhook_endpoint.test` event to the endpoint, made while the request waits,
// and what the endpoint answered. Nothing is stored: the event is no state change (it is in no
// event list, no endpoint subscribes to it) and no delivery row is written, so the dispatcher and
// the delivery tables are untouched. The attempt is the dispatcher's own (attemptDelivery): the
// same headers, signature, 10 s deadline, answer limit and destination checks at connect.
import { Type, type Static } from '@sinclair/typebox';
import type { OperationContext } from '../../contracts/context.js';
import { errors } from '../../errors.js';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.js';
import { newId } from '../../ids.js';
import { modeNow } from '../../scope.js';
import { decryptSecret } from '../../secrets.js';
import { attemptDelivery, createSender, type Sender } from './attempt.js';
import { systemResolver } from './destination.js';
import { secretContext } from './operations.js';
import { selectEndpoint } from './queries.js';
import { serializeEndpoint } from './serialize.js';

export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

export const WebhookEndpointTest = Type.Object(
  {
    object: Type.Literal('webhook_endpoint_test'),
    endpoint: Type.String(),
    event: Type.String({ description: 'The test event’s id (`evt_…`), sent in `Service-Event-Id`; not stored.' }),
    status: StringEnum(['succeeded', 'failed'] as const, { description: 'succeeded: the endpoint answered 2xx within 10 seconds.' }),
    request: Type.Object({
      headers: Type.Record(Type.String(), Type.String(), { description: 'The headers sent, the signature among them.' }),
      body: Type.String({ description: 'The exact body sent: the event envelope.' }),
    }),
    response: Type.Object({ status: Nullable(Type.Integer()), body: Nullable(Type.String({ description: 'At most 4,096 characters.' })) }),
    error: Nullable(Type.String({ description: 'Why it failed, as a delivery’s `error` names it (`timeout`, `http_status_500`, `blocked_destination`…).' })),
    duration_ms: Type.Integer({ minimum: 0 }),
    created_at: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'One test event sent to an endpoint and its answer. Not stored: a second test sends a new event.',
    examples: [
      {
        object: 'webhook_endpoint_test',
        endpoint: 'whe_01jd0000000000000000000000',
        event: 'evt_01jd0000000000000000000001',
        status: 'succeeded',
        request: {
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'Service-Webhooks/1',
            'Service-Event-Id': 'evt_01jd0000000000000000000001',
            'Service-Delivery-Id': 'whd_01jd0000000000000000000002',
            'Service-Signature': 't=1764288000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
          },
          body: '{"id":"evt_01jd0000000000000000000001","object":"event","type":"webhook_endpoint.test","api_version":"v1","created":"2026-11-28T00:00:00.000Z","livemode":false,"data":{"object":{"object":"webhook_endpoint","id":"whe_01jd0000000000000000000000"}}}',
        },
        response: { status: 200, body: 'ok' },
        error: null,
        duration_ms: 12,
        created_at: '2026-11-28T00:00:00.000Z',
      },
    ],
  },
);
export type WebhookEndpointTest = Static<typeof WebhookEndpointTest>;

/** One connection pool per setting for the tests of this process (a test is rare; a few connections do). */
// cache: connection pools of the process by setting (private URLs allowed or not), reused by every test event.
const senders = new Map<boolean, Sender>();

function senderFor(allowPrivate: boolean): Sender {
  let sender = senders.get(allowPrivate);
  if (!sender) {
    sender = createSender(allowPrivate, systemResolver, 4);
    senders.set(allowPrivate, sender);
  }
  return sender;
}

/**
 * Sends the test event, whatever the endpoint's status and `enabled_events` (an operator checks a
 * receiver before enabling it). No transaction is open during the POST.
 */
export async function sendTestEvent(ctx: OperationContext, id: string): Promise<WebhookEndpointTest> {
  const row = await selectEndpoint(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('webhook endpoint', id, 'id');
  const now = await modeNow(ctx.db, ctx.clock, ctx.scope);
  const eventId = newId('event');
  const body = JSON.stringify({
    id: eventId,
    object: 'event',
    type: TEST_EVENT_TYPE,
    api_version: 'v1',
    created: now.toISOString(),
    livemode: ctx.scope.mode === 'live',
    data: { object: serializeEndpoint(row) },
  });
  const secret = decryptSecret(ctx.config.secretKey, row.secret_enc, secretContext(ctx.scope, row.id));
  const result = await attemptDelivery(senderFor(ctx.config.webhookAllowPrivateUrls), {
    url: row.url,
    secret,
    body,
    eventId,
    deliveryId: newId('webhookDelivery'),
  });
  return {
    object: 'webhook_endpoint_test',
    endpoint: row.id,
    event: eventId,
    status: result.ok ? 'succeeded' : 'failed',
    request: { headers: result.headers, body },
    response: { status: result.status, body: result.responseBody },
    error: result.error,
    duration_ms: result.durationMs,
    created_at: now.toISOString(),
  };
}
