// Payment test steps over HTTP on the simulated processor: payments on, an onboarded seller, a
// paid order, and the order moves that release or refund it.
import { expect } from 'vitest';
import type { Json } from '../../helpers/factories.js';
import type { TestContext } from '../../helpers/harness.js';
import { orderHelpers } from '../orders/helpers.js';

export function paymentHelpers(ctx: () => TestContext) {
  const h = orderHelpers(ctx);

  async function ok(url: string, body?: unknown, status = 200): Promise<Json> {
    const res = await h.post(url, body);
    expect(res.status, `${url}: ${res.text}`).toBe(status);
    return res.body;
  }

  async function get(url: string): Promise<Json> {
    const res = await ctx().request(url);
    expect(res.status, `${url}: ${res.text}`).toBe(200);
    return res.body;
  }

  /** An order awaiting payment (payments on), its payment, and the parties. */
  async function unpaid(body: Record<string, unknown> = {}, listing: Record<string, unknown> = {}) {
    const made = await h.order(body, { price: { amount: 1000, currency: 'USD' }, ...listing });
    expect(made.order.state).toBe('awaiting_payment');
    const payment = await get(`/v1/payments/${made.order.payment}`);
    return { ...made, payment };
  }

  /** A committed order whose payment succeeded. */
  async function paid(body: Record<string, unknown> = {}, listing: Record<string, unknown> = {}) {
    const made = await unpaid(body, listing);
    const payment = await ok(`/v1/test_helpers/payments/${made.payment.id}/succeed`);
    expect(payment.status).toBe('succeeded');
    const order = await h.getOrder(made.order.id);
    expect(order.state).toBe('committed');
    return { ...made, order, payment };
  }

  async function complete(made: { order: Json; seller: { id: string }; buyer: { id: string } }) {
    await ok(`/v1/orders/${made.order.id}/claim`, { actor: made.seller.id });
    return ok(`/v1/orders/${made.order.id}/confirm`, { actor: made.buyer.id });
  }

  const payment = (id: string) => get(`/v1/payments/${id}`);
  const refund = (body: Record<string, unknown>) => ok('/v1/refunds', body, 201);
  const payouts = (sellerId: string, status: string) => ok(`/v1/test_helpers/sellers/${sellerId}/payouts`, { status });

  return { ...h, ok, get, unpaid, paid, complete, payment, refund, payouts };
}
