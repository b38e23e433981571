// Checkout payment steps on the simulated processor: a checkout (POST /v1/checkouts) of several
// sellers' listings awaiting payment (its charge and one share per order), paid through the
// hosted page, each order completed.
import { expect } from 'vitest';
import type { Json } from '../../helpers/factories.js';
import { createBuyer } from '../../helpers/factories.js';
import type { TestContext } from '../../helpers/harness.js';
import { paymentHelpers } from './helpers.js';

export interface CheckoutItem {
  price: number;
  quantity?: number;
}

export interface MadeCheckout {
  id: string;
  charge: Json;
  shares: Json[];
  orders: Json[];
  sellers: Array<{ id: string }>;
  buyer: { id: string };
}

export function checkoutHelpers(ctx: () => TestContext) {
  const h = paymentHelpers(ctx);

  /** A checkout of one listing per item, each of its own seller, awaiting payment. */
  async function unpaidCheckout(items: CheckoutItem[], body: Record<string, unknown> = {}): Promise<MadeCheckout> {
    const parties: Array<Awaited<ReturnType<typeof h.parties>>> = [];
    for (const item of items) parties.push(await h.parties({ price: { amount: item.price, currency: 'USD' }, quantity: 10 }));
    const buyer = await createBuyer(ctx());
    const res = await h.post('/v1/checkouts', { buyer: buyer.id, items: items.map((item, i) => ({ listing: parties[i]!.listing.id, quantity: item.quantity ?? 1 })), ...body });
    expect(res.status, res.text).toBe(201);
    const checkout = res.body as Json;
    const orders = await Promise.all((checkout.orders as string[]).map((id) => h.getOrder(id)));
    return describeCheckout(checkout.id, checkout.payment, orders, parties.map((p) => p.seller), buyer);
  }

  async function describeCheckout(id: string, chargeId: string, orders: Json[], sellers: Array<{ id: string }>, buyer: { id: string }): Promise<MadeCheckout> {
    const charge = await h.payment(chargeId);
    const shares = await Promise.all(orders.map((order) => h.payment(order.payment)));
    return { id, charge, shares, orders, sellers, buyer };
  }

  /** The checkout paid through the simulated processor's hosted page (its Pay button). */
  async function paidCheckout(items: CheckoutItem[], body: Record<string, unknown> = {}): Promise<MadeCheckout> {
    const checkout = await unpaidCheckout(items, body);
    const res = await ctx().request(`${new URL(checkout.charge.checkout_url).pathname}/pay`, { method: 'POST', key: null, body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([200, 303], res.text).toContain(res.status);
    return refresh(checkout);
  }

  async function refresh(checkout: MadeCheckout): Promise<MadeCheckout> {
    const orders = await Promise.all(checkout.orders.map((order) => h.getOrder(order.id)));
    return describeCheckout(checkout.id, checkout.charge.id, orders, checkout.sellers, checkout.buyer);
  }

  /** Claim and confirm an order of the checkout (its seller, then the buyer): the release starts. */
  async function completeOrder(checkout: MadeCheckout, index: number) {
    await h.ok(`/v1/orders/${checkout.orders[index]!.id}/claim`, { actor: checkout.sellers[index]!.id });
    return h.ok(`/v1/orders/${checkout.orders[index]!.id}/confirm`, { actor: checkout.buyer.id });
  }

  return { ...h, unpaidCheckout, paidCheckout, refresh, completeOrder };
}
