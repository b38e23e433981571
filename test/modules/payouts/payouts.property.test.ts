// Random sequences on one seller paid on a schedule (docs/payouts.md): orders completed, refunds
// before and after their shares became available or were paid out, the clock moved over runs,
// payouts asked for, canceled and failed, the seller's payouts restricted and enabled again. After
// each step, exact to the minor unit:
// - the ledger: every entry of every payment balances, each payment holds its target positions,
//   pending and available are the sums of their accounts' lines (test/modules/ledger/ledger-checks.ts);
// - what the seller earned (charges less refunds less fees kept, per payment) is exactly
//   pending + available + paid_out: nothing is lost or made up between the accounts and the payouts;
// - each payout's lines sum to its amount, and no ledger line is in two payouts that are not
//   failed or canceled (nobody is paid twice); paid_out is the sum of those payouts.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sellerShare } from '../../../src/modules/payments/money.js';
import type { Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { partOf } from '../../helpers/money-actions.js';
import { expectLedgerConsistent } from '../ledger/ledger-checks.js';
import { payoutHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = payoutHelpers(() => ctx);

type Step =
  | { kind: 'order' }
  | { kind: 'refund'; pick: number; share: number }
  | { kind: 'advance'; hours: number }
  | { kind: 'pay_now' | 'cancel_latest' | 'fail_latest' }
  | { kind: 'payouts'; status: 'enabled' | 'restricted' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'order' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), share: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 60 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('pay_now', 'cancel_latest', 'fail_latest' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('payouts' as const), status: fc.constantFrom('enabled', 'restricted' as const) }) },
);

const scenario = fc.record({
  price: fc.integer({ min: 1, max: 50_000 }),
  percentBps: fc.integer({ min: 0, max: 3000 }),
  fixed: fc.integer({ min: 0, max: 300 }),
  interval: fc.constantFrom('daily', 'weekly', 'monthly', 'manual'),
  delayDays: fc.integer({ min: 0, max: 2 }),
  minimum: fc.integer({ min: 1, max: 20_000 }),
  steps: fc.array(step, { minLength: 1, maxLength: 8 }),
});

interface Seller {
  parties: Awaited<ReturnType<typeof h.scheduledParties>>;
  payments: string[];
  /** Orders need an enabled seller (403 seller_payouts_not_enabled otherwise). */
  enabled: boolean;
}

async function take(s: Step, seller: Seller): Promise<void> {
  const sellerId = seller.parties.seller.id;
  const latest = async () => (await h.payoutsOf(sellerId))[0] as Json | undefined;
  switch (s.kind) {
    case 'order': {
      if (!seller.enabled) return;
      const { payment } = await h.completedOrder(seller.parties);
      seller.payments.push(payment.id);
      return;
    }
    case 'refund': {
      if (seller.payments.length === 0) return;
      const payment = await h.payment(seller.payments[s.pick % seller.payments.length]!);
      const left = payment.amount - payment.amount_refunded;
      if (left === 0) return;
      const res = await h.post('/v1/refunds', { payment: payment.id, amount: partOf(left, s.share) });
      expect(res.status, res.text).toBe(201);
      return;
    }
    case 'advance':
      return h.advance(s.hours * 3600);
    case 'pay_now': {
      const res = await h.post('/v1/payouts', { seller: sellerId });
      expect([201, 403, 409], res.text).toContain(res.status);
      return;
    }
    case 'cancel_latest': {
      const payout = await latest();
      if (!payout) return;
      const res = await h.post(`/v1/payouts/${payout.id}/cancel`);
      expect(res.status, res.text).toBe(payout.status === 'pending' ? 200 : 409);
      return;
    }
    case 'fail_latest': {
      const payout = await latest();
      if (!payout) return;
      const res = await h.post(`/v1/test_helpers/payouts/${payout.id}/fail`, {});
      expect(res.status, res.text).toBe(payout.status === 'failed' || payout.status === 'canceled' ? 409 : 200);
      return;
    }
    case 'payouts':
      await h.payouts(sellerId, s.status);
      seller.enabled = s.status === 'enabled';
  }
}

async function check(seller: Seller): Promise<void> {
  const sellerId = seller.parties.seller.id;
  let earned = 0;
  for (const id of seller.payments) {
    const payment = await h.payment(id);
    const refunds: Json[] = (await h.get(`/v1/refunds?payment=${id}&limit=100`)).data;
    const refunded = refunds.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amount, 0);
    const subtotal = payment.amount - payment.fee_amount;
    const feeKept = payment.fee_amount - (refunded - (subtotal - sellerShare(subtotal, payment.amount, refunded)));
    earned += payment.amount - refunded - feeKept;
  }
  const balance = await h.balance(sellerId);
  expect(balance.transferred).toBe(0);
  expect(balance.pending + balance.available + balance.paid_out).toBe(earned);
  const payouts: Json[] = await h.payoutsOf(sellerId);
  const live = payouts.filter((p) => p.status !== 'failed' && p.status !== 'canceled');
  expect(live.reduce((sum, p) => sum + p.amount, 0)).toBe(balance.paid_out);
  const seen = new Set<string>();
  for (const payout of payouts) {
    const lines: Json[] = await h.lines(payout.id);
    expect(lines.reduce((sum, line) => sum + line.amount, 0)).toBe(payout.amount);
    if (payout.status === 'failed' || payout.status === 'canceled') continue;
    for (const line of lines) {
      expect(seen.has(line.balance_transaction), `${line.balance_transaction} paid twice`).toBe(false);
      seen.add(line.balance_transaction);
    }
  }
  await expectLedgerConsistent(ctx, seller.payments, [sellerId]);
}

it('keeps every seller balance, payout and ledger line exact under random schedules, refunds, runs and payout failures', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ price, percentBps, fixed, interval, delayDays, minimum, steps }) => {
      await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: percentBps, fixed_amount: fixed }, release_delay_seconds: 0 });
      const parties = await h.scheduledParties({ interval, delay_days: delayDays, minimum, weekly_anchor: 'wednesday', monthly_anchor: 31 }, { price: { amount: price, currency: 'USD' } });
      const seller: Seller = { parties, payments: [], enabled: true };
      for (const s of steps) {
        await take(s, seller);
        await check(seller);
      }
    }),
    { numRuns: 25, timeout: 30_000, endOnFailure: true, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}) },
  );
}, 400_000);
