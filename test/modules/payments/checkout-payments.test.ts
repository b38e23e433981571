// A checkout's payment on the simulated processor (docs/decisions/checkouts.md): one charge for
// the checkout's total, a share per order; paid together, then each order's money lives on its
// own (release, refunds); refunds of the charge spread over its orders; expiry cancels the
// charge once; a late success is refunded.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessorDriver } from '../../../src/contracts/processor.js';
import { receiveProcessorReports } from '../../../src/flows/receive-processor-reports.js';
import { storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { checkoutHelpers } from './checkout-helpers.js';

let ctx: TestContext;
const h = checkoutHelpers(() => ctx);
const cancelCalls: string[] = [];

beforeAll(async () => {
  ctx = await startTestApp({
    wiring: (base) => {
      const simulated: ProcessorDriver = {
        ...base.processors.simulated,
        async cancelPayment(callCtx, input) {
          cancelCalls.push(input.idempotencyKey);
          return base.processors.simulated.cancelPayment(callCtx, input);
        },
      };
      return { ...base, processors: { ...base.processors, simulated } };
    },
  });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 1000, fixed_amount: 30 }, release_delay_seconds: 0, checkout_success_url: null, checkout_cancel_url: null });
});

const THREE = [{ price: 1000 }, { price: 2500, quantity: 2 }, { price: 799 }];

describe('a checkout of three sellers', () => {
  it('is one charge for the total and a share per order; only the charge is started', async () => {
    const checkout = await h.unpaidCheckout(THREE);
    const { charge, shares, orders } = checkout;
    const total = orders.reduce((sum, order) => sum + order.total, 0);
    expect(charge).toMatchObject({
      object: 'payment', order: null, checkout: checkout.id, charge_payment: null, status: 'awaiting_payment',
      amount: total, fee_amount: orders.reduce((sum, order) => sum + order.fee_amount, 0),
    });
    expect(charge.checkout_url).toMatch(new RegExp(`/simulated/checkout/${charge.id}/[0-9A-Za-z]{32}$`));
    expect((await h.get(`/v1/checkouts/${checkout.id}`)).payment_url).toBe(charge.checkout_url);
    expect(charge.processor.checkout_session).toMatch(/^cs_sim_/);
    for (const [i, share] of shares.entries()) {
      expect(share).toMatchObject({ order: orders[i]!.id, checkout: checkout.id, charge_payment: charge.id, status: 'awaiting_payment', amount: orders[i]!.total, checkout_url: null });
      expect(share.processor.checkout_session).toBeNull();
      expect((await storedEvents(ctx, share.id)).map((e) => e.type)).toEqual(['payment.created']);
    }
    // The hosted page lists the items: each listing's title and seller's name, the listing id, the amount.
    const path = new URL(charge.checkout_url).pathname;
    const page = await ctx.request(path, { key: null });
    expect(page.status).toBe(200);
    for (const order of orders) {
      const listing = (await ctx.request(`/v1/listings/${order.listing}`)).body;
      const seller = (await ctx.request(`/v1/sellers/${order.seller}`)).body;
      expect(page.text).toContain(listing.title);
      expect(page.text).toContain(seller.name);
      expect(page.text).toContain(order.listing);
      expect(page.text).toContain((order.total / 100).toFixed(2));
    }
    // A share has no page of its own, not even with the charge's token.
    expect((await ctx.request(path.replace(charge.id, shares[0]!.id), { key: null })).status).toBe(404);
  });

  it('paid once: every share follows with the charge\'s processor ids, every order is committed', async () => {
    const checkout = await h.paidCheckout(THREE);
    expect(checkout.charge).toMatchObject({ status: 'succeeded', checkout_url: null, release: { status: null } });
    for (const [i, share] of checkout.shares.entries()) {
      expect(checkout.orders[i]!.state).toBe('committed');
      expect(share).toMatchObject({
        status: 'succeeded',
        release: { status: 'held', amount: checkout.orders[i]!.subtotal },
        processor: { payment_intent: checkout.charge.processor.payment_intent, charge: checkout.charge.processor.charge, checkout_session: checkout.charge.processor.checkout_session },
      });
    }
  });

  it('releases each order to its own seller, and refunds one order without touching the others', async () => {
    const checkout = await h.paidCheckout(THREE);
    for (const i of [0, 1, 2]) await h.completeOrder(checkout, i);
    const released = await Promise.all(checkout.shares.map((share) => h.payment(share.id)));
    for (const [i, share] of released.entries()) {
      expect(share.release).toMatchObject({ status: 'released', amount: checkout.orders[i]!.subtotal, amount_reversed: 0 });
      expect(share.processor.transfer).toMatch(/^tr_sim_/);
    }
    expect(new Set(released.map((share) => share.processor.transfer)).size).toBe(3);

    const created = await h.refund({ order: checkout.orders[1]!.id, amount: 1000 });
    const refund = await h.get(`/v1/refunds/${created.id}`);
    expect(refund).toMatchObject({ payment: checkout.shares[1]!.id, order: checkout.orders[1]!.id, amount: 1000, status: 'succeeded' });
    // Contract 10 on the order's own share: subtotal 5000 of amount 5530 → round_half_up(5000 × 1000 / 5530) = 904.
    expect(refund.transfer_reversal).toMatchObject({ amount: 904, status: 'succeeded' });
    const after = await Promise.all(checkout.shares.map((share) => h.payment(share.id)));
    expect(after[1]).toMatchObject({ amount_refunded: 1000, release: { amount_reversed: 904 } });
    expect(after[0]).toEqual(released[0]);
    expect(after[2]).toEqual(released[2]);
    expect((await h.payment(checkout.charge.id)).amount_refunded).toBe(1000);
  });

  it('refunds {payment: charge} across its orders in item order, each within what is left', async () => {
    const checkout = await h.paidCheckout(THREE);
    const [first, second] = checkout.shares;
    await h.refund({ order: checkout.orders[0]!.id, amount: 100 });
    const tooMuch = await h.post('/v1/refunds', { payment: checkout.charge.id, amount: checkout.charge.amount - 99 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.param).toBe('amount');
    const refund = await h.refund({ payment: checkout.charge.id, amount: first!.amount - 100 + 250 });
    expect(refund).toMatchObject({ payment: first!.id, amount: first!.amount - 100 });
    const refunds = await h.get(`/v1/refunds?payment=${second!.id}`);
    expect(refunds.data.map((r: { amount: number }) => r.amount)).toEqual([250]);
    expect(await h.payment(first!.id)).toMatchObject({ amount_refunded: first!.amount });
    expect((await h.payment(checkout.shares[2]!.id)).amount_refunded).toBe(0);
    // Everything left, then nothing is.
    await h.refund({ payment: checkout.charge.id });
    expect((await h.payment(checkout.charge.id)).amount_refunded).toBe(checkout.charge.amount);
    const again = await h.post('/v1/refunds', { payment: checkout.charge.id });
    expect(again.status).toBe(409);
    // The charge holds no refund itself: listing by it lists its shares' refunds, newest first, paged.
    const byShare = await Promise.all(checkout.shares.map((share) => h.get(`/v1/refunds?payment=${share.id}`)));
    const all = byShare.flatMap((list) => list.data.map((r: { id: string }) => r.id)).sort().reverse();
    expect(all).toHaveLength(5);
    const firstPage = await h.get(`/v1/refunds?payment=${checkout.charge.id}&limit=3`);
    const secondPage = await h.get(`/v1/refunds?payment=${checkout.charge.id}&limit=3&starting_after=${firstPage.next_cursor}`);
    expect([...firstPage.data, ...secondPage.data].map((r: { id: string }) => r.id)).toEqual(all);
    expect(secondPage.has_more).toBe(false);
  });
});

describe('expiry', () => {
  it('cancels every share and the charge with one cancel call; a late success refunds every share', async () => {
    const checkout = await h.unpaidCheckout(THREE);
    cancelCalls.length = 0;
    await h.advance(1801);
    for (const order of checkout.orders) expect((await h.getOrder(order.id)).state).toBe('expired');
    for (const share of checkout.shares) expect((await h.payment(share.id)).status).toBe('canceled');
    expect(await h.payment(checkout.charge.id)).toMatchObject({ status: 'canceled', checkout_url: null });
    const ours = new Set([checkout.charge.id, ...checkout.shares.map((share) => share.id)]);
    expect(cancelCalls.filter((key) => ours.has(key.split(':')[0]!))).toEqual([`${checkout.charge.id}:cancel`]);

    const late = await h.ok(`/v1/test_helpers/payments/${checkout.charge.id}/succeed`);
    expect(late).toMatchObject({ status: 'succeeded', amount_refunded: checkout.charge.amount });
    for (const [i, share] of checkout.shares.entries()) {
      expect(await h.payment(share.id)).toMatchObject({ status: 'succeeded', amount_refunded: share.amount, release: { status: 'nothing_to_release' } });
      const refunds = await h.get(`/v1/refunds?payment=${share.id}`);
      expect(refunds.data).toMatchObject([{ amount: share.amount, initiated_by: 'late_payment', status: 'succeeded' }]);
      expect((await h.getOrder(checkout.orders[i]!.id)).state).toBe('expired');
    }
  });
});

describe('processor reports about the charge', () => {
  const scope = () => ({ marketplaceId: ctx.marketplaceId, mode: 'test' as const });
  let n = 0;
  const report = (reports: Parameters<typeof receiveProcessorReports>[3]) => receiveProcessorReports(ctx.services, scope(), { provider: 'stripe', eventId: `evt_chk_${++n}` }, reports);

  it('find the charge by its processor ids, never a share', async () => {
    const checkout = await h.unpaidCheckout(THREE);
    const intent = checkout.charge.processor.payment_intent as string;
    await report([{ type: 'payment_succeeded', paymentId: null, paymentIntent: intent, checkoutSession: null, charge: 'ch_chk_lookup', amount: checkout.charge.amount, currency: 'usd' }]);
    const paid = await h.refresh(checkout);
    expect(paid.charge).toMatchObject({ status: 'succeeded', processor: { charge: 'ch_chk_lookup' } });
    for (const order of paid.orders) expect(order.state).toBe('committed');
    // A refund made in the processor's dashboard on the charge spreads over the shares in item order.
    const firstAmount = paid.shares[0]!.amount as number;
    await report([{ type: 'refund_updated', paymentIntent: intent, charge: 'ch_chk_lookup', refund: 're_dash_1', amount: firstAmount + 300, status: 'pending', failureReason: null, refundId: null }]);
    const [a, b, c] = await Promise.all(paid.shares.map((share) => h.payment(share.id)));
    expect([a!.amount_refunded, b!.amount_refunded, c!.amount_refunded]).toEqual([firstAmount, 300, 0]);
    // Its later report finds both parts.
    await report([{ type: 'refund_updated', paymentIntent: intent, charge: 'ch_chk_lookup', refund: 're_dash_1', amount: firstAmount + 300, status: 'succeeded', failureReason: null, refundId: null }]);
    for (const share of [a!, b!]) {
      const refunds = await h.get(`/v1/refunds?payment=${share.id}`);
      expect(refunds.data).toMatchObject([{ initiated_by: 'processor', status: 'succeeded', processor: { refund: 're_dash_1' } }]);
    }
    // An amount other than the charge's is not applied.
    const other = await h.unpaidCheckout([{ price: 500 }, { price: 600 }]);
    await report([{ type: 'payment_succeeded', paymentId: other.charge.id, paymentIntent: null, checkoutSession: null, charge: 'ch_chk_wrong', amount: 1, currency: 'usd' }]);
    const wrong = await h.refresh(other);
    expect(wrong.charge).toMatchObject({ status: 'awaiting_payment', amount_mismatch: { amount: 1 } });
    for (const order of wrong.orders) expect(order.state).toBe('awaiting_payment');
  });

  it('a card dispute on the charge holds the releases not started until it closes', async () => {
    await h.setSettings({ release_delay_seconds: 3600 });
    const checkout = await h.paidCheckout(THREE);
    await h.completeOrder(checkout, 0);
    const dispute = await h.ok(`/v1/test_helpers/payments/${checkout.charge.id}/card_dispute`, {});
    expect(dispute).toMatchObject({ payment: checkout.charge.id, order: null, status: 'needs_response' });
    await h.completeOrder(checkout, 1);
    await h.advance(3601);
    for (const share of checkout.shares.slice(0, 2)) expect((await h.payment(share.id)).release.status).toBe('held');
    await report([{ type: 'card_dispute', dispute: dispute.processor.dispute, charge: checkout.charge.processor.charge, paymentIntent: null, amount: dispute.amount, reason: 'fraudulent', status: 'won', evidenceDueBy: null }]);
    const after = await Promise.all(checkout.shares.map((share) => h.payment(share.id)));
    expect(after.map((share) => share.release.status)).toEqual(['released', 'released', 'held']);
  });
});
