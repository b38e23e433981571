// Creating checkouts with payments off: every order committed at once and the checkout completed,
// the amounts, the events in order, items of one listing as one reservation, all or nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { checkoutHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = checkoutHelpers(() => ctx);

async function eventsAbout(ids: readonly string[]): Promise<Array<{ type: string; object_id: string; data: Json }>> {
  return ctx.db.query('SELECT type, object_id, data FROM events WHERE object_id = ANY($1::text[]) ORDER BY id', [ids]);
}

describe('POST /v1/checkouts with payments off', () => {
  it('commits every order at once and completes the checkout: amounts summed, events in order, units reserved', async () => {
    await h.setSettings({ platform_fee: { percent_bps: 150, fixed_amount: 0 } });
    try {
      const { buyer, listings } = await h.cart(3);
      const category = await createCategory(ctx, { fee: { percent_bps: 1000, fixed_amount: 0 } });
      await ctx.request(`/v1/listings/${listings[2].id}`, { method: 'PATCH', body: { category: category.id } });
      const res = await h.post('/v1/checkouts', {
        buyer: buyer.id,
        items: [{ listing: listings[0].id }, { listing: listings[1].id, quantity: 2 }, { listing: listings[2].id, quantity: 3 }],
        metadata: { cart: 'c1' },
      });
      expect(res.status, res.text).toBe(201);
      const checkout = res.body;
      // 1000 at 1.5% = 15; 2 × 2000 at 1.5% = 60; 3 × 3000 at its category's 10% = 900.
      expect(checkout).toMatchObject({
        object: 'checkout',
        buyer: buyer.id,
        status: 'completed',
        currency: 'USD',
        subtotal: 1000 + 4000 + 9000,
        fee_amount: 15 + 60 + 900,
        total: 14_000 + 975,
        payment: null,
        payment_url: null,
        expires_at: null,
        metadata: { cart: 'c1' },
      });
      expect(checkout.id).toMatch(/^chk_/);
      expect(checkout.orders).toHaveLength(3);
      const orders = await Promise.all(checkout.orders.map(async (id: string) => (await ctx.request(`/v1/orders/${id}`)).body));
      expect(orders.map((o) => [o.listing, o.quantity, o.state, o.checkout, o.fee_amount])).toEqual([
        [listings[0].id, 1, 'committed', checkout.id, 15],
        [listings[1].id, 2, 'committed', checkout.id, 60],
        [listings[2].id, 3, 'committed', checkout.id, 900],
      ]);
      expect((await h.getListing(listings[1].id)).quantity_available).toBe(3);
      expect((await h.getListing(listings[2].id)).quantity_available).toBe(2);
      const events = await eventsAbout([checkout.id, ...checkout.orders]);
      expect(events.map((e) => [e.type, e.object_id])).toEqual([
        ['order.created', checkout.orders[0]],
        ['order.committed', checkout.orders[0]],
        ['order.created', checkout.orders[1]],
        ['order.committed', checkout.orders[1]],
        ['order.created', checkout.orders[2]],
        ['order.committed', checkout.orders[2]],
        ['checkout.created', checkout.id],
        ['checkout.completed', checkout.id],
      ]);
      expect(events.at(-1)!.data.object).toEqual(checkout);
      expect((await ctx.request(`/v1/checkouts/${checkout.id}`)).body).toEqual(checkout);
      const listed = await h.ordersOf(checkout.id);
      expect(listed.map((o) => o.id)).toEqual([...checkout.orders].reverse());
    } finally {
      await h.setSettings({ platform_fee: { percent_bps: 0, fixed_amount: 0 } });
    }
  });

  it('makes two orders of two items of one listing, reserving their units together', async () => {
    const { buyer, listings } = await h.cart(1);
    const res = await h.post('/v1/checkouts', { buyer: buyer.id, items: [{ listing: listings[0].id, quantity: 2 }, { listing: listings[0].id, quantity: 3 }] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.orders).toHaveLength(2);
    expect((await h.getListing(listings[0].id)).quantity_available).toBe(0);
    const short = await h.post('/v1/checkouts', { buyer: buyer.id, items: [{ listing: listings[0].id }] });
    expect(short.status).toBe(409);
  });

  it('counts the items of one listing together: 3 + 3 of 5 units is refused on the first item of that listing', async () => {
    const { buyer, listings } = await h.cart(2);
    const res = await h.post('/v1/checkouts', {
      buyer: buyer.id,
      items: [{ listing: listings[1].id }, { listing: listings[0].id, quantity: 3 }, { listing: listings[0].id, quantity: 3 }],
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'quantity_unavailable', param: 'items[1].quantity' });
    expect(res.body.error.message).toContain(`The listing ${listings[0].id} has 5 units available; the checkout asks for 6.`);
    expect((await h.getListing(listings[1].id)).quantity_available).toBe(5);
  });

  it('is all or nothing: the last item short leaves no unit reserved, no order, no checkout and no event', async () => {
    const { buyer, listings } = await h.cart(3);
    const eventsBefore = (await ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM events'))[0]!.n;
    const ordersBefore = (await ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM orders'))[0]!.n;
    const res = await h.post('/v1/checkouts', {
      buyer: buyer.id,
      items: [{ listing: listings[0].id, quantity: 5 }, { listing: listings[1].id, quantity: 1 }, { listing: listings[2].id, quantity: 6 }],
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'quantity_unavailable', param: 'items[2].quantity' });
    for (const listing of listings) expect((await h.getListing(listing.id)).quantity_available).toBe(5);
    expect((await ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM events'))[0]!.n).toBe(eventsBefore);
    expect((await ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM orders'))[0]!.n).toBe(ordersBefore);
    expect((await ctx.db.query('SELECT id FROM checkouts WHERE buyer_id = $1', [buyer.id])).length).toBe(0);
  });
});
