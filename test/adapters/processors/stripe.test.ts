// The Stripe driver through the real SDK against the fake Stripe server: what each call sends,
// that every call carries our idempotency key (and a retry the same one, creating nothing new),
// and how Stripe's answers read (refusals ProcessorDeclined, everything else a plain error).
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProcessorDeclined, type CallContext, type StartPaymentInput } from '../../../src/contracts/processor.js';
import { stripeProcessor as driver } from '../../../src/adapters/processors/stripe.js';
import { STRIPE_API_VERSION } from '../../../src/adapters/processors/stripe-client.js';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe.js';

let fake: FakeStripe;
let ctx: CallContext;
beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = {
    credentials: { provider: 'stripe', secretKey: 'sk_test_51DriverTestKey000000000000', webhookSecret: 'whsec_driverTestSecret0000000', connectWebhookSecret: null },
    publicUrl: 'http://127.0.0.1:8080',
    stripeApiUrl: fake.url,
  };
});
afterAll(() => fake.close());
afterEach(() => {
  expect(fake.violations).toEqual([]);
});

const unique = () => Math.random().toString(36).slice(2, 10);
const urls = { returnUrl: 'https://platform.example/done', refreshUrl: 'https://platform.example/retry' };

async function newAccount(): Promise<string> {
  const start = await driver.startOnboarding(ctx, { linkId: `obl_${unique()}`, sellerId: `sel_${unique()}`, account: null, ...urls });
  return start.account;
}

function paymentInput(overrides: Partial<StartPaymentInput> = {}): StartPaymentInput {
  const id = unique();
  return {
    paymentId: `pay_${id}`,
    orderId: `ord_${id}`,
    checkoutId: null,
    lineItems: null,
    method: 'checkout_session',
    amount: 2530,
    currency: 'USD',
    description: 'Order ord_1: Vintage lamp',
    successUrl: 'https://shop.example/thanks',
    cancelUrl: 'https://shop.example/cart',
    idempotencyKey: `payment-start-${id}`,
    ...overrides,
  };
}

describe('startOnboarding', () => {
  it('opens an Express-equivalent recipient account keyed by the seller, then an account link keyed by the link', async () => {
    const before = fake.count('accounts');
    const start = await driver.startOnboarding(ctx, { linkId: 'obl_first', sellerId: 'sel_first', account: null, ...urls });
    expect(start.account).toMatch(/^acct_fake/);
    expect(start.url).toBe(`${fake.url}/setup/e/${start.account}/${start.url.split('/').pop()}`);
    const [account] = fake.requestsOf('accounts').slice(-1);
    expect(account!.params).toEqual({
      controller: { stripe_dashboard: { type: 'express' }, fees: { payer: 'application' }, losses: { payments: 'application' }, requirement_collection: 'stripe' },
      capabilities: { transfers: { requested: 'true' } },
      tos_acceptance: { service_agreement: 'recipient' },
      metadata: { seller: 'sel_first' },
    });
    expect(account!.idempotencyKey).toBe('seller-account-sel_first');
    expect(account!.stripeVersion).toBe(STRIPE_API_VERSION);
    const [link] = fake.requestsOf('account_links').slice(-1);
    expect(link!.params).toEqual({ account: start.account, type: 'account_onboarding', return_url: urls.returnUrl, refresh_url: urls.refreshUrl });
    expect(link!.idempotencyKey).toBe('onboarding-link-obl_first');
    expect(fake.count('accounts')).toBe(before + 1);
  });

  it('reuses the account the seller has, and a retry for a seller without one gets the same account', async () => {
    const first = await driver.startOnboarding(ctx, { linkId: 'obl_a', sellerId: 'sel_retry', account: null, ...urls });
    const accounts = fake.count('accounts');
    const retried = await driver.startOnboarding(ctx, { linkId: 'obl_b', sellerId: 'sel_retry', account: null, ...urls });
    expect(retried.account).toBe(first.account);
    expect(fake.requestsOf('accounts').at(-1)!.replayed).toBe(true);
    const again = await driver.startOnboarding(ctx, { linkId: 'obl_c', sellerId: 'sel_retry', account: first.account, ...urls });
    expect(again.account).toBe(first.account);
    expect(fake.count('accounts')).toBe(accounts);
    expect(fake.requestsOf('account_links').at(-1)!.params.account).toBe(first.account);
  });
});

describe('startPayment', () => {
  it('creates a Checkout Session charged on the platform, grouped by the order', async () => {
    const input = paymentInput();
    const started = await driver.startPayment(ctx, input);
    expect(started).toEqual({ paymentIntent: null, checkoutSession: expect.stringMatching(/^cs_test_fake/), checkoutUrl: `${fake.url}/c/pay/${started.checkoutSession}`, clientSecret: null });
    const [request] = fake.requestsOf('checkout_sessions').slice(-1);
    const metadata = { payment: input.paymentId, order: input.orderId };
    expect(request!.params).toEqual({
      mode: 'payment',
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '2530', product_data: { name: input.description } } }],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      client_reference_id: input.orderId,
      metadata,
      payment_intent_data: { transfer_group: input.orderId, metadata },
    });
    expect(request!.idempotencyKey).toBe(input.idempotencyKey);
  });

  it('creates a PaymentIntent for the payment_intent method and answers its client secret', async () => {
    const input = paymentInput({ method: 'payment_intent' });
    const started = await driver.startPayment(ctx, input);
    expect(started).toEqual({ paymentIntent: expect.stringMatching(/^pi_fake/), checkoutSession: null, checkoutUrl: null, clientSecret: expect.stringMatching(/^pi_fake\w+_secret_/) });
    expect(fake.requestsOf('payment_intents').at(-1)!.params).toEqual({
      amount: '2530',
      currency: 'usd',
      transfer_group: input.orderId,
      metadata: { payment: input.paymentId, order: input.orderId },
      automatic_payment_methods: { enabled: 'true' },
    });
  });

  it('a retry with the same key answers the same session and creates nothing', async () => {
    const input = paymentInput();
    const first = await driver.startPayment(ctx, input);
    const count = fake.count('checkout_sessions');
    expect(await driver.startPayment(ctx, input)).toEqual(first);
    expect(fake.count('checkout_sessions')).toBe(count);
    const [a, b] = fake.requestsOf('checkout_sessions').slice(-2);
    expect(b!.idempotencyKey).toBe(a!.idempotencyKey);
    expect(b!.replayed).toBe(true);
  });

  it('declines a Checkout Session without return pages, asking nothing of Stripe', async () => {
    const requests = fake.requests.length;
    const error = await driver.startPayment(ctx, paymentInput({ successUrl: null })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessorDeclined);
    expect((error as Error).message).toContain('checkout_success_url must be set');
    expect(fake.requests.length).toBe(requests);
  });

  it('the same key with other parameters is an idempotency error: a plain error, not a decline', async () => {
    const input = paymentInput();
    await driver.startPayment(ctx, input);
    const error = await driver.startPayment(ctx, { ...input, amount: 999 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error).not.toBeInstanceOf(ProcessorDeclined);
  });

  it('a card refusal (402) is a decline with the decline code', async () => {
    fake.failNext('payment_intents', { status: 402, code: 'card_declined', message: 'Your card was declined.' });
    const error = await driver.startPayment(ctx, paymentInput({ method: 'payment_intent' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessorDeclined);
    expect(error).toMatchObject({ message: 'Your card was declined.', code: 'card_declined' });
  });
});

describe('cancelPayment', () => {
  it('expires the Checkout Session; expiring it again (already expired) is not a failure', async () => {
    const started = await driver.startPayment(ctx, paymentInput());
    await driver.cancelPayment(ctx, { paymentIntent: null, checkoutSession: started.checkoutSession, idempotencyKey: `cancel-${unique()}` });
    expect(fake.objects.get(started.checkoutSession!)!.status).toBe('expired');
    await driver.cancelPayment(ctx, { paymentIntent: null, checkoutSession: started.checkoutSession, idempotencyKey: `cancel-${unique()}` });
    expect(fake.requestsOf('checkout_session_expire').at(-1)!.params).toEqual({});
  });

  it('cancels the PaymentIntent; one that already succeeded is left to the refund', async () => {
    const open = await driver.startPayment(ctx, paymentInput({ method: 'payment_intent' }));
    await driver.cancelPayment(ctx, { paymentIntent: open.paymentIntent, checkoutSession: null, idempotencyKey: `cancel-${unique()}` });
    expect(fake.objects.get(open.paymentIntent!)!.status).toBe('canceled');
    const paid = await driver.startPayment(ctx, paymentInput({ method: 'payment_intent' }));
    fake.update(paid.paymentIntent!, { status: 'succeeded' });
    await driver.cancelPayment(ctx, { paymentIntent: paid.paymentIntent, checkoutSession: null, idempotencyKey: `cancel-${unique()}` });
    expect(fake.objects.get(paid.paymentIntent!)!.status).toBe('succeeded');
  });

  it('an unknown session is still a failure', async () => {
    const error = await driver.cancelPayment(ctx, { paymentIntent: null, checkoutSession: 'cs_test_missing', idempotencyKey: `cancel-${unique()}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessorDeclined);
    expect(error).toMatchObject({ code: 'resource_missing' });
  });
});

describe('refund', () => {
  it('refunds by payment intent with our ids in metadata, and reads the status', async () => {
    const result = await driver.refund(ctx, { paymentId: 'pay_r', refundId: 'ref_r', paymentIntent: 'pi_paid', charge: 'ch_paid', amount: 500, currency: 'usd', reason: 'requested_by_customer', idempotencyKey: 'refund-ref_r' });
    expect(result).toEqual({ refund: expect.stringMatching(/^re_fake/), status: 'succeeded', failureReason: null });
    const request = fake.requestsOf('refunds').at(-1)!;
    expect(request.params).toEqual({ payment_intent: 'pi_paid', amount: '500', reason: 'requested_by_customer', metadata: { refund: 'ref_r', payment: 'pay_r' } });
    expect(request.idempotencyKey).toBe('refund-ref_r');
  });

  it('refunds by charge without a payment intent; a pending refund answers pending', async () => {
    fake.refundStatus = 'pending';
    try {
      const result = await driver.refund(ctx, { paymentId: 'pay_c', refundId: 'ref_c', paymentIntent: null, charge: 'ch_only', amount: 100, currency: 'usd', reason: null, idempotencyKey: 'refund-ref_c' });
      expect(result.status).toBe('pending');
      expect(fake.requestsOf('refunds').at(-1)!.params).toEqual({ charge: 'ch_only', amount: '100', metadata: { refund: 'ref_c', payment: 'pay_c' } });
    } finally {
      fake.refundStatus = 'succeeded';
    }
  });
});

describe('transfer and reverseTransfer', () => {
  const transferInput = (destination: string, id = unique()) => ({
    paymentId: `pay_${id}`,
    orderId: `ord_${id}`,
    transferGroup: `ord_${id}`,
    amount: 2000,
    currency: 'USD',
    destination,
    sourceTransaction: `ch_${id}`,
    destinationPayouts: 'enabled',
    idempotencyKey: `transfer-${id}`,
  });

  it('sends the seller share from the charge, grouped by the order; a reversal takes part back', async () => {
    const input = transferInput(await newAccount());
    const { transfer } = await driver.transfer(ctx, input);
    expect(transfer).toMatch(/^tr_fake/);
    const request = fake.requestsOf('transfers').at(-1)!;
    expect(request.params).toEqual({ amount: '2000', currency: 'usd', destination: input.destination, source_transaction: input.sourceTransaction, transfer_group: input.orderId, metadata: { payment: input.paymentId } });
    expect(request.idempotencyKey).toBe(input.idempotencyKey);
    const { reversal } = await driver.reverseTransfer(ctx, { transfer, refundId: 'ref_x', amount: 700, currency: 'usd', destinationPayouts: 'enabled', idempotencyKey: 'reversal-ref_x' });
    expect(reversal).toMatch(/^trr_fake/);
    expect(fake.requestsOf('transfer_reversals').at(-1)).toMatchObject({ path: `/v1/transfers/${transfer}/reversals`, params: { amount: '700', metadata: { refund: 'ref_x' } }, idempotencyKey: 'reversal-ref_x' });
    const tooMuch = await driver.reverseTransfer(ctx, { transfer, refundId: 'ref_y', amount: 1400, currency: 'usd', destinationPayouts: 'enabled', idempotencyKey: 'reversal-ref_y' }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(ProcessorDeclined);
  });

  it('omits source_transaction when there is no charge', async () => {
    const input = { ...transferInput(await newAccount()), sourceTransaction: null };
    await driver.transfer(ctx, input);
    expect(fake.requestsOf('transfers').at(-1)!.params).not.toHaveProperty('source_transaction');
  });

  it('Stripe refusals (insufficient funds, an account that cannot receive transfers) are declines', async () => {
    const input = transferInput(await newAccount());
    fake.failNext('transfers', { status: 400, code: 'insufficient_funds', message: 'Insufficient funds in Stripe account.' });
    const error = await driver.transfer(ctx, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessorDeclined);
    expect(error).toMatchObject({ code: 'insufficient_funds', message: 'Insufficient funds in Stripe account.' });
    const unknown = await driver.transfer(ctx, transferInput('acct_unknown')).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ name: 'ProcessorDeclined', code: 'resource_missing' });
  });

  it('a 500 is a plain error; the retry with the same key makes one transfer', async () => {
    const input = transferInput(await newAccount());
    const before = fake.count('transfers');
    fake.failNext('transfers', { status: 500, message: 'An unknown error occurred' });
    const error = await driver.transfer(ctx, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error).not.toBeInstanceOf(ProcessorDeclined);
    const first = await driver.transfer(ctx, input);
    const second = await driver.transfer(ctx, input);
    expect(second).toEqual(first);
    expect(fake.count('transfers')).toBe(before + 1);
    expect(new Set(fake.requestsOf('transfers').slice(-3).map((r) => r.idempotencyKey))).toEqual(new Set([input.idempotencyKey]));
  });

  it('a dropped connection (the SDK tries a closed connection once more) is a plain error; the retry succeeds once', async () => {
    const input = transferInput(await newAccount());
    const before = fake.count('transfers');
    fake.failNext('transfers', { drop: true, times: 2 });
    const error = await driver.transfer(ctx, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    await driver.transfer(ctx, input);
    expect(fake.count('transfers')).toBe(before + 1);
  });

  it('a rate limit (429) is a plain error', async () => {
    fake.failNext('transfers', { status: 429, code: 'rate_limit', message: 'Too many requests.' });
    const error = await driver.transfer(ctx, transferInput(await newAccount())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
  });

  it('stops waiting when the job aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('lease ending'));
    const error = await driver.transfer({ ...ctx, signal: controller.signal }, transferInput('acct_any')).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'lease ending' });
  });
});
