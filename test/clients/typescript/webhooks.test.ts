// client.webhooks.constructEvent on a delivery the service really made: the signature checks on
// the raw body (string or bytes), and a tampered body, a stale or future `t`, another secret, or a
// missing or malformed header are refused with their reason. The event is a union narrowed by `type`.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  constructEvent,
  WebhookSignatureError,
  type components,
  type EventOf,
  type EventType,
  type WebhookEvent,
  type WebhookSignatureFailure,
} from '../../../clients/typescript/src/index.js';
import type { webhooks } from '../../../clients/typescript/src/schema.js';
import type { EventType as ServiceEventType } from '../../../src/contracts/events.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { deliverDue, startReceiver, type Receiver } from '../../modules/webhooks/helpers.js';
import { listen, recordingClient } from './helpers.js';

let ctx: TestContext;
let receiver: Receiver;
let secret: string;
let delivery: { body: string; header: string; t: number };
let sellerId: string;

beforeAll(async () => {
  ctx = await startTestApp();
  receiver = await startReceiver();
  const { client } = recordingClient(await listen(ctx), ctx.keys.test.secret_key);
  const endpoint = await client.post('/v1/webhook_endpoints', { body: { url: receiver.url('/hook'), enabled_events: ['seller.created'] } });
  if (!endpoint.secret?.startsWith('whsec_')) throw new Error('A created endpoint shows its secret.');
  secret = endpoint.secret;
  sellerId = (await client.post('/v1/sellers', { body: { external_id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' } })).id;
  await deliverDue(ctx);
  const [received] = receiver.received;
  if (!received) throw new Error('The service delivered nothing.');
  const header = received.headers['service-signature'];
  if (typeof header !== 'string') throw new Error('The delivery has no Service-Signature.');
  delivery = { body: received.body, header, t: Number(/t=(\d+)/.exec(header)?.[1]) };
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

function refusal(run: () => unknown): WebhookSignatureFailure | 'accepted' {
  try {
    run();
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookSignatureError);
    return (error as WebhookSignatureError).reason;
  }
}

describe('constructEvent on a real delivery', () => {
  it('verifies the raw body, as text or bytes, and answers the event', () => {
    const event = constructEvent(delivery.body, delivery.header, secret);
    expect(event).toMatchObject({ object: 'event', type: 'seller.created', data: { object: { id: sellerId } } });
    const fromBytes = constructEvent(Buffer.from(delivery.body, 'utf8'), delivery.header, secret);
    expect(fromBytes.id).toBe(event.id);
  });

  it('refuses a tampered body, another secret, and a re-serialised body', () => {
    const tampered = delivery.body.replace('Ada Lovelace', 'Eve Mallory');
    expect(tampered).not.toBe(delivery.body);
    expect(refusal(() => constructEvent(tampered, delivery.header, secret))).toBe('no_matching_signature');
    expect(refusal(() => constructEvent(delivery.body, delivery.header, `${secret}x`))).toBe('no_matching_signature');
    const reserialised = JSON.stringify(JSON.parse(delivery.body), null, 2);
    expect(refusal(() => constructEvent(reserialised, delivery.header, secret))).toBe('no_matching_signature');
  });

  it('refuses a `t` more than the tolerance (300 s) from this clock, either way, unless told a wider one', () => {
    expect(refusal(() => constructEvent(delivery.body, delivery.header, secret, { now: delivery.t + 300 }))).toBe('accepted');
    expect(refusal(() => constructEvent(delivery.body, delivery.header, secret, { now: delivery.t + 301 }))).toBe('timestamp_outside_tolerance');
    expect(refusal(() => constructEvent(delivery.body, delivery.header, secret, { now: delivery.t - 301 }))).toBe('timestamp_outside_tolerance');
    expect(refusal(() => constructEvent(delivery.body, delivery.header, secret, { now: delivery.t + 3600, tolerance: 7200 }))).toBe('accepted');
  });

  it('refuses a missing or malformed header', () => {
    const v1 = /v1=([0-9a-f]{64})/.exec(delivery.header)?.[1];
    expect(refusal(() => constructEvent(delivery.body, undefined, secret))).toBe('missing_header');
    expect(refusal(() => constructEvent(delivery.body, `v1=${v1}`, secret))).toBe('malformed_header');
    expect(refusal(() => constructEvent(delivery.body, `t=${delivery.t}`, secret))).toBe('malformed_header');
    expect(refusal(() => constructEvent(delivery.body, `t=${delivery.t},v1=${v1?.toUpperCase()}`, secret))).toBe('malformed_header');
    // Another `v1` beside the right one (a secret being rotated on the sender's side) still checks.
    expect(refusal(() => constructEvent(delivery.body, `t=${delivery.t},v1=${'0'.repeat(64)},v1=${v1}`, secret))).toBe('accepted');
  });

  it('is the same function on a client', async () => {
    const { client } = recordingClient('http://127.0.0.1:1', 'sk_test_unused');
    expect(client.webhooks.constructEvent(delivery.body, delivery.header, secret).type).toBe('seller.created');
    const header = client.webhooks.signatureHeader('{"object":"event","type":"seller.created"}', secret);
    expect(refusal(() => constructEvent('{"object":"event","type":"seller.created"}', header, secret))).toBe('accepted');
    expect(refusal(() => constructEvent('not json', client.webhooks.signatureHeader('not json', secret), secret))).toBe('invalid_payload');
  });
});

describe('typed events', () => {
  type Schemas = components['schemas'];

  it('narrows by `type`: data.object is that event\'s object', () => {
    const event: WebhookEvent = constructEvent(delivery.body, delivery.header, secret);
    expectTypeOf(event.type).toEqualTypeOf<EventType>();
    switch (event.type) {
      case 'seller.created':
        expectTypeOf(event.data.object).toEqualTypeOf<Schemas['Seller']>();
        expect(event.data.object.id).toBe(sellerId);
        expect(event.data.object.name).toBe('Ada Lovelace');
        break;
      case 'order.created':
        expectTypeOf(event.data.object).toEqualTypeOf<Schemas['Order']>();
        expect.unreachable('the delivery was a seller.created');
        break;
      default:
        expect.unreachable(`a seller.created event, not ${event.type}`);
    }
    expectTypeOf<EventOf<'refund.updated'>['data']['object']>().toEqualTypeOf<Schemas['Refund']>();
  });

  it('has one member per event type of the service and of the document\'s webhooks', () => {
    expectTypeOf<EventType>().toEqualTypeOf<keyof webhooks>();
    // The service's union is every module's declarations.ts merged; the type-checked program also
    // holds the architecture tests' fixture module (test/architecture/fixture-module/), whose
    // widget.* types reach no real start.
    expectTypeOf<EventType>().toEqualTypeOf<Exclude<ServiceEventType, `widget.${string}`>>();
  });
});
