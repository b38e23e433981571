// POST /v1/webhook_endpoints/{id}/test (docs/webhooks.md, "Test event"): one signed
// webhook_endpoint.test event sent now, whatever the endpoint's status and events; the answer holds
// what was sent and answered; nothing is stored (no event, no delivery).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../../src/modules/webhooks/signature.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { createEndpoint, deliveriesOf, startReceiver, type Receiver } from './helpers.js';

let ctx: TestContext;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await startTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

const sendTest = (id: string, key?: string) => ctx.request(`/v1/webhook_endpoints/${id}/test`, { method: 'POST', ...(key ? { key } : {}) });

describe('POST /v1/webhook_endpoints/{id}/test', () => {
  it('sends one signed webhook_endpoint.test event and answers what the endpoint answered', async () => {
    receiver.on('/ok', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('pong'));
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/ok'), enabled_events: ['order.created'] });
    const res = await sendTest(endpoint.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ object: 'webhook_endpoint_test', endpoint: endpoint.id, status: 'succeeded', response: { status: 200, body: 'pong' }, error: null });
    const got = receiver.received.filter((r) => r.path === '/ok');
    expect(got).toHaveLength(1);
    expect(got[0]!.body).toBe(res.body.request.body);
    const event = JSON.parse(got[0]!.body);
    expect(event).toMatchObject({ id: res.body.event, object: 'event', type: 'webhook_endpoint.test', api_version: 'v1', livemode: false, data: { object: { object: 'webhook_endpoint', id: endpoint.id } } });
    expect(event.data.object.secret).toBeUndefined();
    expect(got[0]!.headers['service-event-id']).toBe(res.body.event);
    expect(got[0]!.headers['user-agent']).toBe('Service-Webhooks/1');
    expect(verifySignature(got[0]!.body, String(got[0]!.headers['service-signature']), endpoint.secret)).toBe(true);
    // Nothing stored: no delivery, no event.
    expect(await deliveriesOf(ctx, endpoint.id)).toEqual([]);
    expect((await ctx.request(`/v1/events/${res.body.event}`)).status).toBe(404);
  });

  it('answers failed with the status when the endpoint fails, and is sent to a disabled endpoint too', async () => {
    receiver.on('/down', (_req, res) => res.writeHead(503).end('maintenance'));
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/down') });
    expect((await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'PATCH', body: { status: 'disabled' } })).status).toBe(200);
    const res = await sendTest(endpoint.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', response: { status: 503, body: 'maintenance' }, error: 'http_status_503' });
  });

  it('answers failed without a response when nothing listens', async () => {
    const endpoint = await createEndpoint(ctx, { url: 'http://127.0.0.1:9/nothing' });
    const res = await sendTest(endpoint.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', response: { status: null, body: null }, error: 'connection_refused' });
  });

  it('answers 404 resource_missing for an endpoint of another mode or none', async () => {
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/ok') });
    const live = await sendTest(endpoint.id, ctx.keys.live.secret_key);
    expect(live.status, live.text).toBe(404);
    expect(live.body.error.code).toBe('resource_missing');
    expect((await sendTest('whe_01jd0000000000000000000000')).status).toBe(404);
  });

  it('refuses a body with 400 invalid_request', async () => {
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/ok') });
    const res = await ctx.request(`/v1/webhook_endpoints/${endpoint.id}/test`, { method: 'POST', body: { type: 'order.created' } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });
});
