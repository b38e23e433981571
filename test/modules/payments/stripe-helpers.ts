// A live mode connected to Stripe (the real SDK pointed at the fake Stripe server through
// STRIPE_API_URL), an onboarded seller, and Stripe's webhooks signed as Stripe signs them.
import { expect } from 'vitest';
import { createBuyer, createPublishedListing, createSeller, type Json } from '../../helpers/factories.js';
import type { FakeStripe } from '../../helpers/fake-stripe.js';
import type { TestContext } from '../../helpers/harness.js';
import { ownerToken } from '../accounts/manage-helpers.js';

export const WEBHOOK_SECRET = 'whsec_PaymentsFlowSecret0000000000';
/** The Connect endpoint's: Stripe signs connected accounts' events (account.updated) with it. */
export const CONNECT_WEBHOOK_SECRET = 'whsec_PaymentsFlowConnect000000000';

export function stripeMode(ctx: () => TestContext, fake: () => FakeStripe) {
  const live = () => ctx().keys.live.secret_key;
  const request = (url: string, body?: unknown, method?: 'GET' | 'POST' | 'PATCH' | 'DELETE') => ctx().request(url, { key: live(), ...(body === undefined ? {} : { body }), ...(method ? { method } : {}) });
  let sequence = 0;

  async function connect() {
    const put = await ctx().request(`/manage/v1/marketplaces/${ctx().marketplaceId}/modes/live/processor`, {
      method: 'PUT',
      key: await ownerToken(ctx()),
      body: { provider: 'stripe', secret_key: 'sk_live_51PaymentsFlowKey00000000000', webhook_secret: WEBHOOK_SECRET, connect_webhook_secret: CONNECT_WEBHOOK_SECRET },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.connect_webhook_secret).toMatch(/^whsec_…/);
    await ctx().db.query('UPDATE marketplace_modes SET settings = settings || $2::jsonb WHERE marketplace_id = $1 AND mode = $3', [
      ctx().marketplaceId,
      JSON.stringify({ payments_enabled: true, checkout_success_url: 'https://shop.example/thanks', checkout_cancel_url: 'https://shop.example/cart', release_delay_seconds: 0, platform_fee: { percent_bps: 1000, fixed_amount: 0 } }),
      'live',
    ]);
  }

  /** Delivers a Stripe event to the service's webhook endpoint, signed with the connection's secret. */
  async function deliver(type: string, object: Record<string, unknown>, id = `evt_flow_${++sequence}`, secret = WEBHOOK_SECRET) {
    const event = { id, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), livemode: true, pending_webhooks: 1, request: null, type, data: { object } };
    const { body, signature } = fake().signedEvent(secret, event);
    const res = await ctx().app.inject({
      method: 'POST',
      url: `/processor/stripe/${ctx().marketplaceId}/live`,
      payload: body,
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { received: boolean; duplicate: boolean };
  }

  /** A seller onboarded at Stripe (account.updated: transfers active), a buyer and a listing at 1000. */
  async function parties() {
    const seller = await createSeller(ctx(), {}, live());
    const link = await request(`/v1/sellers/${seller.id}/onboarding_links`, { return_url: 'https://shop.example/done', refresh_url: 'https://shop.example/again' });
    expect(link.status, link.text).toBe(201);
    const account = (await request(`/v1/sellers/${seller.id}`)).body.payouts.processor_account as string;
    // From the Connect endpoint, signed with its own secret.
    await deliver('account.updated', { id: account, object: 'account', capabilities: { transfers: 'active' }, requirements: { disabled_reason: null } }, undefined, CONNECT_WEBHOOK_SECRET);
    expect((await request(`/v1/sellers/${seller.id}`)).body.payouts.status).toBe('enabled');
    const buyer = await createBuyer(ctx(), {}, live());
    const listing = await createPublishedListing(ctx(), { seller: seller.id, quantity: 5, price: { amount: 1000, currency: 'USD' } }, live());
    return { seller, buyer, listing, account };
  }

  async function order(p: { buyer: { id: string }; listing: { id: string } }, body: Record<string, unknown> = {}) {
    const res = await request('/v1/orders', { buyer: p.buyer.id, listing: p.listing.id, ...body });
    expect(res.status, res.text).toBe(201);
    return res.body as Json;
  }

  const payment = async (id: string) => (await request(`/v1/payments/${id}`)).body as Json;

  /** What Stripe sends when the buyer pays a checkout session: the session completed, the intent succeeded. */
  async function pay(paymentRow: Json) {
    const pi = `pi_flow_${++sequence}`;
    const charge = `ch_flow_${sequence}`;
    const metadata = { payment: paymentRow.id, order: paymentRow.order };
    const currency = String(paymentRow.currency).toLowerCase(); // Stripe writes currencies in lower case
    await deliver('checkout.session.completed', { id: paymentRow.processor.checkout_session, object: 'checkout.session', payment_status: 'paid', payment_intent: pi, amount_total: paymentRow.amount, currency, metadata });
    await deliver('payment_intent.succeeded', { id: pi, object: 'payment_intent', latest_charge: charge, amount_received: paymentRow.amount, currency, metadata });
    return { pi, charge };
  }

  return { live, request, connect, deliver, parties, order, payment, pay };
}
