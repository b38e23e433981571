// Stripe's webhooks: the signature check (good, wrong secret, stale, tampered, missing), the
// processor reports each event type reads as, and the endpoint that receives them over HTTP.
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportsOfStripeEvent, StripeEventRejected, verifyStripeEvent } from '../../../src/adapters/processors/stripe-events.js';
import { FakeStripe } from '../../helpers/fake-stripe.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { ownerToken } from '../../modules/accounts/manage-helpers.js';

// The payments module's side is its own (and tested there): here, what the endpoint hands it.
const receive = vi.hoisted(() => vi.fn(async (): Promise<'handled' | 'duplicate'> => 'handled'));
vi.mock('../../../src/flows/receive-processor-reports.js', () => ({ receiveProcessorReports: receive }));

const SECRET = 'whsec_EventsTestSecret0123456789';
const signer = new FakeStripe(); // only its signedEvent: no server is started
const nowSeconds = () => Math.floor(Date.now() / 1000);

let sequence = 0;
function event(type: string, object: Record<string, unknown>, livemode = true): Stripe.Event {
  sequence += 1;
  return { id: `evt_test${sequence}`, object: 'event', api_version: '2026-10-28.endive', created: nowSeconds(), livemode, pending_webhooks: 1, request: null, type, data: { object } } as unknown as Stripe.Event;
}

describe('verifyStripeEvent', () => {
  const sample = event('payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent', metadata: {} });

  it('answers the event when the signature verifies, from text or bytes', () => {
    const { body, signature } = signer.signedEvent(SECRET, sample);
    expect(verifyStripeEvent(body, signature, SECRET).id).toBe(sample.id);
    expect(verifyStripeEvent(Buffer.from(body), signature, SECRET).type).toBe('payment_intent.succeeded');
  });

  it('refuses a wrong secret, a tampered body, a missing header and a stale signature', () => {
    const { body, signature } = signer.signedEvent(SECRET, sample);
    expect(() => verifyStripeEvent(body, signature, 'whsec_SomeOtherSecret000000000')).toThrow(StripeEventRejected);
    expect(() => verifyStripeEvent(body.replace('pi_1', 'pi_2'), signature, SECRET)).toThrow(/does not verify/);
    expect(() => verifyStripeEvent(body, undefined, SECRET)).toThrow(/missing/);
    expect(() => verifyStripeEvent(body, 't=1,v1=abc', SECRET)).toThrow(StripeEventRejected);
    const old = signer.signedEvent(SECRET, sample, nowSeconds() - 301);
    expect(() => verifyStripeEvent(old.body, old.signature, SECRET)).toThrow(/tolerance/);
  });

  it('measures age from the time given: five minutes of tolerance', () => {
    const signedAt = 1_800_000_000;
    const { body, signature } = signer.signedEvent(SECRET, sample, signedAt);
    expect(verifyStripeEvent(body, signature, SECRET, signedAt + 300).id).toBe(sample.id);
    expect(() => verifyStripeEvent(body, signature, SECRET, signedAt + 301)).toThrow(StripeEventRejected);
  });
});

describe('reportsOfStripeEvent', () => {
  const session = { id: 'cs_1', object: 'checkout.session', payment_intent: 'pi_1', payment_status: 'paid', amount_total: 1100, currency: 'usd', metadata: { payment: 'pay_1', order: 'ord_1' } };
  const refund = { id: 're_1', object: 'refund', amount: 500, payment_intent: 'pi_1', charge: 'ch_1', status: 'pending', failure_reason: null, metadata: { refund: 'ref_1', payment: 'pay_1' } };
  const dispute = { id: 'dp_1', object: 'dispute', amount: 2530, charge: 'ch_1', payment_intent: 'pi_1', reason: 'fraudulent', status: 'needs_response', evidence_details: { due_by: 1_800_000_000 } };

  it('a paid Checkout Session, an async success and a PaymentIntent success are payment_succeeded', () => {
    // The amount and currency Stripe took go with the report, to be checked against the payment's.
    const succeeded = { type: 'payment_succeeded', paymentId: 'pay_1', paymentIntent: 'pi_1', checkoutSession: 'cs_1', charge: null, amount: 1100, currency: 'usd' };
    expect(reportsOfStripeEvent(event('checkout.session.completed', session))).toEqual([succeeded]);
    expect(reportsOfStripeEvent(event('checkout.session.completed', { ...session, payment_status: 'unpaid' }))).toEqual([]);
    expect(reportsOfStripeEvent(event('checkout.session.async_payment_succeeded', { ...session, payment_intent: { id: 'pi_1', object: 'payment_intent' } }))).toEqual([succeeded]);
    expect(reportsOfStripeEvent(event('payment_intent.succeeded', { id: 'pi_2', object: 'payment_intent', latest_charge: 'ch_2', amount_received: 2530, currency: 'eur', metadata: { payment: 'pay_2' } }))).toEqual([
      { type: 'payment_succeeded', paymentId: 'pay_2', paymentIntent: 'pi_2', checkoutSession: null, charge: 'ch_2', amount: 2530, currency: 'eur' },
    ]);
  });

  it('failures are payment_failed with the message Stripe gives', () => {
    expect(reportsOfStripeEvent(event('payment_intent.payment_failed', { id: 'pi_3', object: 'payment_intent', metadata: {}, last_payment_error: { message: 'Your card has insufficient funds.' } }))).toEqual([
      { type: 'payment_failed', paymentId: null, paymentIntent: 'pi_3', checkoutSession: null, message: 'Your card has insufficient funds.' },
    ]);
    expect(reportsOfStripeEvent(event('checkout.session.async_payment_failed', session))).toEqual([
      { type: 'payment_failed', paymentId: 'pay_1', paymentIntent: 'pi_1', checkoutSession: 'cs_1', message: 'The payment failed.' },
    ]);
  });

  it('refund events are refund_updated; a refund made in the dashboard has no refund id of ours', () => {
    const updated = { type: 'refund_updated', paymentIntent: 'pi_1', charge: 'ch_1', refund: 're_1', amount: 500, status: 'pending', failureReason: null, refundId: 'ref_1' };
    for (const type of ['refund.created', 'refund.updated', 'charge.refund.updated']) {
      expect(reportsOfStripeEvent(event(type, refund))).toEqual([updated]);
    }
    expect(reportsOfStripeEvent(event('refund.failed', { ...refund, status: 'failed', failure_reason: 'expired_or_canceled_card' }))).toEqual([
      { ...updated, status: 'failed', failureReason: 'expired_or_canceled_card' },
    ]);
    const dashboard = { ...refund, id: 're_2', status: 'requires_action', metadata: {} };
    expect(reportsOfStripeEvent(event('charge.refunded', { id: 'ch_1', object: 'charge', refunds: { object: 'list', data: [refund, dashboard] } }))).toEqual([
      updated,
      { ...updated, refund: 're_2', refundId: null },
    ]);
    expect(reportsOfStripeEvent(event('charge.refunded', { id: 'ch_1', object: 'charge' }))).toEqual([]);
  });

  it('account.updated reads whether transfers can be received and whether Stripe restricted the account', () => {
    expect(reportsOfStripeEvent(event('account.updated', { id: 'acct_1', object: 'account', capabilities: { transfers: 'active' }, requirements: { disabled_reason: null } }))).toEqual([
      { type: 'account_updated', account: 'acct_1', payoutsEnabled: true, restricted: false },
    ]);
    expect(reportsOfStripeEvent(event('account.updated', { id: 'acct_1', object: 'account', capabilities: { transfers: 'inactive' }, requirements: { disabled_reason: 'requirements.past_due' } }))).toEqual([
      { type: 'account_updated', account: 'acct_1', payoutsEnabled: false, restricted: true },
    ]);
  });

  it('every charge.dispute event is card_dispute', () => {
    for (const type of ['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed', 'charge.dispute.funds_withdrawn', 'charge.dispute.funds_reinstated']) {
      expect(reportsOfStripeEvent(event(type, dispute))).toEqual([
        { type: 'card_dispute', dispute: 'dp_1', charge: 'ch_1', paymentIntent: 'pi_1', amount: 2530, reason: 'fraudulent', status: 'needs_response', evidenceDueBy: new Date(1_800_000_000_000) },
      ]);
    }
  });

  it('events the service does not act on answer no report', () => {
    for (const type of ['transfer.created', 'transfer.reversed', 'customer.created', 'checkout.session.expired']) {
      expect(reportsOfStripeEvent(event(type, { id: 'x_1', object: 'thing' }))).toEqual([]);
    }
  });
});

describe('POST /processor/stripe/{marketplace}/{mode}', () => {
  let ctx: TestContext;
  const LIVE_KEY = 'sk_live_51EventsTestKey0000000000000';
  beforeAll(async () => {
    ctx = await startTestApp();
    const owner = await ownerToken(ctx);
    const put = await ctx.request(`/manage/v1/marketplaces/${ctx.marketplaceId}/modes/live/processor`, {
      method: 'PUT',
      key: owner,
      body: { provider: 'stripe', secret_key: LIVE_KEY, webhook_secret: SECRET },
    });
    expect(put.status).toBe(200);
  });
  afterAll(() => ctx.close());
  beforeEach(() => receive.mockClear());

  const deliver = (path: string, body: string, signature?: string, contentType = 'application/json; charset=utf-8') =>
    ctx.app.inject({ method: 'POST', url: path, payload: body, headers: { 'content-type': contentType, ...(signature === undefined ? {} : { 'stripe-signature': signature }) } });
  const livePath = () => `/processor/stripe/${ctx.marketplaceId}/live`;
  const paid = () => event('payment_intent.succeeded', { id: 'pi_9', object: 'payment_intent', latest_charge: 'ch_9', metadata: { payment: 'pay_9' } });

  it('verifies the event with the mode\'s secret and hands its reports to the payments module', async () => {
    const sent = paid();
    const { body, signature } = signer.signedEvent(SECRET, sent);
    const res = await deliver(livePath(), body, signature);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(receive).toHaveBeenCalledTimes(1);
    expect(receive.mock.calls[0]).toEqual([
      expect.objectContaining({ db: ctx.db }),
      { marketplaceId: ctx.marketplaceId, mode: 'live' },
      { provider: 'stripe', eventId: sent.id },
      [{ type: 'payment_succeeded', paymentId: 'pay_9', paymentIntent: 'pi_9', checkoutSession: null, charge: 'ch_9', amount: null, currency: null }],
    ]);
  });

  it("refuses an event of Stripe's other mode with 400", async () => {
    const { body, signature } = signer.signedEvent(SECRET, event('payment_intent.succeeded', { id: 'pi_8', object: 'payment_intent', metadata: {} }, false));
    const res = await deliver(livePath(), body, signature);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("Stripe's test mode");
    expect(receive).not.toHaveBeenCalled();
  });

  it('answers duplicate: true for an event handled before', async () => {
    receive.mockResolvedValueOnce('duplicate');
    const { body, signature } = signer.signedEvent(SECRET, paid());
    const res = await deliver(livePath(), body, signature);
    expect(res.json()).toEqual({ received: true, duplicate: true });
  });

  it('refuses a missing, wrong, stale or tampered signature with 400 invalid_request, handing nothing on', async () => {
    const { body, signature } = signer.signedEvent(SECRET, paid());
    const stale = signer.signedEvent(SECRET, paid(), nowSeconds() - 600);
    const cases: Array<[string, string | undefined, RegExp]> = [
      [body, undefined, /missing/],
      [body, signer.signedEvent('whsec_NotTheConnectionsSecret00', paid()).signature, /does not verify/],
      [stale.body, stale.signature, /tolerance/],
      [body.replace('pay_9', 'pay_8'), signature, /does not verify/],
    ];
    for (const [payload, header, message] of cases) {
      const res = await deliver(livePath(), payload, header);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(message) });
    }
    expect(receive).not.toHaveBeenCalled();
  });

  it('answers 404 for an unknown marketplace or mode, and 400 for a mode not connected to Stripe', async () => {
    const { body, signature } = signer.signedEvent(SECRET, paid());
    expect((await deliver('/processor/stripe/mkt_01jd00000000000000000000zz/live', body, signature)).json().error.code).toBe('resource_missing');
    const staging = await deliver(`/processor/stripe/${ctx.marketplaceId}/staging`, body, signature);
    expect(staging.statusCode).toBe(404);
    const simulated = await deliver(`/processor/stripe/${ctx.marketplaceId}/test`, body, signature);
    expect(simulated.statusCode).toBe(400);
    expect(simulated.json().error.message).toContain('simulated');
    expect(receive).not.toHaveBeenCalled();
  });

  it('takes JSON only, and stays out of the API document', async () => {
    const { body, signature } = signer.signedEvent(SECRET, paid());
    expect((await deliver(livePath(), body, signature, 'text/plain')).statusCode).toBe(415);
    const doc = await ctx.request('/v1/openapi.json');
    expect(Object.keys(doc.body.paths).filter((path) => path.includes('processor/stripe'))).toEqual([]);
  });
});
