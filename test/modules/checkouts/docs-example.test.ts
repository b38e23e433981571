// docs/checkouts.md's worked example, through the API, so the page's figures stay what the service
// does: three sellers, three fees (the mode's, two categories'), one charge, three releases, then
// a refund of 3000 of order 2 after its release, and the money identity after it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCategory, createPublishedListing, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { checkoutHelpers } from './helpers.js';

let ctx: TestContext;
const h = checkoutHelpers(() => ctx);

beforeAll(async () => {
  ctx = await startTestApp();
  await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 250, fixed_amount: 0 }, release_delay_seconds: 0 });
});
afterAll(() => ctx?.close());

it('gives the figures of docs/checkouts.md, "A worked example"', async () => {
  const ceramics = await createCategory(ctx, { name: 'Ceramics', fee: { percent_bps: 1000, fixed_amount: 30 } });
  const textiles = await createCategory(ctx, { name: 'Textiles', fee: { percent_bps: 575 } });
  const parties = [];
  for (const listing of [
    { title: 'Walnut desk', price: { amount: 45000, currency: 'USD' } },
    { title: 'Ceramic vase', price: { amount: 3499, currency: 'USD' }, category: ceramics.id },
    { title: 'Linen throw', price: { amount: 8950, currency: 'USD' }, category: textiles.id },
  ]) {
    const seller = await h.seller();
    parties.push({ seller, listing: await createPublishedListing(ctx, { seller: seller.id, quantity: 5, ...listing }) });
  }
  const buyer = (await ctx.request('/v1/buyers', { method: 'POST', body: { external_id: 'docs-example-buyer' } })).body as Json;
  const created = await h.post('/v1/checkouts', {
    buyer: buyer.id,
    items: [{ listing: parties[0]!.listing.id }, { listing: parties[1]!.listing.id, quantity: 2 }, { listing: parties[2]!.listing.id }],
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body).toMatchObject({ subtotal: 60948, fee_amount: 2370, total: 63318 });
  const orders = await h.ordersOf(created.body.id);
  const byId = new Map(orders.map((o: Json) => [o.id, o]));
  const [desk, vases, throw_] = (created.body.orders as string[]).map((id) => byId.get(id) as Json);
  expect([desk, vases, throw_].map((o) => [o.subtotal, o.fee_amount, o.total])).toEqual([
    [45000, 1125, 46125],
    [6998, 730, 7728],
    [8950, 515, 9465],
  ]);

  // 1. The buyer pays one charge of 63318, on the simulated processor's page.
  const charge = created.body.payment as string;
  const paid = await ctx.request(`${new URL(created.body.payment_url).pathname}/pay`, { method: 'POST', key: null, body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  expect([200, 303], paid.text).toContain(paid.status);
  expect((await ctx.request(`/v1/payments/${charge}`)).body).toMatchObject({ status: 'succeeded', amount: 63318 });
  expect((await ctx.request(`/v1/checkouts/${created.body.id}`)).body.status).toBe('completed');

  // 2. Each order is claimed and confirmed: each release sends its subtotal to its seller.
  for (const [i, order] of [desk, vases, throw_].entries()) {
    expect((await h.post(`/v1/orders/${order.id}/claim`, { actor: parties[i]!.seller.id })).status).toBe(200);
    expect((await h.post(`/v1/orders/${order.id}/confirm`, { actor: buyer.id })).status).toBe(200);
  }
  const shares = async () => Promise.all([desk, vases, throw_].map(async (o) => (await ctx.request(`/v1/payments/${o.payment}`)).body as Json));
  await expect.poll(async () => (await shares()).map((s) => [s.release.status, s.release.amount])).toEqual([
    ['released', 45000],
    ['released', 6998],
    ['released', 8950],
  ]);

  // 3. 3000 of order 2 refunded after its release: 2717 reversed from its seller, 283 of its fee back.
  const refund = await h.post('/v1/refunds', { order: vases.id, amount: 3000 });
  expect(refund.status, refund.text).toBe(201);
  expect(refund.body).toMatchObject({ amount: 3000, transfer_reversal: { amount: 2717 } });
  const after = await shares();
  expect(after.map((s) => [s.amount_refunded, s.release.amount_reversed])).toEqual([
    [0, 0],
    [3000, 2717],
    [0, 0],
  ]);

  // The identity: charge − refunds = Σ transfers − Σ reversals + platform fees kept.
  const refunds = after.reduce((sum, s) => sum + s.amount_refunded, 0);
  const transfers = after.reduce((sum, s) => sum + s.release.amount, 0);
  const reversals = after.reduce((sum, s) => sum + s.release.amount_reversed, 0);
  const feesKept = 1125 + (730 - (3000 - 2717)) + 515;
  expect([63318 - refunds, transfers, reversals, feesKept]).toEqual([60318, 60948, 2717, 2087]);
  expect(63318 - refunds).toBe(transfers - reversals + feesKept);
});
