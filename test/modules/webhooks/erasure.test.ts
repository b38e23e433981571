// Erasure scrubs stored delivery bodies (a pending delivery then sends the scrubbed body), and
// retention prunes old deliveries in small batches, leaving pending ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPATCHER } from '../../../src/modules/webhooks/wake.js';
import { pruneWebhookDeliveries } from '../../../src/modules/webhooks/retention.js';
import { createBuyer, createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { waitFor } from '../../workers/helpers.js';
import { createEndpoint, deliverDue, deliveriesOf, startReceiver, type Receiver } from './helpers.js';

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

describe('erasure', () => {
  it("scrubs a seller's personal data from a pending delivery's body, which is what is then sent", async () => {
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/erase'), enabled_events: ['seller.created', 'seller.updated'] });
    const seller = await createSeller(ctx, { name: 'Ada Lovelace', email: 'ada@example.com', metadata: { phone: '555' } });
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'PATCH', body: { name: 'Ada King' } });
    const before = await deliveriesOf(ctx, endpoint.id);
    expect(before).toHaveLength(2);
    expect(before.every((d) => d.status === 'pending' && d.request.body.includes('ada@example.com'))).toBe(true);

    const erased = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    expect(erased.status, erased.text).toBe(200);
    const after = await deliveriesOf(ctx, endpoint.id);
    for (const d of after.filter((x) => x.event_type !== 'seller.erased')) {
      expect(d.request.body).not.toContain('ada@example.com');
      expect(d.request.body).not.toContain('Ada');
      const envelope = JSON.parse(d.request.body);
      expect(envelope.data.object).toMatchObject({ id: seller.id, name: null, email: null, metadata: {} });
      if (envelope.data.previous_attributes) expect(envelope.data.previous_attributes.name).toBeNull();
    }
    await deliverDue(ctx);
    const sent = receiver.received.filter((r) => r.path === '/erase');
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const r of sent) expect(r.body).not.toContain('ada@example.com');
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });

  it('records the outcome of an attempt in flight while the erasure rewrote its delivery', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    receiver.on('/inflight', (_req, res) => void answered.then(() => res.end('ok')));
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/inflight'), enabled_events: ['seller.created'] });
    const seller = await createSeller(ctx, { email: 'ada@example.com' });
    const run = ctx.services.background.loop(DISPATCHER).runDue(null, { wait: true });
    await waitFor(() => receiver.received.some((r) => r.path === '/inflight'));
    expect((await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' })).status).toBe(200);
    release();
    await run;
    const [d] = (await deliveriesOf(ctx, endpoint.id)).filter((x) => x.event_type === 'seller.created');
    expect(d).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(d.request.body).not.toContain('ada@example.com');
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });

  it("scrubs a buyer's too", async () => {
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/buyer'), enabled_events: ['buyer.created'] });
    const buyer = await createBuyer(ctx, { email: 'grace@example.com' });
    const res = await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'DELETE' });
    expect(res.status, res.text).toBe(200);
    const [d] = await deliveriesOf(ctx, endpoint.id);
    expect(d.request.body).not.toContain('grace@example.com');
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });
});

describe('retention', () => {
  it('prunes deliveries older than the retention period in batches, never pending ones', async () => {
    const endpoint = await createEndpoint(ctx, { url: receiver.url('/old'), enabled_events: ['seller.created'] });
    for (let i = 0; i < 3; i++) await createSeller(ctx);
    await deliverDue(ctx);
    await createSeller(ctx); // stays pending
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    await ctx.db.query('UPDATE webhook_deliveries SET created_at = $2 WHERE endpoint_id = $1', [endpoint.id, old]);
    expect(await pruneWebhookDeliveries(ctx.services)).toBe(3);
    expect(await pruneWebhookDeliveries(ctx.services)).toBe(0);
    const left = await deliveriesOf(ctx, endpoint.id);
    expect(left.map((d) => d.status)).toEqual(['pending']);
    await ctx.request(`/v1/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
  });
});
