// Processor reports in any order (docs/payments.md): the same event twice, a refund before the
// success it implies, a failure after a success, a late success after a refund — each sequence
// ends in the state its events describe, whatever order they came in.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { receiveProcessorReports } from '../../../src/flows/receive-processor-reports.js';
import type { ProcessorReport } from '../../../src/contracts/processor.js';
import type { Scope } from '../../../src/scope.js';
import { storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { paymentHelpers } from './helpers.js';

let ctx: TestContext;
let scope: Scope;
const h = paymentHelpers(() => ctx);
let n = 0;
const report = (reports: ProcessorReport[], eventId = `evt_test_${++n}`) => receiveProcessorReports(ctx.services, scope, { provider: 'stripe', eventId }, reports);

beforeAll(async () => {
  ctx = await startTestApp();
  scope = { marketplaceId: ctx.marketplaceId, mode: 'test' };
});
afterAll(() => ctx.close());
beforeEach(() => h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 0, fixed_amount: 0 }, release_delay_seconds: 0 }));

const succeeded = (paymentId: string): ProcessorReport => ({ type: 'payment_succeeded', paymentId, paymentIntent: null, checkoutSession: null, charge: `ch_${paymentId}`, amount: null, currency: null });

describe('processor reports', () => {
  it('handles an event once: a second delivery of the same event id is a duplicate', async () => {
    const { payment, order } = await h.unpaid();
    expect(await report([succeeded(payment.id)], 'evt_dup')).toBe('handled');
    expect(await report([succeeded(payment.id)], 'evt_dup')).toBe('duplicate');
    expect((await storedEvents(ctx, payment.id)).filter((e) => e.type === 'payment.succeeded')).toHaveLength(1);
    expect((await h.getOrder(order.id)).state).toBe('committed');
  });

  it('the same success under two event ids changes nothing the second time', async () => {
    const { payment } = await h.unpaid();
    await report([succeeded(payment.id)]);
    const first = await h.payment(payment.id);
    await report([succeeded(payment.id)]);
    expect(await h.payment(payment.id)).toEqual(first);
  });

  it('a failure after a success changes nothing', async () => {
    const { payment } = await h.unpaid();
    await report([succeeded(payment.id)]);
    const before = await h.payment(payment.id);
    await report([{ type: 'payment_failed', paymentId: payment.id, paymentIntent: null, checkoutSession: null, message: 'Declined.' }]);
    expect(await h.payment(payment.id)).toEqual(before);
  });

  it('a processor refund before the success ends as the other order does', async () => {
    const refundFirst = await h.unpaid();
    const successFirst = await h.unpaid();
    const refund = (p: { id: string }, id: string): ProcessorReport => ({ type: 'refund_updated', paymentIntent: null, charge: `ch_${p.id}`, refund: id, amount: 300, status: 'succeeded', failureReason: null, refundId: null });
    // The processor's ids arrive with the first report of each payment.
    await ctx.db.query('UPDATE payments SET processor_charge = $2 WHERE id = $1', [refundFirst.payment.id, `ch_${refundFirst.payment.id}`]);
    await report([refund(refundFirst.payment, 're_a')]);
    await report([succeeded(refundFirst.payment.id)]);
    await report([succeeded(successFirst.payment.id)]);
    await report([refund(successFirst.payment, 're_b')]);
    const shape = async (made: { payment: { id: string }; order: { id: string } }) => {
      const p = await h.payment(made.payment.id);
      const refunds = (await h.get(`/v1/refunds?payment=${made.payment.id}`)).data;
      return {
        status: p.status,
        refunded: p.amount_refunded,
        release: p.release,
        order: (await h.getOrder(made.order.id)).state,
        refunds: refunds.map((r: { amount: number; status: string; initiated_by: string }) => [r.amount, r.status, r.initiated_by]),
      };
    };
    const a = await shape(refundFirst);
    expect(a).toEqual(await shape(successFirst));
    expect(a).toMatchObject({ status: 'succeeded', refunded: 300, order: 'committed', release: { status: 'held', amount: 700 } });
  });

  it('a refund that succeeds, then is reported pending late, stays succeeded; a later failure fails it', async () => {
    const made = await h.paid();
    const refund = await h.refund({ payment: made.payment.id, amount: 200 });
    const settled = await h.get(`/v1/refunds/${refund.id}`);
    expect(settled.status).toBe('succeeded');
    const processorRefund = settled.processor.refund as string;
    await report([{ type: 'refund_updated', paymentIntent: null, charge: null, refund: processorRefund, amount: 200, status: 'pending', failureReason: null, refundId: refund.id }]);
    expect((await h.get(`/v1/refunds/${refund.id}`)).status).toBe('succeeded');
    await report([{ type: 'refund_updated', paymentIntent: null, charge: null, refund: processorRefund, amount: 200, status: 'failed', failureReason: 'expired_or_canceled_card', refundId: null }]);
    expect(await h.get(`/v1/refunds/${refund.id}`)).toMatchObject({ status: 'failed', failure_reason: 'expired_or_canceled_card' });
    expect((await h.payment(made.payment.id)).amount_refunded).toBe(0);
  });

  it("an account report moves the seller's payouts and retries a failed release", async () => {
    const made = await h.paid();
    await h.payouts(made.seller.id, 'restricted');
    await h.complete(made);
    expect((await h.payment(made.payment.id)).release.status).toBe('failed');
    const seller = await h.get(`/v1/sellers/${made.seller.id}`);
    await report([{ type: 'account_updated', account: seller.payouts.processor_account, payoutsEnabled: true, restricted: false }]);
    expect((await h.get(`/v1/sellers/${made.seller.id}`)).payouts.status).toBe('enabled');
    expect((await h.payment(made.payment.id)).release.status).toBe('released');
  });

  it('records card disputes once and their updates', async () => {
    const made = await h.paid();
    const dispute = (status: string): ProcessorReport => ({ type: 'card_dispute', dispute: 'dp_x1', charge: null, paymentIntent: made.payment.processor.payment_intent, amount: 1000, reason: 'fraudulent', status, evidenceDueBy: null });
    await report([dispute('needs_response')]);
    await report([dispute('needs_response')]);
    await report([dispute('won')]);
    const list = (await h.get(`/v1/card_disputes?payment=${made.payment.id}`)).data;
    expect(list).toHaveLength(1);
    expect(list[0].status).toBe('won');
    expect((await storedEvents(ctx, list[0].id)).map((e) => e.type)).toEqual(['card_dispute.created', 'card_dispute.updated']);
  });
});
