// Random sequences of refunds (API and processor-made), order moves (completion, cancellation,
// disputes), payouts changes that make releases and reversals fail, retries and repeated processor
// reports, over HTTP on the simulated processor. After each step, exact to the minor unit:
// - the buyer is never refunded more than paid, and the refunds add up to amount_refunded;
// - the seller keeps at most the subtotal net of the refunds that may reverse (processor-made
//   refunds after release never do, each within one unit of rounding), but for reversals the
//   processor refused, which each show on their refund as the platform's shortfall; and never less
//   than nothing;
// - the platform's fee returns in proportion to the refunded share (within half a unit);
// - the listing's units are all accounted for (available + held by the order + sold = quantity);
// - the ledger: every entry balances, the payment holds its target positions, and the seller's
//   balance is the sum of the seller account's lines, owed of their seller_receivables lines, net
//   adds them up (test/modules/ledger/ledger-checks.ts), whichever bears what the seller owes.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sellerShare } from '../../../src/modules/payments/money.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import type { Json } from '../../helpers/factories.js';
import { processorRefund, refundSome, setPayouts, takeOrderAction } from '../../helpers/money-actions.js';
import { expectLedgerConsistent } from '../ledger/ledger-checks.js';
import { paymentHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = paymentHelpers(() => ctx);

type Step =
  | { kind: 'refund'; share: number; all: boolean }
  | { kind: 'processor_refund'; share: number }
  | { kind: 'complete' | 'cancel' | 'dispute_buyer' | 'dispute_seller' | 'retry_release' | 'succeed_again' | 'fail_late' }
  | { kind: 'payouts'; status: 'enabled' | 'restricted' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('refund' as const), share: fc.double({ min: 0, max: 1, noNaN: true }), all: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('processor_refund' as const), share: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('complete', 'cancel', 'dispute_buyer', 'dispute_seller', 'retry_release', 'succeed_again', 'fail_late' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('payouts' as const), status: fc.constantFrom('enabled', 'restricted' as const) }) },
);

const scenario = fc.record({
  price: fc.integer({ min: 1, max: 100_000 }),
  quantity: fc.integer({ min: 1, max: 3 }),
  percentBps: fc.integer({ min: 0, max: 3000 }),
  fixed: fc.integer({ min: 0, max: 500 }),
  // Who bears what the seller owes after release: the platform at once (0), or the seller (null:
  // a debt, recovered from later releases; several orders of one seller: recovery.property.test.ts).
  writeOffDays: fc.constantFrom(0, null),
  steps: fc.array(step, { minLength: 1, maxLength: 10 }),
});

async function take(s: Step, made: Json): Promise<void> {
  const payment = await h.payment(made.payment.id);
  const order = await h.getOrder(made.order.id);
  const left = payment.amount - payment.amount_refunded;
  switch (s.kind) {
    case 'refund':
      return refundSome(h, { payment: payment.id }, left, s.share, s.all);
    case 'processor_refund':
      await processorRefund(h, payment.id, left, s.share);
      return;
    case 'complete':
    case 'cancel':
    case 'dispute_buyer':
    case 'dispute_seller':
    case 'retry_release':
      return takeOrderAction(h, s.kind, { order, buyer: made.buyer.id, seller: made.seller.id, payment: payment.id });
    case 'succeed_again':
      await h.post(`/v1/test_helpers/payments/${payment.id}/succeed`);
      return;
    case 'fail_late':
      await h.post(`/v1/test_helpers/payments/${payment.id}/fail`, { message: 'late failure' });
      return;
    case 'payouts':
      return setPayouts(h, made.seller.id, s.status);
  }
}

async function check(made: Json, quantity: number): Promise<void> {
  const payment = await h.payment(made.payment.id);
  const refunds: Json[] = (await h.get(`/v1/refunds?payment=${payment.id}&limit=100`)).data;
  const counting = refunds.filter((r) => r.status === 'pending' || r.status === 'succeeded');
  const refunded = counting.reduce((sum, r) => sum + r.amount, 0);
  expect(refunded).toBe(payment.amount_refunded);
  expect(refunded).toBeLessThanOrEqual(payment.amount);
  const mayReverse = counting.filter((r) => r.initiated_by !== 'processor').reduce((sum, r) => sum + r.amount, 0);
  const subtotal = payment.amount - payment.fee_amount;
  const sent = payment.release.status === 'released' ? payment.release.amount : 0;
  const reversedMade = refunds.filter((r) => r.transfer_reversal?.status === 'succeeded').reduce((sum, r) => sum + r.transfer_reversal.amount, 0);
  // Reversals the processor refused stay visible on their refunds: the platform's shortfall.
  const shortfall = counting.filter((r) => r.transfer_reversal?.status === 'failed').reduce((sum, r) => sum + r.transfer_reversal.amount, 0);
  const sellerKeeps = sent - reversedMade;
  expect(sellerKeeps).toBeGreaterThanOrEqual(0);
  // A processor-made refund after release is waived at its own rounded share (reversalFor), so
  // each may leave the seller one unit above the share of the reversible refunds taken together.
  const waivedRoundings = counting.filter((r) => r.initiated_by === 'processor').length;
  expect(sellerKeeps - shortfall).toBeLessThanOrEqual(sellerShare(subtotal, payment.amount, mayReverse) + waivedRoundings);
  expect(payment.release.amount_reversed).toBeLessThanOrEqual(payment.release.amount);
  // The fee share of what was refunded: refunded − (subtotal − share), within half a unit of fee × refunded / amount.
  const feeReturned = refunded - (subtotal - sellerShare(subtotal, payment.amount, refunded));
  expect(Math.abs(feeReturned * payment.amount - payment.fee_amount * refunded)).toBeLessThanOrEqual(payment.amount / 2);
  const order = await h.getOrder(made.order.id);
  const listing = await h.getListing(made.listing.id);
  const held = ['committed', 'claimed', 'disputed', 'completed'].includes(order.state) || (order.state === 'cancelled' && order.claimed_at !== null) ? quantity : 0;
  expect(listing.quantity_available ?? listing.quantity).toBe(order.state === 'completed' || held > 0 ? 5 - quantity : 5);
  await expectLedgerConsistent(ctx, [payment.id], [made.seller.id]);
}

it('keeps money and units exact under random sequences of refunds, releases, failures and reports', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ price, quantity, percentBps, fixed, writeOffDays, steps }) => {
      await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: percentBps, fixed_amount: fixed }, release_delay_seconds: 0, seller_debt_write_off_days: writeOffDays });
      const made = await h.paid({ quantity }, { price: { amount: price, currency: 'USD' } });
      for (const s of steps) {
        await take(s, made);
        await check(made, quantity);
      }
    }),
    // The first failure is reported with its seed and path (replay: FC_SEED, FC_PATH) without
    // shrinking, which over HTTP takes minutes and ended in a test timeout that hid the
    // counterexample; a run that stalls for 20 s is a failure too.
    { numRuns: 25, timeout: 20_000, endOnFailure: true, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}) },
  );
}, 120_000);
