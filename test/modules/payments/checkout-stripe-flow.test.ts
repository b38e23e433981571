// A checkout's payment through Stripe against the fake Stripe server (docs/decisions/checkouts.md):
// one Checkout Session whose PaymentIntent is grouped by the checkout (transfer_group, metadata
// {payment, checkout}) with a line item per order; a Transfer per order drawn on the one charge
// (source_transaction) in the checkout's group; a refund of one order reverses that order's
// transfer alone.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../helpers/factories.js';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { stripeMode } from './stripe-helpers.js';

let fake: FakeStripe;
let ctx: TestContext;
const s = stripeMode(() => ctx, () => fake);

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await startTestApp({ env: { STRIPE_API_URL: fake.url } });
  await s.connect();
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  expect(fake.violations).toEqual([]);
});

type Parties = Awaited<ReturnType<typeof s.parties>>;

/** A checkout of one listing of each seller for the first party's buyer. */
async function checkout(sellers: Parties[]): Promise<{ id: string; charge: Json; orders: Json[] }> {
  const res = await s.request('/v1/checkouts', { buyer: sellers[0]!.buyer.id, items: sellers.map((p) => ({ listing: p.listing.id })) });
  expect(res.status, res.text).toBe(201);
  const orders = await Promise.all((res.body.orders as string[]).map(async (id) => (await s.request(`/v1/orders/${id}`)).body as Json));
  return { id: res.body.id, charge: await s.payment(res.body.payment), orders };
}

describe('a checkout through Stripe', () => {
  it('one session grouped by the checkout, a transfer per order from the one charge, reversals per order', async () => {
    const sellers = [await s.parties(), await s.parties(), await s.parties()];
    const { id, charge, orders } = await checkout(sellers);
    // One session for the checkout, none for its orders' shares.
    const shareIds = new Set(orders.map((order) => order.payment as string));
    const sessions = fake.requestsOf('checkout_sessions');
    expect(sessions.filter((r) => (r.params.metadata as Record<string, string>).checkout === id)).toHaveLength(1);
    expect(sessions.filter((r) => shareIds.has((r.params.metadata as Record<string, string>).payment!))).toHaveLength(0);
    const session = fake.requestsOf('checkout_sessions').at(-1)!;
    expect(session.idempotencyKey).toBe(`${charge.id}:start`);
    expect(session.params).toMatchObject({
      mode: 'payment',
      client_reference_id: id,
      metadata: { payment: charge.id, checkout: id },
      payment_intent_data: { transfer_group: id, metadata: { payment: charge.id, checkout: id } },
    });
    const lineItems = session.params.line_items as Array<{ price_data: { unit_amount: string; product_data: { metadata: Record<string, string> } } }>;
    expect(lineItems.map((item) => [item.price_data.unit_amount, item.price_data.product_data.metadata])).toEqual(
      orders.map((order) => [String(order.total), { order: order.id, listing: order.listing }]),
    );
    expect(charge.amount).toBe(orders.reduce((sum, order) => sum + order.total, 0));

    // Stripe reports the session paid: the metadata names the charge.
    const pi = 'pi_chk_flow_1';
    const chargeId = 'ch_chk_flow_1';
    const metadata = { payment: charge.id, checkout: id };
    await s.deliver('checkout.session.completed', { id: charge.processor.checkout_session, object: 'checkout.session', payment_status: 'paid', payment_intent: pi, amount_total: charge.amount, currency: 'usd', metadata });
    await s.deliver('payment_intent.succeeded', { id: pi, object: 'payment_intent', latest_charge: chargeId, amount_received: charge.amount, currency: 'usd', metadata });
    for (const order of orders) expect((await s.request(`/v1/orders/${order.id}`)).body.state).toBe('committed');

    for (const [i, order] of orders.entries()) {
      await s.request(`/v1/orders/${order.id}/claim`, { actor: sellers[i]!.seller.id });
      await s.request(`/v1/orders/${order.id}/confirm`, { actor: sellers[0]!.buyer.id });
    }
    const transfers = fake.requestsOf('transfers').slice(-3);
    expect(transfers.map((t) => t.params)).toEqual(orders.map((order, i) => expect.objectContaining({
      amount: String(order.subtotal), destination: sellers[i]!.account, source_transaction: chargeId, transfer_group: id,
    })));
    const shares = await Promise.all(orders.map((order) => s.payment(order.payment)));
    for (const share of shares) expect(share.release.status).toBe('released');

    // A refund of the second order: that order's transfer is reversed, a refund on the one intent.
    const refund = await s.request('/v1/refunds', { order: orders[1]!.id, amount: 550 });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.body).toMatchObject({ payment: shares[1]!.id, transfer_reversal: { amount: 500 } });
    expect(fake.requestsOf('transfer_reversals').at(-1)).toMatchObject({ path: `/v1/transfers/${shares[1]!.processor.transfer}/reversals`, params: { amount: '500' } });
    expect(fake.requestsOf('refunds').at(-1)).toMatchObject({ params: { payment_intent: pi, amount: '550' } });
    // Refunding the charge spreads over the orders: the first order's transfer is reversed next.
    const spread = await s.request('/v1/refunds', { payment: charge.id, amount: shares[0]!.amount + 10 });
    expect(spread.status, spread.text).toBe(201);
    // Each order's share is refunded by its own job, so the two reversals may reach Stripe in either order.
    const reversals = fake.requestsOf('transfer_reversals').slice(-2).map((r) => r.path).sort();
    expect(reversals).toEqual([`/v1/transfers/${shares[0]!.processor.transfer}/reversals`, `/v1/transfers/${shares[1]!.processor.transfer}/reversals`].sort());
    expect((await s.payment(shares[2]!.id)).amount_refunded).toBe(0);
  });
});
