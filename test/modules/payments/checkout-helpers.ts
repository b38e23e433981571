// Checkout payment steps on the simulated processor: a checkout of several sellers' listings
// awaiting payment (its charge and one share per order), paid, each order completed or refunded.
// POST /v1/checkouts makes it when the route exists; otherwise (the payments side on its own) the
// orders are made one by one and the checkout's payment through the payments module's hook,
// which is what the checkouts module calls.
import { expect } from 'vitest';
import type { Json } from '../../helpers/factories.js';
import { createBuyer } from '../../helpers/factories.js';
import type { TestContext } from '../../helpers/harness.js';
import { paymentOrderHooks } from '../../../src/modules/payments/order-hooks.js';
import { loadSettings } from '../../../src/modules/marketplaces/index.js';
import { modeNow, type Scope } from '../../../src/scope.js';
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

let made = 0;

export function checkoutHelpers(ctx: () => TestContext) {
  const h = paymentHelpers(ctx);
  const scope = (): Scope => ({ marketplaceId: ctx().marketplaceId, mode: 'test' });

  /** A checkout of one listing per item, each of its own seller, awaiting payment. */
  async function unpaidCheckout(items: CheckoutItem[], body: Record<string, unknown> = {}): Promise<MadeCheckout> {
    const parties: Array<Awaited<ReturnType<typeof h.parties>>> = [];
    for (const item of items) parties.push(await h.parties({ price: { amount: item.price, currency: 'USD' }, quantity: 10 }));
    const buyer = await createBuyer(ctx());
    if (ctx().app.hasRoute({ method: 'POST', url: '/v1/checkouts' })) {
      const res = await h.post('/v1/checkouts', { buyer: buyer.id, items: items.map((item, i) => ({ listing: parties[i]!.listing.id, quantity: item.quantity ?? 1 })), ...body });
      expect(res.status, res.text).toBe(201);
      const checkout = res.body as Json;
      const orders = await Promise.all((checkout.orders as string[]).map((id) => h.getOrder(id)));
      return await describeCheckout(checkout.id, checkout.payment, orders, parties.map((p) => p.seller), buyer);
    }
    return hookCheckout(items, parties, buyer, body);
  }

  async function hookCheckout(items: CheckoutItem[], parties: Array<{ seller: { id: string }; listing: Json }>, buyer: { id: string }, body: Record<string, unknown>): Promise<MadeCheckout> {
    const orders: Json[] = [];
    for (const [i, item] of items.entries()) {
      const res = await h.post('/v1/orders', { buyer: buyer.id, listing: parties[i]!.listing.id, quantity: item.quantity ?? 1, ...body });
      expect(res.status, res.text).toBe(201);
      orders.push(res.body);
    }
    const id = `chk_test${String(++made).padStart(22, '0')}`;
    const sum = (key: string) => orders.reduce((total, order) => total + (order[key] as number), 0);
    const result = await ctx().db.transaction(async (tx) => {
      // Each order came with its own payment: the checkout's share replaces it.
      for (const order of orders) {
        await tx.query('DELETE FROM jobs WHERE subject_id = $1', [order.payment]);
        await tx.query('DELETE FROM payments WHERE marketplace_id = $1 AND id = $2', [ctx().marketplaceId, order.payment]);
      }
      const settings = await loadSettings(tx, scope());
      const now = await modeNow(tx, ctx().services.clock, scope());
      const checkout = {
        id,
        buyer: buyer.id,
        currency: 'USD',
        subtotal: sum('subtotal'),
        fee_amount: sum('fee_amount'),
        total: sum('total'),
        payment_method: (body.payment_method as string | undefined) ?? 'checkout_session',
        success_url: null,
        cancel_url: null,
        orders: orders.map((order) => ({
          id: order.id, buyer: buyer.id, seller: order.seller, listing: order.listing, subtotal: order.subtotal, fee_amount: order.fee_amount,
          total: order.total, currency: order.currency, payment_method: 'checkout_session', success_url: null, cancel_url: null,
        })),
      };
      const answer = await paymentOrderHooks.createCheckoutPayment(tx, scope(), checkout, settings, now, ctx().services);
      // What the checkouts module does with the answer: each order's payment is its share.
      for (const [i, order] of orders.entries()) {
        await tx.query('UPDATE orders SET payment_id = $2 WHERE marketplace_id = $3 AND id = $1', [order.id, answer.orderPayments[i], ctx().marketplaceId]);
      }
      return answer;
    });
    const fresh = await Promise.all(orders.map((order) => h.getOrder(order.id)));
    return describeCheckout(id, result.payment, fresh, parties.map((p) => p.seller), buyer);
  }

  async function describeCheckout(id: string, chargeId: string, orders: Json[], sellers: Array<{ id: string }>, buyer: { id: string }): Promise<MadeCheckout> {
    const charge = await h.payment(chargeId);
    const shares = await Promise.all(orders.map((order) => h.payment(order.payment)));
    return { id, charge, shares, orders, sellers, buyer };
  }

  /** The checkout paid through the simulated processor's hosted page (its Pay button). */
  async function paidCheckout(items: CheckoutItem[], body: Record<string, unknown> = {}): Promise<MadeCheckout> {
    const checkout = await unpaidCheckout(items, body);
    const res = await ctx().request(`/simulated/checkout/${checkout.charge.id}/pay`, { method: 'POST', key: null, body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
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
