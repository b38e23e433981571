// expand[] on checkouts (docs/expand.md): the buyer and the payment in place of their ids, on the
// list and the retrieve; and checkout.buyer through an order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { orderHelpers } from '../orders/helpers.js';

let ctx: TestContext;
const h = orderHelpers(() => ctx);

beforeAll(async () => {
  ctx = await startTestApp();
  await h.setSettings({ payments_enabled: true });
});
afterAll(() => ctx.close());

describe('expand[] on checkouts', () => {
  it('expands buyer and payment on the list and the retrieve, and checkout.buyer on orders', async () => {
    const p = await h.parties({ price: { amount: 1500, currency: 'USD' } });
    const created = await h.post('/v1/checkouts', { buyer: p.buyer.id, items: [{ listing: p.listing.id }] });
    expect(created.status, created.text).toBe(201);
    const list = await ctx.request('/v1/checkouts?expand[]=buyer&expand[]=payment');
    expect(list.status, list.text).toBe(200);
    expect(list.body.data[0]).toMatchObject({ id: created.body.id, buyer: { object: 'buyer', id: p.buyer.id }, payment: { object: 'payment', id: created.body.payment } });
    const one = await ctx.request(`/v1/checkouts/${created.body.id}?expand=buyer`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.buyer).toMatchObject({ object: 'buyer', id: p.buyer.id, name: p.buyer.name });
    expect(one.body.payment).toBe(created.body.payment);
    const order = await ctx.request(`/v1/orders/${created.body.orders[0]}?expand[]=checkout.buyer`);
    expect(order.status, order.text).toBe(200);
    expect(order.body.checkout).toMatchObject({ object: 'checkout', buyer: { object: 'buyer', id: p.buyer.id } });
  });

  it('refuses a path checkouts do not have with 400 naming it', async () => {
    const res = await ctx.request('/v1/checkouts?expand[]=orders');
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'expand[0]' });
  });
});
