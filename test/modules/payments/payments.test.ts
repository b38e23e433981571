// Payments on the simulated processor through the HTTP API (docs/payments.md): collect, hold,
// release, refund before and after release, late payment, failed release and its retry.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { paymentHelpers } from './helpers.js';
import { payoutsNotEnabledMessage } from '../../../src/modules/payments/order-payments.js';

let ctx: TestContext;
const h = paymentHelpers(() => ctx);

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 1000, fixed_amount: 30 }, release_delay_seconds: 0, checkout_success_url: null, checkout_cancel_url: null });
});

describe('collecting', () => {
  // Issue 33, item 5, as a neighbour would try it: payment ids minted together differ by little, so
  // the id alone must not open the hosted page nor pay or decline a stranger's payment.
  it('the checkout page needs its token: the bare id or another token answers 404 and moves nothing; the right URL pays', async () => {
    const { order, payment } = await h.unpaid({}, { title: 'Walnut <desk>' });
    const other = await h.unpaid();
    const path = new URL(payment.checkout_url).pathname;
    const otherToken = new URL(other.payment.checkout_url).pathname.split('/').at(-1)!;
    const form = { key: null, body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } } as const;
    const bare = `/simulated/checkout/${payment.id}`;
    expect((await ctx.request(bare, { key: null })).status).toBe(404);
    for (const action of ['pay', 'decline']) {
      expect((await ctx.request(`${bare}/${action}`, { ...form, method: 'POST' })).status).toBe(404);
      expect((await ctx.request(`${bare}/${otherToken}/${action}`, { ...form, method: 'POST' })).status).toBe(404);
      expect((await ctx.request(`${bare}/${payment.id}/${action}`, { ...form, method: 'POST' })).status).toBe(404);
    }
    const wrong = await ctx.request(`${bare}/${otherToken}`, { key: null });
    expect(wrong.status).toBe(404);
    expect(wrong.text).toContain('does not exist');
    expect(await h.payment(payment.id)).toMatchObject({ status: 'awaiting_payment', last_failure: null });

    // The right URL shows what is bought by name (issue 34, item 9), then pays.
    const page = await ctx.request(path, { key: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Walnut &lt;desk&gt;');
    expect(page.text).toContain(order.listing);
    expect(page.text).toContain((await ctx.request(`/v1/sellers/${order.seller}`)).body.name);
    expect(page.text).toContain(`action="${path}/pay"`);
    const paid = await ctx.request(`${path}/pay`, { ...form, method: 'POST' });
    expect([200, 303]).toContain(paid.status);
    expect((await h.payment(payment.id)).status).toBe('succeeded');
    expect((await h.payment(other.payment.id)).status).toBe('awaiting_payment');
  });

  it('creates the payment with the order: amounts, a checkout URL while due, payment.created', async () => {
    const { order, payment } = await h.unpaid({ quantity: 2 });
    expect(order.total).toBe(2000 + 230);
    expect(payment).toMatchObject({
      object: 'payment', order: order.id, method: 'checkout_session', status: 'awaiting_payment', amount: 2230, fee_amount: 230, currency: 'USD',
      client_secret: null, last_failure: null, amount_refunded: 0, release: { status: null, amount: 0, amount_reversed: 0, recovered: 0, failure: null, released_at: null },
    });
    expect(payment.checkout_url).toMatch(new RegExp(`/simulated/checkout/${payment.id}/[0-9A-Za-z]{32}$`));
    expect(payment.processor.checkout_session).toMatch(/^cs_sim_/);
    expect((await storedEvents(ctx, payment.id)).map((e) => e.type)).toEqual(['payment.created']);
  });

  it('gives a client_secret for payment_intent', async () => {
    const { payment } = await h.unpaid({ payment_method: 'payment_intent' });
    expect(payment).toMatchObject({ method: 'payment_intent', checkout_url: null });
    expect(payment.client_secret).toMatch(/^pi_sim_\w+_secret_\w+$/);
  });

  it('commits the order when the payment succeeds; hides the checkout; holds the seller share', async () => {
    const { order, payment } = await h.paid();
    expect(order.state).toBe('committed');
    expect(payment).toMatchObject({ status: 'succeeded', checkout_url: null, release: { status: 'held', amount: 1000 } });
    expect(payment.paid_at).not.toBeNull();
    expect((await storedEvents(ctx, payment.id)).map((e) => e.type)).toEqual(['payment.created', 'payment.succeeded']);
    expect((await storedEvents(ctx, order.id)).map((e) => e.type)).toEqual(['order.created', 'order.committed']);
  });

  it('records a failed attempt and keeps the payment due', async () => {
    const { payment } = await h.unpaid();
    const failed = await h.ok(`/v1/test_helpers/payments/${payment.id}/fail`, { message: 'Insufficient funds.' });
    expect(failed).toMatchObject({ status: 'awaiting_payment', last_failure: 'Insufficient funds.' });
    expect(failed.checkout_url).not.toBeNull();
    expect((await storedEvents(ctx, payment.id)).map((e) => e.type)).toContain('payment.failed');
    const again = await h.post(`/v1/test_helpers/payments/${payment.id}/succeed`);
    expect(again.body.last_failure).toBeNull();
  });

  it('cancels the payment when an unpaid order is cancelled or expires', async () => {
    const cancelled = await h.unpaid();
    await h.ok(`/v1/orders/${cancelled.order.id}/cancel`, {});
    expect(await h.payment(cancelled.payment.id)).toMatchObject({ status: 'canceled', checkout_url: null, release: { status: null } });
    const expired = await h.unpaid();
    await h.advance(1801);
    const payment = await h.payment(expired.payment.id);
    expect(payment.status).toBe('canceled');
    expect(payment.canceled_at).not.toBeNull();
    expect((await storedEvents(ctx, payment.id)).map((e) => e.type)).toEqual(['payment.created', 'payment.canceled']);
  });

  it('refunds a late payment in full at once (late_payment), with nothing to release', async () => {
    const { order, payment } = await h.unpaid();
    await h.advance(1801);
    expect((await h.getOrder(order.id)).state).toBe('expired');
    const late = await h.ok(`/v1/test_helpers/payments/${payment.id}/succeed`);
    expect(late).toMatchObject({ status: 'succeeded', amount_refunded: late.amount, release: { status: 'nothing_to_release', amount: 0 } });
    const refunds = await h.get(`/v1/refunds?payment=${payment.id}`);
    expect(refunds.data).toHaveLength(1);
    expect(refunds.data[0]).toMatchObject({ amount: late.amount, initiated_by: 'late_payment', status: 'succeeded', transfer_reversal: null });
    expect((await h.getOrder(order.id)).state).toBe('expired');
  });
});

describe('releasing', () => {
  it('releases the share when the order completes: held → released, payment.released', async () => {
    const made = await h.paid();
    await h.complete(made);
    const payment = await h.payment(made.payment.id);
    expect(payment.release).toMatchObject({ status: 'released', amount: 1000, amount_reversed: 0, failure: null });
    expect(payment.processor.transfer).toMatch(/^tr_sim_/);
    expect((await storedEvents(ctx, payment.id)).map((e) => e.type)).toContain('payment.released');
  });

  it('waits release_delay_seconds on the test clock', async () => {
    await h.setSettings({ release_delay_seconds: 3600 });
    const made = await h.paid();
    await h.complete(made);
    expect((await h.payment(made.payment.id)).release.status).toBe('held');
    await h.advance(3601);
    expect((await h.payment(made.payment.id)).release.status).toBe('released');
  });

  it('fails a release to a seller without payouts, then retries it when payouts are enabled', async () => {
    const made = await h.paid();
    await h.payouts(made.seller.id, 'restricted');
    await h.complete(made);
    const failed = await h.payment(made.payment.id);
    expect(failed.release.status).toBe('failed');
    expect(failed.release.failure).toContain('payouts restricted');
    expect((await storedEvents(ctx, failed.id)).map((e) => e.type)).toContain('payment.release_failed');
    const retry = await h.post(`/v1/payments/${failed.id}/retry_release`);
    expect(retry.body.release.status, retry.text).toBe('failed');
    await h.payouts(made.seller.id, 'enabled');
    expect((await h.payment(made.payment.id)).release).toMatchObject({ status: 'released', amount: 1000, failure: null });
    const again = await h.post(`/v1/payments/${failed.id}/retry_release`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
  });

  it("retries a failed release when the seller completes the simulated onboarding page (src/flows/enable-seller-payouts.ts)", async () => {
    const made = await h.paid();
    await h.payouts(made.seller.id, 'restricted');
    await h.complete(made);
    expect((await h.payment(made.payment.id)).release.status).toBe('failed');
    const created = await ctx.request(`/v1/sellers/${made.seller.id}/onboarding_links`, { body: { return_url: 'https://platform.example/done', refresh_url: 'https://platform.example/retry' } });
    expect(created.status, created.text).toBe(201);
    const link = created.body;
    const form = { key: null, method: 'POST', body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } } as const;
    const done = await ctx.request(new URL(link.url).pathname, form);
    expect(done.status, done.text).toBe(303);
    expect(['releasing', 'released']).toContain((await h.payment(made.payment.id)).release.status);
  });

  it('holds a disputed order and releases when the dispute goes to the seller', async () => {
    await h.setSettings({ release_delay_seconds: 3600 });
    const made = await h.paid();
    await h.complete(made);
    const disputed = await h.ok(`/v1/orders/${made.order.id}/dispute`, { actor: made.buyer.id, reason: 'not_as_described', description: 'Broken.' });
    await h.advance(7200);
    expect((await h.payment(made.payment.id)).release.status).toBe('held');
    await h.ok(`/v1/disputes/${disputed.dispute}/decide`, { outcome: 'seller' });
    expect((await h.payment(made.payment.id)).release.status).toBe('held');
    await h.advance(3601);
    expect((await h.payment(made.payment.id)).release.status).toBe('released');
  });
});

describe('refunding', () => {
  it('a partial refund before release lowers the release; after release it reverses in proportion', async () => {
    const made = await h.paid(); // amount 1130 = 1000 + 130 fee
    const before = await h.refund({ order: made.order.id, amount: 113 });
    expect(before).toMatchObject({ object: 'refund', status: 'pending', initiated_by: 'api', transfer_reversal: null, amount: 113, currency: 'USD' });
    expect(await h.get(`/v1/refunds/${before.id}`)).toMatchObject({ status: 'succeeded' });
    expect((await h.payment(made.payment.id))).toMatchObject({ amount_refunded: 113, release: { status: 'held', amount: 900 } });
    await h.complete(made);
    expect((await h.payment(made.payment.id)).release).toMatchObject({ status: 'released', amount: 900 });
    const after = await h.refund({ payment: made.payment.id, amount: 226 });
    expect(after.transfer_reversal).toEqual({ amount: 200, status: 'pending', failure_reason: null });
    const settled = await h.get(`/v1/refunds/${after.id}`);
    expect(settled).toMatchObject({ status: 'succeeded', transfer_reversal: { amount: 200, status: 'succeeded', failure_reason: null } });
    expect(settled.processor.transfer_reversal).toMatch(/^trr_sim_/);
    expect(await h.payment(made.payment.id)).toMatchObject({ amount_refunded: 339, release: { amount: 900, amount_reversed: 200 } });
    const types = (await storedEvents(ctx, after.id)).map((e) => e.type);
    expect(types).toEqual(['refund.created', 'refund.updated']);
  });

  it('odd-amount refunds sum exactly: the whole amount back, the whole transfer reversed', async () => {
    await h.setSettings({ platform_fee: { percent_bps: 333, fixed_amount: 7 } });
    const made = await h.paid({ quantity: 3 }, { price: { amount: 997, currency: 'USD' } });
    await h.complete(made);
    const payment = await h.payment(made.payment.id);
    expect(payment.release.amount).toBe(2991);
    let left = payment.amount;
    let reversed = 0;
    for (const amount of [1, 7, 333, 999, 13]) {
      reversed += (await h.refund({ payment: payment.id, amount })).transfer_reversal.amount;
      left -= amount;
    }
    reversed += (await h.refund({ payment: payment.id })).transfer_reversal.amount;
    const final = await h.payment(payment.id);
    expect(final).toMatchObject({ amount_refunded: payment.amount, release: { amount: 2991, amount_reversed: 2991 } });
    expect(reversed).toBe(2991);
    expect(left).toBeGreaterThan(0);
  });

  it('refunds what is left when a paid order is cancelled, with nothing to release', async () => {
    const made = await h.paid();
    await h.refund({ order: made.order.id, amount: 100 });
    await h.ok(`/v1/orders/${made.order.id}/cancel`, {});
    const payment = await h.payment(made.payment.id);
    expect(payment).toMatchObject({ amount_refunded: payment.amount, release: { status: 'nothing_to_release', amount: 0 } });
    const refunds = (await h.get(`/v1/refunds?order=${made.order.id}`)).data;
    expect(refunds.map((r: { initiated_by: string; amount: number }) => [r.initiated_by, r.amount])).toEqual([['order_cancelled', payment.amount - 100], ['api', 100]]);
  });

  it('a dispute decided for the buyer after release refunds the rest and reverses the transfer', async () => {
    const made = await h.paid();
    await h.complete(made);
    const disputed = await h.ok(`/v1/orders/${made.order.id}/dispute`, { actor: made.buyer.id, reason: 'not_received', description: 'Nothing came.' });
    await h.ok(`/v1/disputes/${disputed.dispute}/decide`, { outcome: 'buyer' });
    const payment = await h.payment(made.payment.id);
    expect(payment).toMatchObject({ amount_refunded: payment.amount, release: { status: 'released', amount: 1000, amount_reversed: 1000 } });
  });

  it("a processor-made refund after release is recorded without reversal", async () => {
    const made = await h.paid();
    await h.complete(made);
    const refund = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/processor_refund`, { amount: 500 });
    expect(refund).toMatchObject({ initiated_by: 'processor', status: 'succeeded', transfer_reversal: null, amount: 500 });
    expect(await h.payment(made.payment.id)).toMatchObject({ amount_refunded: 500, release: { amount_reversed: 0 } });
    // A later API refund of the rest takes back only what the processor's refund did not waive.
    const rest = await h.refund({ payment: made.payment.id });
    expect(rest.transfer_reversal.amount).toBe(1000 - 442);
  });

  it('refunds the buyer when the reversal is refused, and keeps the shortfall on the refund', async () => {
    const made = await h.paid();
    await h.complete(made);
    await h.payouts(made.seller.id, 'restricted');
    const refund = await h.refund({ payment: made.payment.id, amount: 565 });
    const settled = await h.get(`/v1/refunds/${refund.id}`);
    expect(settled).toMatchObject({ status: 'succeeded', transfer_reversal: { amount: 500, status: 'failed' }, processor: { transfer_reversal: null } });
    expect(settled.transfer_reversal.failure_reason).toContain('cannot receive transfer reversals');
    expect(await h.payment(made.payment.id)).toMatchObject({ amount_refunded: 565, release: { amount: 1000, amount_reversed: 0 } });
    expect((await storedEvents(ctx, refund.id)).map((e) => e.type)).toEqual(['refund.created', 'refund.updated', 'refund.updated']);
    // The shortfall is not taken again by the next refund: only that refund's own part is.
    await h.payouts(made.seller.id, 'enabled');
    const rest = await h.refund({ payment: made.payment.id });
    expect(rest.transfer_reversal.amount).toBe(500);
  });

  it('replays a refund under its Idempotency-Key instead of refunding twice', async () => {
    const made = await h.paid();
    const send = () => h.post('/v1/refunds', { payment: made.payment.id, amount: 100 }, { 'Idempotency-Key': `refund-${made.payment.id}` });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    expect((await h.payment(made.payment.id)).amount_refunded).toBe(100);
  });

  it('never refunds more than was paid, whatever the concurrency', async () => {
    const made = await h.paid(); // 1130
    const answers = await Promise.all(Array.from({ length: 6 }, () => h.post('/v1/refunds', { payment: made.payment.id, amount: 400 })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.error.param === 'amount')).toBe(true);
    expect((await h.payment(made.payment.id)).amount_refunded).toBe(800);
  });

  it('refuses bad refunds: no target, disagreeing targets, unknown ids, unpaid, too much', async () => {
    const made = await h.paid();
    const unpaid = await h.unpaid();
    const cases: Array<[Record<string, unknown>, number, string, string?]> = [
      [{}, 400, 'invalid_request', 'payment'],
      [{ payment: unpaid.payment.id, order: made.order.id }, 400, 'invalid_request', 'order'],
      [{ payment: 'pay_01jd00000000000000000000zz' }, 404, 'resource_missing'],
      [{ order: 'ord_01jd00000000000000000000zz' }, 404, 'resource_missing', 'order'],
      [{ payment: unpaid.payment.id }, 409, 'invalid_state'],
      [{ payment: made.payment.id, amount: 1131 }, 400, 'invalid_request', 'amount'],
      [{ payment: made.payment.id, amount: 0 }, 400, 'invalid_request', 'amount'],
    ];
    for (const [body, status, code, param] of cases) {
      const res = await h.post('/v1/refunds', body);
      expect({ status: res.status, code: res.body.error?.code, param: res.body.error?.param }, JSON.stringify(body)).toEqual({ status, code, param });
    }
    await h.refund({ payment: made.payment.id });
    const again = await h.post('/v1/refunds', { payment: made.payment.id });
    expect(again.status).toBe(409);
  });
});

describe('the API around payments', () => {
  it('lists, filters, retrieves, updates metadata; card disputes from the processor', async () => {
    const made = await h.paid();
    const byOrder = await h.get(`/v1/payments?order=${made.order.id}`);
    expect(byOrder.data.map((p: { id: string }) => p.id)).toEqual([made.payment.id]);
    expect((await h.get('/v1/payments?status=succeeded')).data.every((p: { status: string }) => p.status === 'succeeded')).toBe(true);
    const patched = await ctx.request(`/v1/payments/${made.payment.id}`, { method: 'PATCH', body: { metadata: { note: 'vip' } } });
    expect(patched.body.metadata).toEqual({ note: 'vip' });
    const dispute = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/card_dispute`, { reason: 'product_not_received' });
    expect(dispute).toMatchObject({ object: 'card_dispute', payment: made.payment.id, order: made.order.id, amount: 1130, reason: 'product_not_received', status: 'needs_response' });
    expect((await h.get(`/v1/card_disputes/${dispute.id}`)).id).toBe(dispute.id);
    expect((await h.get(`/v1/card_disputes?payment=${made.payment.id}`)).data).toHaveLength(1);
    expect((await h.get(`/v1/card_disputes?payment=${made.payment.id}&status=needs_response`)).data).toHaveLength(1);
    expect((await h.get(`/v1/card_disputes?payment=${made.payment.id}&status=won`)).data).toHaveLength(0);
    expect((await ctx.request('/v1/payments/pay_01jd00000000000000000000zz')).status).toBe(404);
  });

  it('test helpers answer 403 test_mode_only to live keys and 409 when the state does not allow', async () => {
    const made = await h.paid();
    const live = await ctx.request(`/v1/test_helpers/payments/${made.payment.id}/succeed`, { method: 'POST', key: ctx.keys.live.secret_key });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('test_mode_only');
    const twice = await h.post(`/v1/test_helpers/payments/${made.payment.id}/succeed`);
    expect(twice.status).toBe(409);
    const fail = await h.post(`/v1/test_helpers/payments/${made.payment.id}/fail`);
    expect(fail.status).toBe(409);
  });

  it('serves the simulated checkout page: Pay commits the order and goes to success_url', async () => {
    const { order, payment } = await h.unpaid({ success_url: 'https://shop.example/thanks', cancel_url: 'https://shop.example/cart' });
    const url = new URL(payment.checkout_url);
    const view = await ctx.app.inject({ method: 'GET', url: url.pathname });
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain('Pay 11.30 USD');
    const declined = await ctx.app.inject({ method: 'POST', url: `${url.pathname}/decline` });
    expect(declined.statusCode).toBe(303);
    expect(declined.headers.location).toBe('https://shop.example/cart');
    const paid = await ctx.app.inject({ method: 'POST', url: `${url.pathname}/pay` });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe('https://shop.example/thanks');
    expect((await h.getOrder(order.id)).state).toBe('committed');
    const closed = await ctx.app.inject({ method: 'GET', url: url.pathname });
    expect(closed.body).toContain('Payment succeeded');
  });

  it('refuses an order with payments on when the mode has no processor connection', async () => {
    const { buyer, listing } = await h.parties();
    const saved = await ctx.db.query('SELECT * FROM processor_connections WHERE marketplace_id = $1 AND mode = $2', [ctx.marketplaceId, 'test']);
    await ctx.db.query("DELETE FROM processor_connections WHERE marketplace_id = $1 AND mode = 'test'", [ctx.marketplaceId]);
    try {
      const res = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('processor_not_connected');
    } finally {
      const row = saved[0] as Record<string, unknown>;
      const columns = Object.keys(row);
      await ctx.db.query(`INSERT INTO processor_connections (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, columns.map((c) => row[c]));
    }
  });

  it('refuses an order with payments on when the seller has not onboarded', async () => {
    const { buyer, listing, seller } = await h.parties();
    await h.payouts(seller.id, 'pending');
    const res = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('seller_payouts_not_enabled');
    // In test mode the message names the onboarding link and the test helper that finishes it; following it works.
    expect(res.body.error.message).toContain(`POST /v1/sellers/${seller.id}/onboarding_links`);
    expect(res.body.error.message).toContain(`POST /v1/test_helpers/sellers/${seller.id}/payouts {"status": "enabled"}`);
    const helped = await h.post(`/v1/test_helpers/sellers/${seller.id}/payouts`, { status: 'enabled' });
    expect(helped.status, helped.text).toBe(200);
    const paid = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.state).toBe('awaiting_payment');
  });

  it('names the test helper in test mode only', () => {
    const live = payoutsNotEnabledMessage({ marketplaceId: 'mkt_x', mode: 'live' }, 'sel_x', 'pending');
    expect(live).toContain('POST /v1/sellers/sel_x/onboarding_links');
    expect(live).not.toContain('test_helpers');
  });
});
