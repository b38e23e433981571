// A processor's success report is checked against our payment's amount and currency (issue 21,
// item 6): a report that names another amount or currency is recorded on the payment
// (amount_mismatch, last_failure, payment.failed while due) and not applied: the payment does not
// succeed, the order is not paid, nothing is refunded. The simulated processor's helper names the
// amount it "took"; Stripe's webhooks (signed, through the fake Stripe server) name amount_total,
// amount_received and a lower-case currency.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storedEvents } from '../../helpers/factories.js';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { paymentHelpers } from './helpers.js';
import { stripeMode } from './stripe-helpers.js';

let fake: FakeStripe;
let ctx: TestContext;
const h = paymentHelpers(() => ctx);
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

describe('the simulated processor', () => {
  beforeEach(() => h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 0, fixed_amount: 0 }, release_delay_seconds: 0 }));

  it('a success for another amount is recorded and not applied; the right amount then succeeds', async () => {
    const made = await h.unpaid();
    const short = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/succeed`, { amount: 1 });
    expect(short).toMatchObject({ status: 'awaiting_payment', paid_at: null, amount_mismatch: { amount: 1, currency: 'USD' } });
    expect(short.last_failure).toContain('1 USD');
    expect(short.last_failure).toContain('1000 USD');
    expect((await h.getOrder(made.order.id)).state).toBe('awaiting_payment');
    expect((await storedEvents(ctx, made.payment.id)).map((e) => e.type)).toEqual(['payment.created', 'payment.failed']);

    const euros = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/succeed`, { currency: 'eur' });
    expect(euros).toMatchObject({ status: 'awaiting_payment', amount_mismatch: { amount: 1000, currency: 'EUR' } });
    expect((await h.getOrder(made.order.id)).state).toBe('awaiting_payment');

    const paid = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/succeed`, { amount: 1000, currency: 'usd' });
    expect(paid).toMatchObject({ status: 'succeeded', last_failure: null, amount_mismatch: { amount: 1000, currency: 'EUR' } });
    expect((await h.getOrder(made.order.id)).state).toBe('committed');
  });

  it('a late success for another amount on a canceled payment is recorded, not refunded', async () => {
    const made = await h.unpaid();
    await h.ok(`/v1/orders/${made.order.id}/cancel`, {});
    const late = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/succeed`, { amount: 999 });
    expect(late).toMatchObject({ status: 'canceled', amount_refunded: 0, amount_mismatch: { amount: 999, currency: 'USD' } });
    expect((await ctx.request(`/v1/refunds?payment=${made.payment.id}`)).body.data).toEqual([]);
    expect((await storedEvents(ctx, made.payment.id)).map((e) => e.type)).toEqual(['payment.created', 'payment.canceled']);
  });

  it('the amount and currency the helper takes are validated', async () => {
    const made = await h.unpaid();
    const bad = await h.post(`/v1/test_helpers/payments/${made.payment.id}/succeed`, { currency: 'dollars' });
    expect({ status: bad.status, code: bad.body.error.code, param: bad.body.error.param }).toEqual({ status: 400, code: 'invalid_request', param: 'currency' });
  });
});

describe('Stripe', () => {
  it('checkout.session.completed and payment_intent.succeeded with another amount or currency are not applied', async () => {
    const parties = await s.parties();
    const order = await s.order(parties);
    const payment = await s.payment(order.payment);
    expect(payment).toMatchObject({ amount: 1100, currency: 'USD', amount_mismatch: null });
    const metadata = { payment: payment.id, order: order.id };
    const session = { id: payment.processor.checkout_session, object: 'checkout.session', payment_status: 'paid', payment_intent: 'pi_mismatch_1', metadata };

    await s.deliver('checkout.session.completed', { ...session, amount_total: 100, currency: 'usd' });
    expect(await s.payment(payment.id)).toMatchObject({ status: 'awaiting_payment', amount_mismatch: { amount: 100, currency: 'USD' } });
    await s.deliver('payment_intent.succeeded', { id: 'pi_mismatch_1', object: 'payment_intent', latest_charge: 'ch_mismatch_1', amount_received: 1100, currency: 'eur', metadata });
    const refused = await s.payment(payment.id);
    expect(refused).toMatchObject({ status: 'awaiting_payment', paid_at: null, amount_mismatch: { amount: 1100, currency: 'EUR' } });
    expect((await s.request(`/v1/orders/${order.id}`)).body.state).toBe('awaiting_payment');

    // A refund made in Stripe's dashboard names no payment amount: it does not overrule the mismatch.
    await s.deliver('refund.created', { id: 're_mismatch_1', object: 'refund', amount: 100, payment_intent: 'pi_mismatch_1', charge: 'ch_mismatch_1', status: 'succeeded', metadata: {} });
    expect(await s.payment(payment.id)).toMatchObject({ status: 'awaiting_payment', amount_refunded: 0 });
    expect((await s.request(`/v1/orders/${order.id}`)).body.state).toBe('awaiting_payment');

    // The report with our amount and currency (in Stripe's lower case) is applied.
    await s.deliver('checkout.session.completed', { ...session, amount_total: 1100, currency: 'usd' });
    expect(await s.payment(payment.id)).toMatchObject({ status: 'succeeded', amount_mismatch: { amount: 1100, currency: 'EUR' } });
    expect((await s.request(`/v1/orders/${order.id}`)).body.state).toBe('committed');
  });
});
