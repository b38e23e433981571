// Reports after a real life on the simulated processor (docs/payments.md's 4613 = 4500 + 113):
// pay, refund before release, release, refund after release (a reversal), a card dispute lost.
// The ledger is written by the payments module's moves and the simulated processor keeps its own
// books as it charges, refunds, transfers, reverses and reports the dispute: the reconciliation
// finds them in agreement, then finds a difference planted in the books.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessorReport } from '../../../src/contracts/processor.js';
import { receiveProcessorReports } from '../../../src/flows/receive-processor-reports.js';
import type { Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { paymentHelpers } from '../payments/helpers.js';
import { builtReport, download, parseCsv } from './helpers.js';

let ctx: TestContext;
const h = paymentHelpers(() => ctx);
let made: Json;
let interval: { interval_start: number; interval_end: number };

beforeAll(async () => {
  ctx = await startTestApp();
  await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 250, fixed_amount: 0 }, release_delay_seconds: 0 });
  made = await h.paid({}, { price: { amount: 4500, currency: 'USD' } });
  await h.refund({ order: made.order.id, amount: 1153 });
  await h.complete(made);
  await h.refund({ order: made.order.id, amount: 2000 });
  const d = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/card_dispute`, {});
  const lost: ProcessorReport = {
    type: 'card_dispute', dispute: d.processor.dispute, charge: made.payment.processor.charge, paymentIntent: made.payment.processor.payment_intent,
    amount: d.amount, reason: d.reason, status: 'lost', evidenceDueBy: null,
  };
  await receiveProcessorReports(ctx.services, { marketplaceId: ctx.marketplaceId, mode: 'test' }, { provider: 'simulated', eventId: 'evt_report_life' }, [lost]);
  const now = Math.floor((await h.testNow()) / 1000);
  interval = { interval_start: now - 86_400, interval_end: now + 86_400 };
});
afterAll(() => ctx.close());

describe('reports of a payment life', () => {
  it('balance_summary: every account of the life, balanced', async () => {
    const report = await builtReport(ctx, { type: 'balance_summary', ...interval });
    expect(parseCsv((await download(ctx, report.file.url)).text)).toEqual([
      ['account', 'currency', 'opening_balance', 'movements_in', 'movements_out', 'closing_balance'],
      ['buyer_funds', 'USD', '0', '4613', '4613', '0'],
      ['disputes', 'USD', '0', '4613', '4613', '0'],
      ['platform_fees', 'USD', '0', '113', '77', '36'],
      ['platform_losses', 'USD', '0', '4613', '0', '4613'],
      ['refunds_out', 'USD', '0', '3153', '0', '3153'],
      [`seller:${made.seller.id}`, 'USD', '0', '6641', '6641', '0'],
      ['transfers_out', 'USD', '0', '3375', '1951', '1424'],
    ]);
  });

  it("seller_statement: the seller's lines close at the balance the API reports", async () => {
    const report = await builtReport(ctx, { type: 'seller_statement', seller: made.seller.id, ...interval });
    const rows = parseCsv((await download(ctx, report.file.url)).text).slice(1);
    expect(rows.map((r) => [r[2], r[3], r[7]])).toEqual([
      ['opening_balance', '', '0'],
      ['charge', '4613', '4613'],
      ['platform_fee', '-113', '4500'],
      ['refund', '-1153', '3347'],
      ['platform_fee_refund', '28', '3375'],
      ['transfer', '-3375', '0'],
      ['transfer_reversal', '1951', '1951'],
      ['refund', '-2000', '-49'],
      ['platform_fee_refund', '49', '0'],
      ['closing_balance', '', '0'],
    ]);
    expect(rows.slice(1, -1).every((r) => r[6] === made.order.id && r[1]!.startsWith('btx_'))).toBe(true);
    expect((await h.get(`/v1/sellers/${made.seller.id}/balance`)).pending).toBe(0);
  });

  it('platform_fees: the fees kept, net of refunds, on the day', async () => {
    const report = await builtReport(ctx, { type: 'platform_fees', ...interval });
    const rows = parseCsv((await download(ctx, report.file.url)).text);
    expect(rows[0]).toEqual(['day', 'category', 'fees', 'currency']);
    expect(rows.slice(1).map((r) => r.slice(1))).toEqual([['', '36', 'USD']]);
  });

  it("reconciliation: the simulated processor's books agree with the ledger; a planted difference is found", async () => {
    const books = await ctx.db.query<{ type: string; amount: number }>(
      'SELECT type, amount FROM simulated_processor_records WHERE marketplace_id = $1 AND mode = $2 ORDER BY created_at, reference',
      [ctx.marketplaceId, 'test'],
    );
    expect(books.map((b) => [b.type, Number(b.amount)]).sort()).toEqual([['charge', 4613], ['dispute', 4613], ['refund', 1153], ['refund', 2000], ['transfer', 3375], ['transfer_reversal', 1951]].sort());
    const clean = await builtReport(ctx, { type: 'reconciliation', ...interval });
    expect(clean.file.rows).toBe(0);
    expect((await download(ctx, clean.file.url)).text).toBe('reference,type,kind,ours_amount,ours_currency,theirs_amount,theirs_currency\r\n');

    // The processor's books say the transfer was 1 cent more.
    await ctx.db.query("UPDATE simulated_processor_records SET amount = amount + 1 WHERE marketplace_id = $1 AND mode = 'test' AND type = 'transfer'", [ctx.marketplaceId]);
    const planted = await builtReport(ctx, { type: 'reconciliation', ...interval });
    const payment = await h.payment(made.payment.id);
    expect(parseCsv((await download(ctx, planted.file.url)).text).slice(1)).toEqual([
      [payment.release.transfer ?? expect.stringMatching(/^tr_sim_/), 'transfer', 'amount_differs', '3375', 'usd', '3376', 'usd'],
    ]);
  });
});
