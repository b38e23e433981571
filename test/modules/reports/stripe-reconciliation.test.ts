// The reconciliation report of a mode connected to Stripe: the real SDK lists the fake Stripe
// server's balance transactions and transfers (with their reversals), and the report lists each
// difference planted there; a Stripe that cannot be reached fails the report (report.failed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents } from '../../helpers/factories.js';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { stripeMode } from '../payments/stripe-helpers.js';
import { builtReport, download, pairWithSeller, parseCsv, plant } from './helpers.js';

let ctx: TestContext;
let fake: FakeStripe;
const stripe = stripeMode(() => ctx, () => fake);

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await startTestApp({ env: { STRIPE_API_URL: fake.url } });
  await stripe.connect();
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const nowS = () => Math.floor(Date.now() / 1000);

describe('reconciliation with Stripe', () => {
  it("lists the differences between the ledger and Stripe's balance transactions and transfers", async () => {
    const live = ctx.keys.live.secret_key;
    const seller = 'sel_0000000000000000000000recon';
    const part = { paymentId: 'pay_stripe', orderId: 'ord_stripe', sellerId: seller, sourceId: 'pay_stripe' };
    const at = new Date().toISOString();
    // The ledger: a charge, a refund, a transfer and its reversal, a card dispute's withdrawal.
    await plant(ctx, at, { type: 'charge', processorRef: 'ch_matched', ...part, lines: pairWithSeller(seller, 'buyer_funds', 1130) }, 'live');
    await plant(ctx, at, { type: 'refund', processorRef: 're_matched', ...part, sourceId: 'ref_s', lines: pairWithSeller(seller, 'refunds_out', 300) }, 'live');
    await plant(ctx, at, { type: 'transfer', processorRef: 'tr_differs', ...part, lines: pairWithSeller(seller, 'transfers_out', 1000) }, 'live');
    await plant(ctx, at, { type: 'transfer_reversal', processorRef: 'trr_matched', ...part, sourceId: 'ref_s', lines: pairWithSeller(seller, 'transfers_out', -200) }, 'live');
    await plant(ctx, at, {
      type: 'dispute', processorRef: 'dp_unknown', ...part, sourceId: 'cdp_s',
      lines: [{ account: 'buyer_funds', amount: -500 }, { account: 'disputes', amount: 500 }],
    }, 'live');
    // Stripe: the same charge, refund and reversal; the transfer with another amount; a refund the ledger lacks; no dispute.
    fake.plantBalanceTransaction({ type: 'charge', source: 'ch_matched', amount: 1130 });
    fake.plantBalanceTransaction({ type: 'refund', source: 're_matched', amount: -300 });
    fake.plantBalanceTransaction({ type: 'refund', source: 're_stray', amount: -99 });
    fake.plantBalanceTransaction({ type: 'payout', source: 'po_ignored', amount: -5000 });
    const reversal = { id: 'trr_matched', object: 'transfer_reversal', amount: 200, currency: 'usd', created: nowS(), transfer: 'tr_differs' };
    fake.objects.set('tr_differs', {
      id: 'tr_differs', object: 'transfer', amount: 900, amount_reversed: 200, currency: 'usd', created: nowS(), destination: 'acct_x',
      reversals: { object: 'list', data: [reversal], has_more: false, url: '/v1/transfers/tr_differs/reversals' },
    });
    const interval = { interval_start: nowS() - 3600, interval_end: nowS() + 3600 };
    const report = await builtReport(ctx, { type: 'reconciliation', ...interval }, 'succeeded', live);
    expect(parseCsv((await download(ctx, report.file.url)).text)).toEqual([
      ['reference', 'type', 'kind', 'ours_amount', 'ours_currency', 'theirs_amount', 'theirs_currency'],
      ['dp_unknown', 'dispute', 'missing_at_processor', '500', 'usd', '', ''],
      ['re_stray', 'refund', 'missing_in_ledger', '', '', '99', 'usd'],
      ['tr_differs', 'transfer', 'amount_differs', '1000', 'usd', '900', 'usd'],
    ]);
    expect(fake.violations).toEqual([]);
    const listed = fake.requestsOf('balance_transactions_list')[0]!;
    expect(listed.params).toMatchObject({ created: { gte: String(interval.interval_start), lt: String(interval.interval_end) }, limit: '100' });
  });

  it('fails the report when Stripe cannot be reached: report.failed with the reason', async () => {
    const live = ctx.keys.live.secret_key;
    // Every connection dropped (Node's agent tries a dropped keep-alive connection once more by itself).
    fake.failNext('balance_transactions_list', { drop: true, times: 5 });
    const report = await builtReport(ctx, { type: 'reconciliation', interval_start: nowS() - 60, interval_end: nowS() + 60 }, 'failed', live);
    expect(report.file).toBeNull();
    expect(report.failure).toMatch(/\w/);
    expect(report.completed_at).not.toBeNull();
    const events = await ctx.db.query<{ type: string }>('SELECT type FROM events WHERE object_id = $1 ORDER BY id', [report.id]);
    expect(events.map((e) => e.type)).toEqual(['report.failed']);
    expect(await storedEvents(ctx, report.id)).toHaveLength(1);
  });
});
