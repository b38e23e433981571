// Deliveries to real HTTP receivers on loopback: what is sent and signed, how each kind of failure
// is recorded, the whole retry schedule on the test clock, replay, rotation, auto-disable.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPATCHER } from '../../../src/modules/webhooks/wake.js';
import { verifySignature } from '../../../src/modules/webhooks/signature.js';
import { createSeller, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { orderHelpers } from '../orders/helpers.js';
import { advance, createEndpoint, deliverDue, deliveriesOf, startReceiver, type Receiver } from './helpers.js';

let ctx: TestContext;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await startTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await ctx.services.background.loop(DISPATCHER).stop(0);
  await receiver.close();
  await ctx.close();
});

describe('a delivery', () => {
  it('POSTs the exact event envelope with the headers and a signature both verifiers accept', async () => {
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/ok'), enabled_events: ['seller.created'] });
    const seller = await createSeller(ctx);
    expect(await deliverDue(ctx)).toBeGreaterThanOrEqual(1);
    const [delivery] = await deliveriesOf(ctx, endpoint.id);
    expect(delivery).toMatchObject({ object: 'webhook_delivery', endpoint: endpoint.id, event_type: 'seller.created', status: 'succeeded', attempts: 1, replay_of: null, next_attempt_at: null, error: null });
    expect(delivery.response).toEqual({ status: 200, body: 'ok' });
    expect(delivery.attempt_log).toHaveLength(1);
    expect(delivery.attempt_log[0]).toMatchObject({ status: 200, error: null });
    expect(delivery.completed_at).not.toBeNull();

    const got = receiver.received.filter((r) => r.path === '/ok');
    expect(got).toHaveLength(1);
    const { headers, body } = got[0]!;
    const event = (await ctx.request(`/v1/events/${delivery.event}`)).body;
    expect(JSON.parse(body)).toEqual(event);
    expect(event.data.object.id).toBe(seller.id);
    expect(body).toBe(delivery.request.body);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Service-Webhooks/1');
    expect(headers['service-event-id']).toBe(delivery.event);
    expect(headers['service-delivery-id']).toBe(delivery.id);
    const signature = headers['service-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(delivery.request.headers['Service-Signature']).toBe(signature);
    expect(Math.abs(Number(/t=(\d+)/.exec(signature)![1]) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifySignature(body, signature, endpoint.secret)).toBe(true);
    expect(verifySignature(body, signature, 'whsec_wrong')).toBe(false);
    expect(verifySignature(body.replace('seller', 'sellers'), signature, endpoint.secret)).toBe(false);
    const stripe = new Stripe('sk_test_unused');
    expect(stripe.webhooks.constructEvent(body, signature, endpoint.secret).id).toBe(delivery.event);
    expect(() => stripe.webhooks.constructEvent(body, signature, 'whsec_wrong')).toThrow();
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });

  it('goes only to enabled endpoints subscribed to the type (or to *)', async () => {
    const star = await createEndpoint(ctx, { url: receiver.url('/star'), enabled_events: ['*'] });
    const other = await createEndpoint(ctx, { url: receiver.url('/other'), enabled_events: ['listing.created'] });
    const off = await createEndpoint(ctx, { url: receiver.url('/off'), enabled_events: ['seller.created'] });
    await ctx.request(`/v1/webhook_endpoints/${off.id}`, { method: 'PATCH', body: { status: 'disabled' } });
    await createSeller(ctx);
    expect(await deliveriesOf(ctx, star.id)).toHaveLength(1);
    expect(await deliveriesOf(ctx, other.id)).toHaveLength(0);
    expect(await deliveriesOf(ctx, off.id)).toHaveLength(0);
    await deliverDue(ctx);
    for (const e of [star, other, off]) await ctx.request(`/v1/webhook_endpoints/${e.id}`, { method: 'DELETE' });
  });

  it('goes out for events written together in one statement (an order created and committed at once)', async () => {
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/orders'), enabled_events: ['order.created', 'order.committed'] });
    const { order } = await orderHelpers(() => ctx).order();
    const written = (await storedEvents(ctx, order.id as string)).filter((e) => e.type.startsWith('order.'));
    expect(written.map((e) => e.type)).toContain('order.created');
    const deliveries = await deliveriesOf(ctx, endpoint.id);
    expect(deliveries.map((d) => d.event).sort()).toEqual(written.map((e) => e.id).sort());
    await deliverDue(ctx);
    const bodies = receiver.received.filter((r) => r.path === '/orders').map((r) => JSON.parse(r.body) as { id: string; type: string });
    expect(bodies.map((b) => b.id).sort()).toEqual(written.map((e) => e.id).sort());
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });
});

describe('failed attempts', () => {
  async function failOnce(path: string, setup?: (r: Receiver) => void, url?: string): Promise<Record<string, unknown>> {
    setup?.(receiver);
    const endpoint = await createEndpoint(ctx, { url: url ?? receiver.url(path), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await deliverDue(ctx);
    const [delivery] = await deliveriesOf(ctx, endpoint.id);
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
    return delivery;
  }

  it('records a 500 with the first 4,096 characters of the answer', async () => {
    const d = await failOnce('/500', (r) => r.on('/500', (_req, res) => res.writeHead(500).end('x'.repeat(10_000))));
    expect(d).toMatchObject({ status: 'pending', attempts: 1, error: 'http_status_500', response: { status: 500 } });
    expect((d.response as { body: string }).body).toHaveLength(4096);
    expect(d.next_attempt_at).not.toBeNull();
  });

  it('never follows a redirect, even toward a private address', async () => {
    let followed = 0;
    receiver.on('/target', (_req, res) => {
      followed++;
      res.end('ok');
    });
    const d = await failOnce('/redirect', (r) =>
      r.on('/redirect', (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end()),
    );
    expect(d).toMatchObject({ status: 'pending', error: 'redirect_not_followed', response: { status: 302 } });
    expect(followed).toBe(0);
  });

  it('records connection refused', async () => {
    const closed = await startReceiver();
    const url = closed.url('/gone');
    await closed.close();
    const d = await failOnce('', undefined, url);
    expect(d).toMatchObject({ status: 'pending', error: 'connection_refused', response: { status: null, body: null } });
    expect((d.attempt_log as Array<{ status: unknown }>)[0]!.status).toBeNull();
  });

  it('records a connection reset', async () => {
    const d = await failOnce('/reset', (r) => r.on('/reset', (req) => req.socket.destroy()));
    expect(d).toMatchObject({ status: 'pending', error: 'connection_reset' });
  });

  it('gives up after 10 s on a receiver that never answers, or drips its answer', { timeout: 40_000 }, async () => {
    receiver.on('/silent', () => undefined);
    receiver.on('/drip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('.')), 1000);
    });
    const silent = await createEndpoint(ctx, { url: receiver.url('/silent'), enabled_events: ['seller.created'] });
    const drip = await createEndpoint(ctx, { url: receiver.url('/drip'), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await deliverDue(ctx);
    const [s] = await deliveriesOf(ctx, silent.id);
    const [d] = await deliveriesOf(ctx, drip.id);
    expect(s).toMatchObject({ status: 'pending', error: 'timeout', response: { status: null } });
    expect(d).toMatchObject({ status: 'pending', error: 'timeout', response: { status: 200 } });
    // The deadline, not the receiver, ended both: neither can end before it.
    expect(s.attempt_log[0].duration_ms).toBeGreaterThanOrEqual(9_990);
    expect(d.attempt_log[0].duration_ms).toBeGreaterThanOrEqual(9_990);
    for (const e of [silent, drip]) await ctx.request(`/v1/webhook_endpoints/${e.id}`, { method: 'DELETE' });
  });
});

describe('the retry schedule', () => {
  it('walks the eight attempts on the test clock, then fails; a clock advance starts due attempts before it answers', async () => {
    receiver.on('/down', (_req, res) => res.writeHead(503).end('down'));
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/down'), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await deliverDue(ctx);
    const waits = [60, 300, 1500, 7200, 21600, 43200, 43200];
    for (const [i, wait] of waits.entries()) {
      let [d] = await deliveriesOf(ctx, endpoint.id);
      expect(d).toMatchObject({ status: 'pending', attempts: i + 1 });
      const lastAt = Date.parse(d.attempt_log[i].at) + d.attempt_log[i].duration_ms;
      expect(Date.parse(d.next_attempt_at) - lastAt).toBe(wait * 1000);
      // Not yet due a second before.
      await advance(ctx, wait - 2);
      [d] = await deliveriesOf(ctx, endpoint.id);
      expect(d.attempts).toBe(i + 1);
      await advance(ctx, 3);
      [d] = await deliveriesOf(ctx, endpoint.id);
      expect(d.attempts).toBe(i + 2);
    }
    const [d] = await deliveriesOf(ctx, endpoint.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null, error: 'http_status_503' });
    expect(d.attempt_log).toHaveLength(8);
    expect(d.completed_at).not.toBeNull();
    const down = receiver.received.filter((r) => r.path === '/down');
    expect(down).toHaveLength(8);
    expect(new Set(down.map((r) => r.headers['service-delivery-id']))).toEqual(new Set([d.id]));
    // Signatures carry real time, whatever the test clock says.
    const t = Number(/t=(\d+)/.exec(down[7]!.headers['service-signature'] as string)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
    const health = (await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`)).body;
    expect(health.failing_since).not.toBeNull();
    expect(health.last_success_at).toBeNull();
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });
});

describe('replay and rotation', () => {
  it('replays into a new delivery with replay_of, leaving the original as it was', async () => {
    let fail = true;
    receiver.on('/flaky', (_req, res) => (fail ? res.writeHead(500).end('no') : res.end('yes')));
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/flaky'), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await deliverDue(ctx);
    // Given up (turning the endpoint off fails its pending deliveries): a replay of a pending one
    // would answer that one (test/modules/webhooks/replay-bounds.test.ts).
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'PATCH', body: { status: 'disabled' } });
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'PATCH', body: { status: 'enabled' } });
    const [original] = await deliveriesOf(ctx, endpoint.id);
    expect(original).toMatchObject({ status: 'failed', attempts: 1, error: 'endpoint_disabled' });
    fail = false;
    const res = await ctx.request(`/v1/webhook_deliveries/${original.id}/replay`, { method: 'POST' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ replay_of: original.id, event: original.event, endpoint: endpoint.id, status: 'pending', attempts: 0 });
    expect(res.body.request.body).toBe(original.request.body);
    await deliverDue(ctx);
    const replay = (await ctx.request(`/v1/webhook_deliveries/${res.body.id}`)).body;
    expect(replay).toMatchObject({ status: 'succeeded', attempts: 1 });
    const again = (await ctx.request(`/v1/webhook_deliveries/${original.id}`)).body;
    expect(again).toMatchObject({ status: original.status, attempts: original.attempts, attempt_log: original.attempt_log });
    const health = (await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`)).body;
    expect(health.last_success_at).not.toBeNull();
    expect(health.failing_since).toBeNull();

    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'PATCH', body: { status: 'disabled' } });
    const refused = await ctx.request(`/v1/webhook_deliveries/${original.id}/replay`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invalid_state');
    const missing = await ctx.request('/v1/webhook_deliveries/whd_00000000000000000000000000/replay', { method: 'POST' });
    expect(missing.status).toBe(404);
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });

  it('signs with the new secret at once after rotation', async () => {
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/rotate'), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await deliverDue(ctx);
    const rotated = await ctx.request(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    await createSeller(ctx);
    await deliverDue(ctx);
    const [before, after] = receiver.received.filter((r) => r.path === '/rotate');
    const sig = (r: typeof before) => r!.headers['service-signature'] as string;
    expect(verifySignature(before!.body, sig(before), endpoint.secret)).toBe(true);
    expect(verifySignature(after!.body, sig(after), rotated.body.secret)).toBe(true);
    expect(verifySignature(after!.body, sig(after), endpoint.secret)).toBe(false);
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });
});

describe('endpoint health', () => {
  it('disables an endpoint whose every delivery failed for 3 days, fails its pending deliveries and emails every member', async () => {
    receiver.on('/dead', (_req, res) => res.writeHead(500).end());
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/dead'), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await deliverDue(ctx);
    const first = (await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`)).body;
    expect(first.failing_since).not.toBeNull();
    // A day and a half of retries, then a fresh event that fails past the 3 days.
    for (let day = 0; day < 3; day++) {
      await advance(ctx, 86_400);
      await createSeller(ctx);
      await deliverDue(ctx);
    }
    await advance(ctx, 3600);
    await createSeller(ctx);
    await deliverDue(ctx);
    const disabled = (await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`)).body;
    expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: expect.stringContaining('3 days') });
    const deliveries = await deliveriesOf(ctx, endpoint.id);
    expect(deliveries.filter((d) => d.status === 'pending')).toEqual([]);
    expect(deliveries.some((d) => d.error === 'endpoint_disabled')).toBe(true);
    const emails = await ctx.db.query<{ to_addresses: string[]; subject: string }>('SELECT to_addresses, subject FROM emails WHERE workspace_id = $1', [
      ctx.workspaceId,
    ]);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.to_addresses).toEqual([ctx.owner.email]);
    expect(emails[0]!.subject).toContain(endpoint.id);

    const enabled = await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'PATCH', body: { status: 'enabled' } });
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null, failing_since: null });
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });

  it('a manual disable fails pending deliveries with endpoint_disabled, leaves disabled_reason null and sends no email', async () => {
    receiver.on('/manual', (_req, res) => res.writeHead(500).end());
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/manual'), enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await deliverDue(ctx);
    const emailsBefore = (await ctx.db.query('SELECT id FROM emails WHERE workspace_id = $1', [ctx.workspaceId])).length;
    const res = await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'PATCH', body: { status: 'disabled' } });
    expect(res.body).toMatchObject({ status: 'disabled', disabled_reason: null });
    const [d] = await deliveriesOf(ctx, endpoint.id);
    expect(d).toMatchObject({ status: 'failed', error: 'endpoint_disabled', next_attempt_at: null });
    expect((await ctx.db.query('SELECT id FROM emails WHERE workspace_id = $1', [ctx.workspaceId])).length).toBe(emailsBefore);
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });
});
