// Every entry type of the ledger through the HTTP API (docs/ledger.md): each move of a payment,
// refund, release or card dispute writes its balanced entries in the move's transaction.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessorReport } from '../../../src/contracts/processor.js';
import { receiveProcessorReports } from '../../../src/flows/receive-processor-reports.js';
import type { Scope } from '../../../src/scope.js';
import type { Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { checkoutHelpers } from '../payments/checkout-helpers.js';
import { paymentHelpers } from '../payments/helpers.js';

let ctx: TestContext;
let scope: Scope;
const h = paymentHelpers(() => ctx);
const c = checkoutHelpers(() => ctx);
let n = 0;
const report = (reports: ProcessorReport[]) => receiveProcessorReports(ctx.services, scope, { provider: 'stripe', eventId: `evt_ledger_${++n}` }, reports);

beforeAll(async () => {
  ctx = await startTestApp();
  scope = { marketplaceId: ctx.marketplaceId, mode: 'test' };
});
afterAll(() => ctx.close());
beforeEach(() => h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 1000, fixed_amount: 30 }, release_delay_seconds: 0 }));

/** Every line of `query`, oldest first, as [type, account (seller:… as "seller"), amount]. */
async function lines(query: string): Promise<Array<[string, string, number]>> {
  const all: Json[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = await h.get(`/v1/balance_transactions?${query}&limit=100${cursor ? `&starting_after=${cursor}` : ''}`);
    all.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return all.reverse().map((line) => [line.type, line.account.startsWith('seller:') ? 'seller' : line.account, line.amount]);
}

/** Each journal entry's lines balance: debits (buyer_funds, disputes, platform_losses) = credits. */
async function expectBalanced(query: string) {
  const page = await h.get(`/v1/balance_transactions?${query}&limit=100`);
  const byEntry = new Map<string, number>();
  for (const line of page.data) {
    const signed = ['buyer_funds', 'disputes', 'platform_losses'].includes(line.account) ? line.amount : -line.amount;
    byEntry.set(line.entry, (byEntry.get(line.entry) ?? 0) + signed);
  }
  for (const sum of byEntry.values()) expect(sum).toBe(0);
}

const dispute = (made: { payment: Json }, d: Json, status: string): ProcessorReport => ({
  type: 'card_dispute', dispute: d.processor.dispute, charge: made.payment.processor.charge, paymentIntent: made.payment.processor.payment_intent,
  amount: d.amount, reason: d.reason, status, evidenceDueBy: null,
});

describe('an order payment life (docs/payments.md example: 4613 = 4500 + 113)', () => {
  it('pay, refund before release, release, refund after release, card dispute lost; the seller balance', async () => {
    await h.setSettings({ platform_fee: { percent_bps: 250, fixed_amount: 0 } });
    const made = await h.paid({}, { price: { amount: 4500, currency: 'USD' } });
    expect(made.payment).toMatchObject({ amount: 4613, fee_amount: 113 });
    await h.refund({ order: made.order.id, amount: 1153 });
    await h.complete(made);
    await h.refund({ order: made.order.id, amount: 2000 });
    const d = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/card_dispute`, {});
    await report([dispute(made, d, 'lost')]);
    await report([dispute(made, d, 'lost')]); // a second report of the same status writes nothing
    expect(await lines(`order=${made.order.id}`)).toEqual([
      ['charge', 'buyer_funds', 4613], ['charge', 'seller', 4613],
      ['platform_fee', 'platform_fees', 113], ['platform_fee', 'seller', -113],
      ['refund', 'refunds_out', 1153], ['refund', 'seller', -1153],
      ['platform_fee_refund', 'platform_fees', -28], ['platform_fee_refund', 'seller', 28],
      ['transfer', 'transfers_out', 3375], ['transfer', 'seller', -3375],
      ['transfer_reversal', 'transfers_out', -1951], ['transfer_reversal', 'seller', 1951],
      ['refund', 'refunds_out', 2000], ['refund', 'seller', -2000],
      ['platform_fee_refund', 'platform_fees', -49], ['platform_fee_refund', 'seller', 49],
      ['dispute', 'buyer_funds', -4613], ['dispute', 'disputes', 4613],
      ['dispute_lost', 'disputes', -4613], ['dispute_lost', 'platform_losses', 4613],
    ]);
    await expectBalanced(`order=${made.order.id}`);
    expect(await h.get(`/v1/sellers/${made.seller.id}/balance`)).toEqual({
      object: 'seller_balance', seller: made.seller.id, currency: 'USD', pending: 0, available: 0, transferred: 3375, reversed: 1951, paid_out: 0, owed: 0, net: 1424, next_payout_at: null, livemode: false,
    });
    const charge = (await h.get(`/v1/balance_transactions?order=${made.order.id}&type=charge`)).data;
    expect(charge[0]).toMatchObject({ object: 'balance_transaction', source: made.payment.id, payment: made.payment.id, order: made.order.id, seller: made.seller.id, currency: 'USD' });
    expect(charge[0].processor_reference).toBe(made.payment.processor.charge ?? made.payment.processor.payment_intent);
    expect(charge[0].id).toMatch(/^btx_/);
    expect(charge[0].entry).toMatch(/^jrn_/);
  });
});

describe('each entry type', () => {
  it('a card dispute won gives the funds back to buyer_funds', async () => {
    const made = await h.paid();
    const d = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/card_dispute`, { amount: 500 });
    await report([dispute(made, d, 'under_review')]);
    await report([dispute(made, d, 'won')]);
    const disputeLines = await lines(`payment=${made.payment.id}`);
    expect(disputeLines.filter(([type]) => type.startsWith('dispute'))).toEqual([
      ['dispute', 'buyer_funds', -500], ['dispute', 'disputes', 500], ['dispute_won', 'disputes', -500], ['dispute_won', 'buyer_funds', 500],
    ]);
    const line = (await h.get(`/v1/balance_transactions?payment=${made.payment.id}&type=dispute_won`)).data[0];
    expect(line).toMatchObject({ source: d.id, processor_reference: d.processor.dispute });
  });

  it('a reversal refused after release: the refund is made and the platform bears the seller part (shortfall)', async () => {
    const made = await h.paid(); // 1130 = 1000 + 130
    await h.complete(made);
    await h.payouts(made.seller.id, 'restricted');
    const refund = await h.refund({ payment: made.payment.id, amount: 565 });
    expect((await lines(`payment=${made.payment.id}`)).slice(6)).toEqual([
      ['refund', 'refunds_out', 565], ['refund', 'seller', -565],
      ['platform_fee_refund', 'platform_fees', -65], ['platform_fee_refund', 'seller', 65],
      ['shortfall', 'platform_losses', 500], ['shortfall', 'seller', 500],
    ]);
    expect((await h.get(`/v1/balance_transactions?payment=${made.payment.id}&type=shortfall`)).data[0].source).toBe(refund.id);
    expect(await h.get(`/v1/sellers/${made.seller.id}/balance`)).toMatchObject({ pending: 0, transferred: 1000, reversed: 0, net: 1000 });
  });

  it("a processor's own refund after release is waived: a shortfall of the seller's share", async () => {
    const made = await h.paid();
    await h.complete(made);
    await h.ok(`/v1/test_helpers/payments/${made.payment.id}/processor_refund`, { amount: 500 });
    expect((await lines(`payment=${made.payment.id}`)).slice(6)).toEqual([
      ['refund', 'refunds_out', 500], ['refund', 'seller', -500],
      ['platform_fee_refund', 'platform_fees', -58], ['platform_fee_refund', 'seller', 58],
      ['shortfall', 'platform_losses', 442], ['shortfall', 'seller', 442],
    ]);
  });

  it('a refund failing after it succeeded (its reversal made): refund_failure, the fee back, the seller owed the reversed part', async () => {
    const made = await h.paid();
    await h.complete(made);
    const refund = await h.refund({ payment: made.payment.id, amount: 226 });
    const settled = await h.get(`/v1/refunds/${refund.id}`);
    expect(settled).toMatchObject({ status: 'succeeded', transfer_reversal: { amount: 200, status: 'succeeded' } });
    await report([{ type: 'refund_updated', paymentIntent: null, charge: null, refund: settled.processor.refund, amount: 226, status: 'failed', failureReason: 'expired_or_canceled_card', refundId: refund.id }]);
    expect((await lines(`payment=${made.payment.id}`)).slice(12)).toEqual([
      ['platform_fee', 'platform_fees', 26], ['platform_fee', 'seller', -26],
      ['refund_failure', 'refunds_out', -226], ['refund_failure', 'seller', 226],
    ]);
    expect(await h.get(`/v1/sellers/${made.seller.id}/balance`)).toMatchObject({ pending: 200, transferred: 1000, reversed: 200, net: 1000 });
  });

  it('a release failing after it was made: transfer_failure, the seller owed the share again', async () => {
    const made = await h.paid();
    await h.complete(made);
    const released = await h.payment(made.payment.id);
    await report([{ type: 'transfer_failed', transfer: released.processor.transfer, message: 'account closed' }]);
    const failure = (await h.get(`/v1/balance_transactions?payment=${made.payment.id}&type=transfer_failure`)).data;
    expect(failure.map((line: Json) => [line.account.startsWith('seller:') ? 'seller' : line.account, line.amount]).sort()).toEqual([['seller', 1000], ['transfers_out', -1000]]);
    expect(failure[0]).toMatchObject({ source: made.payment.id, processor_reference: released.processor.transfer });
    expect(await h.get(`/v1/sellers/${made.seller.id}/balance`)).toMatchObject({ pending: 1000, transferred: 1000, reversed: 1000, net: 1000 });
  });

  it('a late payment: charged, then refunded in full with its fee', async () => {
    const { order, payment } = await h.unpaid();
    await h.advance(1801);
    await h.ok(`/v1/test_helpers/payments/${payment.id}/succeed`);
    expect(await lines(`order=${order.id}`)).toEqual([
      ['charge', 'buyer_funds', 1130], ['charge', 'seller', 1130],
      ['platform_fee', 'platform_fees', 130], ['platform_fee', 'seller', -130],
      ['refund', 'refunds_out', 1130], ['refund', 'seller', -1130],
      ['platform_fee_refund', 'platform_fees', -130], ['platform_fee_refund', 'seller', 130],
    ]);
  });

  it("a checkout over two sellers: each share's charge and fee, naming the charge's processor id", async () => {
    const checkout = await c.paidCheckout([{ price: 1000 }, { price: 2000 }]);
    const first = await lines(`order=${checkout.orders[0]!.id}`);
    const second = await lines(`order=${checkout.orders[1]!.id}`);
    expect(first).toEqual([['charge', 'buyer_funds', 1130], ['charge', 'seller', 1130], ['platform_fee', 'platform_fees', 130], ['platform_fee', 'seller', -130]]);
    expect(second).toEqual([['charge', 'buyer_funds', 2230], ['charge', 'seller', 2230], ['platform_fee', 'platform_fees', 230], ['platform_fee', 'seller', -230]]);
    const line = (await h.get(`/v1/balance_transactions?seller=${checkout.sellers[1]!.id}&type=charge`)).data[0];
    expect(line).toMatchObject({ payment: checkout.shares[1]!.id, seller: checkout.sellers[1]!.id });
    expect(line.processor_reference).toBe(checkout.charge.processor.charge ?? checkout.charge.processor.payment_intent);
    expect(await h.get(`/v1/sellers/${checkout.sellers[0]!.id}/balance`)).toMatchObject({ pending: 1000, transferred: 0 });
  });
});

describe('the API', () => {
  it('filters, pages newest first, retrieves; 404 for unknown ids and sellers; cursor of another kind refused', async () => {
    const made = await h.paid();
    const all = await h.get(`/v1/balance_transactions?seller=${made.seller.id}`);
    expect(all.data).toHaveLength(4);
    expect(all.data.map((line: Json) => line.id)).toEqual([...all.data.map((line: Json) => line.id)].sort().reverse());
    const first = await h.get(`/v1/balance_transactions?seller=${made.seller.id}&limit=3`);
    expect(first).toMatchObject({ has_more: true, next_cursor: first.data[2].id });
    const rest = await h.get(`/v1/balance_transactions?seller=${made.seller.id}&limit=3&starting_after=${first.next_cursor}`);
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    expect([...first.data, ...rest.data].map((line: Json) => line.id)).toEqual(all.data.map((line: Json) => line.id));
    expect((await h.get(`/v1/balance_transactions?account=seller:${made.seller.id}`)).data).toHaveLength(2);
    expect((await h.get(`/v1/balance_transactions?order=${made.order.id}&type=platform_fee&account=platform_fees`)).data.map((l: Json) => l.amount)).toEqual([130]);
    const created = Math.floor(Date.parse(all.data[0].created) / 1000);
    expect((await h.get(`/v1/balance_transactions?seller=${made.seller.id}&created[gte]=${created}&created[lte]=${created + 1}`)).data).toHaveLength(4);
    expect((await h.get(`/v1/balance_transactions?seller=${made.seller.id}&created[gte]=${created + 2}`)).data).toHaveLength(0);
    expect((await h.get(`/v1/balance_transactions?seller=${made.seller.id}&created[lte]=${created - 1}`)).data).toHaveLength(0);
    expect(await h.get(`/v1/balance_transactions/${all.data[0].id}`)).toEqual(all.data[0]);
    expect((await ctx.request('/v1/balance_transactions/btx_01jd00000000000000000000zz')).body.error.code).toBe('resource_missing');
    expect((await ctx.request('/v1/sellers/sel_01jd00000000000000000000zz/balance')).status).toBe(404);
    expect((await ctx.request(`/v1/balance_transactions?starting_after=${made.order.id}`)).status).toBe(400);
    expect((await ctx.request('/v1/balance_transactions?type=bogus')).status).toBe(400);
    expect((await ctx.request('/v1/balance_transactions', { key: ctx.keys.test.publishable_key })).status).toBe(403);
  });
});
