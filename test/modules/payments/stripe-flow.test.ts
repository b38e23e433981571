// Payments through Stripe end to end: the service's processor calls go through the real SDK to
// the fake Stripe server (which checks each call against the SDK's own parameter types), and
// Stripe's answers come back as signed webhooks. Collect, release with source_transaction,
// refund after release with a reversal first, a refused transfer and its retry.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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

describe('Stripe', () => {
  it('charges on the platform, releases with source_transaction, refunds after release with a reversal first', async () => {
    const parties = await s.parties();
    const order = await s.order(parties);
    const created = await s.payment(order.payment);
    const session = fake.requestsOf('checkout_sessions').at(-1)!;
    expect(session.idempotencyKey).toBe(`${created.id}:start`);
    expect(session.params).toMatchObject({
      mode: 'payment',
      client_reference_id: order.id,
      metadata: { payment: created.id, order: order.id },
      payment_intent_data: { transfer_group: order.id, metadata: { payment: created.id, order: order.id } },
      success_url: 'https://shop.example/thanks',
      cancel_url: 'https://shop.example/cart',
    });
    expect(created.checkout_url).toMatch(/^https?:\/\//);
    expect(created.processor.checkout_session).toMatch(/^cs_test_fake/);

    const { pi, charge } = await s.pay(created);
    expect((await s.request(`/v1/orders/${order.id}`)).body.state).toBe('committed');
    expect(await s.payment(created.id)).toMatchObject({ status: 'succeeded', checkout_url: null, processor: { payment_intent: pi, charge }, release: { status: 'held', amount: 1000 } });

    await s.request(`/v1/orders/${order.id}/claim`, { actor: parties.seller.id });
    await s.request(`/v1/orders/${order.id}/confirm`, { actor: parties.buyer.id });
    const transfer = fake.requestsOf('transfers').at(-1)!;
    expect(transfer).toMatchObject({ idempotencyKey: `${created.id}:transfer:1`, params: { amount: '1000', currency: 'usd', destination: parties.account, source_transaction: charge, transfer_group: order.id } });
    const released = await s.payment(created.id);
    expect(released.release).toMatchObject({ status: 'released', amount: 1000 });
    expect(released.processor.transfer).toMatch(/^tr_fake/);

    const refund = await s.request('/v1/refunds', { payment: created.id, amount: 550 });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.body.transfer_reversal).toEqual({ amount: 500, status: 'pending', failure_reason: null });
    const requests = fake.requests.filter((r) => r.kind === 'transfer_reversals' || r.kind === 'refunds').map((r) => r.kind);
    expect(requests).toEqual(['transfer_reversals', 'refunds']);
    expect(fake.requestsOf('transfer_reversals').at(-1)).toMatchObject({ path: `/v1/transfers/${released.processor.transfer}/reversals`, idempotencyKey: `${refund.body.id}:reversal`, params: { amount: '500' } });
    expect(fake.requestsOf('refunds').at(-1)).toMatchObject({ idempotencyKey: `${refund.body.id}:refund`, params: { payment_intent: pi, amount: '550', metadata: { refund: refund.body.id, payment: created.id } } });
    const settled = (await s.request(`/v1/refunds/${refund.body.id}`)).body;
    expect(settled).toMatchObject({ status: 'succeeded', transfer_reversal: { amount: 500, status: 'succeeded' } });
    expect(settled.processor.refund).toMatch(/^re_fake/);
    expect(settled.processor.transfer_reversal).toMatch(/^trr_fake/);
    // Stripe's refund webhook afterwards changes nothing.
    await s.deliver('refund.updated', { id: settled.processor.refund, object: 'refund', amount: 550, payment_intent: pi, charge, status: 'succeeded', metadata: { refund: refund.body.id } });
    expect((await s.request(`/v1/refunds/${refund.body.id}`)).body).toEqual(settled);
  });

  it('a transfer Stripe refuses fails the release with its message; retry_release makes a new transfer', async () => {
    const parties = await s.parties();
    const order = await s.order(parties);
    await s.pay(await s.payment(order.payment));
    fake.failNext('transfers', { status: 400, code: 'insufficient_capabilities_for_transfer', message: 'Your destination account needs to have at least one of the following capabilities enabled: transfers.' });
    await s.request(`/v1/orders/${order.id}/claim`, { actor: parties.seller.id });
    await s.request(`/v1/orders/${order.id}/confirm`, { actor: parties.buyer.id });
    const failed = await s.payment(order.payment);
    expect(failed.release).toMatchObject({ status: 'failed', failure: expect.stringContaining('capabilities') });
    const retried = await s.request(`/v1/payments/${order.payment}/retry_release`, {});
    expect(retried.status, retried.text).toBe(200);
    expect((await s.payment(order.payment)).release.status).toBe('released');
    expect(fake.requestsOf('transfers').slice(-2).map((r) => r.idempotencyKey)).toEqual([`${order.payment}:transfer:1`, `${order.payment}:transfer:2`]);
  });

  it('a payment intent: client_secret while due; an order cancelled before payment closes it at Stripe', async () => {
    const parties = await s.parties();
    const order = await s.order(parties, { payment_method: 'payment_intent' });
    const payment = await s.payment(order.payment);
    expect(payment.client_secret).toMatch(/secret/);
    expect(fake.requestsOf('payment_intents').at(-1)!.params).toMatchObject({ amount: '1100', currency: 'usd', transfer_group: order.id });
    await s.request(`/v1/orders/${order.id}/cancel`, {});
    expect(fake.requestsOf('payment_intent_cancel').at(-1)!.path).toBe(`/v1/payment_intents/${payment.processor.payment_intent}/cancel`);
    // The buyer paid anyway, just before the cancel reached Stripe: a late payment, refunded in full.
    await s.deliver('payment_intent.succeeded', { id: payment.processor.payment_intent, object: 'payment_intent', latest_charge: 'ch_late', metadata: { payment: payment.id, order: order.id } });
    const late = await s.payment(payment.id);
    expect(late).toMatchObject({ status: 'succeeded', amount_refunded: 1100, release: { status: 'nothing_to_release' } });
    expect(fake.requestsOf('refunds').at(-1)!.params).toMatchObject({ amount: '1100' });
  });

  it("a refund made in Stripe's dashboard arrives as initiated_by processor, without reversal", async () => {
    const parties = await s.parties();
    const order = await s.order(parties);
    const { pi, charge } = await s.pay(await s.payment(order.payment));
    const reversals = fake.count('transfer_reversals');
    await s.deliver('refund.created', { id: 're_dashboard_1', object: 'refund', amount: 300, payment_intent: pi, charge, status: 'succeeded', metadata: {} });
    const refunds = (await s.request(`/v1/refunds?payment=${order.payment}`)).body.data;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ initiated_by: 'processor', amount: 300, status: 'succeeded', transfer_reversal: null, processor: { refund: 're_dashboard_1' } });
    expect(fake.count('transfer_reversals')).toBe(reversals);
  });

  it('a signed event delivered twice is handled once; events out of order end in the same state', async () => {
    const parties = await s.parties();
    const order = await s.order(parties, { payment_method: 'payment_intent' });
    const payment = await s.payment(order.payment);
    const pi = payment.processor.payment_intent as string;
    const metadata = { payment: payment.id, order: order.id };
    // A refund made in Stripe's dashboard overtakes the payment's success: the refund proves the payment.
    await s.deliver('refund.created', { id: 're_early_1', object: 'refund', amount: 220, payment_intent: pi, charge: 'ch_early', status: 'succeeded', metadata: {} });
    const refunded = await s.payment(payment.id);
    expect(refunded).toMatchObject({ status: 'succeeded', amount_refunded: 220, processor: { charge: 'ch_early' }, release: { status: 'held', amount: 800 } });
    expect((await s.request(`/v1/orders/${order.id}`)).body.state).toBe('committed');
    // The late success, delivered twice: the second delivery is a duplicate, and neither changes anything.
    const late = await s.deliver('payment_intent.succeeded', { id: pi, object: 'payment_intent', latest_charge: 'ch_early', metadata }, 'evt_late_paid');
    const again = await s.deliver('payment_intent.succeeded', { id: pi, object: 'payment_intent', latest_charge: 'ch_early', metadata }, 'evt_late_paid');
    expect([late.duplicate, again.duplicate]).toEqual([false, true]);
    expect(await s.payment(payment.id)).toEqual(refunded);
    // A failure reported after the success changes nothing either.
    await s.deliver('payment_intent.payment_failed', { id: pi, object: 'payment_intent', last_payment_error: { message: 'Your card was declined.' }, metadata });
    expect(await s.payment(payment.id)).toEqual(refunded);
    expect((await s.request(`/v1/refunds?payment=${payment.id}`)).body.data).toHaveLength(1);
  });
});
