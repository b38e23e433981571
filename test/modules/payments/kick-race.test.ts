// A worker in the same process is woken by the enqueue of a checkout's start call and may claim it
// before the request's own run after its COMMIT: the request then waits for the worker's call, so
// the create answer holds `payment_url` whoever made the call (the README tour reads it from the
// answer). Payments on, simulated processor, test mode, with and without an Idempotency-Key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processorCallJob } from '../../../src/modules/payments/calls.js';
import { startJobEngine, type JobEngine } from '../../../src/workers/engine.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
let engine: JobEngine;

beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.db.query('UPDATE marketplace_modes SET settings = settings || $2::jsonb WHERE marketplace_id = $1 AND mode = $3', [
    ctx.marketplaceId,
    JSON.stringify({ payments_enabled: true }),
    'test',
  ]);
  engine = startJobEngine(ctx.services, [processorCallJob], { log: { error: () => undefined }, pollMs: 5 });
});
afterAll(async () => {
  await engine?.stop();
  await ctx?.close();
});

async function post(url: string, body: unknown, idempotencyKey?: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${ctx.keys.test.secret_key}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: body as object,
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

describe('POST /v1/checkouts with a worker racing for the start call', () => {
  it('answers payment_url every time, with or without an Idempotency-Key', async () => {
    const seller = await post('/v1/sellers', { external_id: 'race-seller', name: 'Ada', email: 'ada@example.com' });
    await post(`/v1/test_helpers/sellers/${seller.id}/payouts`, { status: 'enabled' });
    const listing = await post('/v1/listings', { seller: seller.id, title: 'Walnut desk', price: { amount: 4500, currency: 'USD' }, quantity: 100 });
    await post(`/v1/listings/${listing.id}/publish`, {});
    const buyer = await post('/v1/buyers', { external_id: 'race-buyer', name: 'Grace', email: 'grace@example.com' });
    for (let i = 0; i < 12; i++) {
      const checkout = await post('/v1/checkouts', { buyer: buyer.id, items: [{ listing: listing.id }] }, i % 2 === 0 ? undefined : `race-${i}`);
      expect(checkout.status).toBe('awaiting_payment');
      expect(checkout.payment_url, `checkout ${i}`).toEqual(expect.stringMatching(/^http/));
    }
  });
});
