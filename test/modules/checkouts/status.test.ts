// A checkout's status follows its orders (follow-orders.ts): with payments on it awaits its one
// payment (no order cancelled alone meanwhile), completes once every order is paid and expires,
// returning every unit, once the shared payment window passes; any checkout is cancelled once
// every order of it is cancelled. Each checkout.* event once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitPaidOrder } from '../../../src/flows/settle-processor-report.js';
import { loadSettings } from '../../../src/modules/marketplaces/index.js';
import { type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { checkoutHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = checkoutHelpers(() => ctx);
const scope = () => ({ marketplaceId: ctx.marketplaceId, mode: 'test' as const });

async function typesAbout(id: string): Promise<string[]> {
  return (await ctx.db.query<{ type: string }>('SELECT type FROM events WHERE object_id = $1 ORDER BY id', [id])).map((e) => e.type);
}

async function advance(seconds: number) {
  const res = await h.post('/v1/test_helpers/clock/advance', { seconds });
  expect(res.status, res.text).toBe(200);
}

/** A checkout of three sellers' listings made with payments on. */
async function unpaidCheckout(): Promise<{ checkout: Json; listings: Json[] }> {
  await h.setSettings({ payments_enabled: true });
  try {
    const { buyer, listings } = await h.cart(3);
    const res = await h.post('/v1/checkouts', {
      buyer: buyer.id,
      items: [{ listing: listings[0].id, quantity: 2 }, { listing: listings[1].id }, { listing: listings[2].id, quantity: 3 }],
    });
    expect(res.status, res.text).toBe(201);
    return { checkout: res.body, listings };
  } finally {
    await h.setSettings({ payments_enabled: false });
  }
}

describe('with payments on', () => {
  it('awaits one payment for its total; every order awaits its share until the shared deadline', async () => {
    const { checkout } = await unpaidCheckout();
    expect(checkout).toMatchObject({ status: 'awaiting_payment', subtotal: 2000 + 2000 + 9000, total: 13_000 });
    expect(checkout.payment).toMatch(/^pay_/);
    expect(Date.parse(checkout.expires_at) - Date.parse(checkout.created_at)).toBe(1800 * 1000);
    const orders = await h.ordersOf(checkout.id);
    for (const order of orders) {
      expect(order).toMatchObject({ state: 'awaiting_payment', checkout: checkout.id, deadline: checkout.expires_at });
      expect(order.payment).toMatch(/^pay_/);
      expect(order.payment).not.toBe(checkout.payment);
    }
    const charge = await ctx.request(`/v1/payments/${checkout.payment}`);
    expect(charge.status, charge.text).toBe(200);
    expect(charge.body.amount).toBe(checkout.total);
    expect(await typesAbout(checkout.id)).toEqual(['checkout.created']);
    // The charge's hosted page (the simulated processor's), in the answer and on reading.
    expect(checkout.payment_url).toEqual(expect.any(String));
    expect((await ctx.request(`/v1/checkouts/${checkout.id}`)).body.payment_url).toBe(checkout.payment_url);
    expect((await ctx.request(`/v1/payments/${checkout.payment}`)).body.checkout_url).toBe(checkout.payment_url);
  });

  it('refuses to cancel one of its orders alone while the payment is awaited (409 invalid_state), by anyone', async () => {
    const { checkout } = await unpaidCheckout();
    const [order] = await h.ordersOf(checkout.id);
    for (const body of [{}, { actor: order.buyer }, { actor: order.seller }]) {
      const res = await h.post(`/v1/orders/${order.id}/cancel`, body);
      expect(res.status, res.text).toBe(409);
      expect(res.body.error.code).toBe('invalid_state');
      expect(res.body.error.message).toContain(checkout.id);
    }
    expect((await ctx.request(`/v1/orders/${order.id}`)).body.state).toBe('awaiting_payment');
  });

  it('expires with the payment window: every order expires, every unit returns, checkout.expired once', async () => {
    const { checkout, listings } = await unpaidCheckout();
    await advance(1799);
    expect((await ctx.request(`/v1/checkouts/${checkout.id}`)).body.status).toBe('awaiting_payment');
    await advance(1);
    for (const order of await h.ordersOf(checkout.id)) expect(order.state).toBe('expired');
    for (const listing of listings) expect((await h.getListing(listing.id)).quantity_available).toBe(5);
    const expired = (await ctx.request(`/v1/checkouts/${checkout.id}`)).body;
    expect(expired).toMatchObject({ status: 'expired', payment_url: null });
    expect(await typesAbout(checkout.id)).toEqual(['checkout.created', 'checkout.expired']);
  });

  it('completes once every order is paid (committed by its payment), with checkout.completed once', async () => {
    const { checkout } = await unpaidCheckout();
    const now = new Date(Date.parse((await ctx.request('/v1/test_helpers/clock')).body.now));
    await ctx.db.transaction(async (tx) => {
      const settings = await loadSettings(tx, scope());
      for (const [i, id] of (checkout.orders as string[]).entries()) {
        await commitPaidOrder(tx, scope(), id, settings, now);
        const status = (await tx.query<{ status: string }>('SELECT status FROM checkouts WHERE id = $1', [checkout.id]))[0]!.status;
        expect(status).toBe(i < 2 ? 'awaiting_payment' : 'completed');
      }
    });
    const after = (await ctx.request(`/v1/checkouts/${checkout.id}`)).body;
    expect(after.status).toBe('completed');
    expect(await typesAbout(checkout.id)).toEqual(['checkout.created', 'checkout.completed']);
    // After payment each order lives its own life: the window passing expires none of them now.
    await advance(1801);
    expect((await ctx.request(`/v1/checkouts/${checkout.id}`)).body.status).toBe('completed');
  });
});

describe('paid on the simulated processor', () => {
  it("completes when the buyer pays the charge's page: every order committed, checkout.completed once, the units still held", async () => {
    const { checkout, listings } = await unpaidCheckout();
    const res = await ctx.request(`${new URL(checkout.payment_url).pathname}/pay`, {
      method: 'POST',
      key: null,
      body: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([200, 303], res.text).toContain(res.status);
    for (const order of await h.ordersOf(checkout.id)) expect(order.state).toBe('committed');
    expect((await ctx.request(`/v1/checkouts/${checkout.id}`)).body).toMatchObject({ status: 'completed', payment_url: null });
    expect(await typesAbout(checkout.id)).toEqual(['checkout.created', 'checkout.completed']);
    expect(await Promise.all(listings.map(async (l) => (await h.getListing(l.id)).quantity_available))).toEqual([3, 4, 2]);
    // The payment window passing no longer touches the paid orders.
    await advance(1801);
    expect((await ctx.request(`/v1/checkouts/${checkout.id}`)).body.status).toBe('completed');
  });
});

describe('a payment reported between two of its orders\' expiry timers', () => {
  it('completes: the expired order stays expired (its share refunded), the others are paid; checkout.completed once', async () => {
    const { checkout, listings } = await unpaidCheckout();
    const [first, ...others] = checkout.orders as string[];
    // Only the first order's timer runs at the deadline; the others' would run a moment later.
    await ctx.db.query(`UPDATE timers SET run_at = run_at + interval '1 hour' WHERE marketplace_id = $1 AND mode = 'test' AND subject_id = ANY($2)`, [
      ctx.marketplaceId,
      others,
    ]);
    await advance(1800);
    expect((await ctx.request(`/v1/orders/${first}`)).body.state).toBe('expired');
    expect((await ctx.request(`/v1/checkouts/${checkout.id}`)).body.status).toBe('awaiting_payment');
    const res = await ctx.request(`${new URL(checkout.payment_url).pathname}/pay`, {
      method: 'POST',
      key: null,
      body: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([200, 303], res.text).toContain(res.status);
    for (const id of others) expect((await ctx.request(`/v1/orders/${id}`)).body.state).toBe('committed');
    expect((await ctx.request(`/v1/orders/${first}`)).body.state).toBe('expired');
    expect((await ctx.request(`/v1/checkouts/${checkout.id}`)).body.status).toBe('completed');
    expect(await typesAbout(checkout.id)).toEqual(['checkout.created', 'checkout.completed']);
    // The expired order's units went back; the paid orders' are still held.
    expect(await Promise.all(listings.map(async (l) => (await h.getListing(l.id)).quantity_available))).toEqual([5, 4, 2]);
  });
});

describe('cancellation', () => {
  it('is cancelled once every order of it is cancelled (not before), with checkout.cancelled once', async () => {
    const { buyer, listings } = await h.cart(2);
    const res = await h.post('/v1/checkouts', { buyer: buyer.id, items: listings.map((l) => ({ listing: l.id })) });
    expect(res.status, res.text).toBe(201);
    const checkout = res.body;
    const first = await h.post(`/v1/orders/${checkout.orders[0]}/cancel`, { reason: 'Out of stock.' });
    expect(first.status, first.text).toBe(200);
    expect((await ctx.request(`/v1/checkouts/${checkout.id}`)).body.status).toBe('completed');
    const second = await h.post(`/v1/orders/${checkout.orders[1]}/cancel`, {});
    expect(second.status, second.text).toBe(200);
    const after = (await ctx.request(`/v1/checkouts/${checkout.id}`)).body;
    expect(after.status).toBe('cancelled');
    expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(checkout.updated_at));
    expect(await typesAbout(checkout.id)).toEqual(['checkout.created', 'checkout.completed', 'checkout.cancelled']);
    for (const listing of listings) expect((await h.getListing(listing.id)).quantity_available).toBe(5);
  });
});
