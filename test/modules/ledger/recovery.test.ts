// What a seller owes after being paid, recovered from their next releases instead of lost
// (docs/ledger.md, "What sellers owe"): a refused reversal, a processor's own refund after release
// and a lost card dispute become `seller_debt` / a `dispute_lost` receivable; the next release keeps
// it first (`recovery`) and transfers only the rest; what is left after the mode's days is written
// off to platform_losses; `seller_debt_write_off_days: 0` keeps today's ledger (shortfall).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessorReport } from '../../../src/contracts/processor.js';
import { receiveProcessorReports } from '../../../src/flows/receive-processor-reports.js';
import { recoverOwed } from '../../../src/modules/ledger/index.js';
import type { Scope } from '../../../src/scope.js';
import { createBuyer, createPublishedListing, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { checkoutHelpers } from '../payments/checkout-helpers.js';
import { paymentHelpers } from '../payments/helpers.js';
import { expectError, ownerToken } from '../accounts/manage-helpers.js';
import { expectLedgerConsistent } from './ledger-checks.js';

let ctx: TestContext;
let scope: Scope;
const h = paymentHelpers(() => ctx);
const c = checkoutHelpers(() => ctx);
let n = 0;
const report = (reports: ProcessorReport[]) => receiveProcessorReports(ctx.services, scope, { provider: 'stripe', eventId: `evt_recovery_${++n}` }, reports);
const DAY = 86_400;

beforeAll(async () => {
  ctx = await startTestApp();
  scope = { marketplaceId: ctx.marketplaceId, mode: 'test' };
});
afterAll(() => ctx.close());
// An order of 1000 pays 1130 (fee 10 % + 30); the seller's share is 1000.
beforeEach(() => h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 1000, fixed_amount: 30 }, release_delay_seconds: 0, seller_debt_write_off_days: null }));

type Made = Awaited<ReturnType<typeof h.paid>>;

/** Another paid order of the same seller, buyer and listing. */
async function again(made: Made): Promise<Made> {
  const res = await h.post('/v1/orders', { buyer: made.buyer.id, listing: made.listing.id });
  expect(res.status, res.text).toBe(201);
  const paid = await h.ok(`/v1/test_helpers/payments/${res.body.payment}/succeed`);
  return { ...made, order: await h.getOrder(res.body.id), payment: paid };
}

/** Every line of `query`, oldest first, as [type, account (seller:… as "seller"), amount]. */
async function lines(query: string): Promise<Array<[string, string, number]>> {
  const page: Json = await h.get(`/v1/balance_transactions?${query}&limit=100`);
  expect(page.next_cursor).toBeNull();
  return page.data.reverse().map((line: Json) => [line.type, line.account.startsWith('seller:') ? 'seller' : line.account, line.amount]);
}

/** Every entry of the seller balances, each payment holds its targets, the balance adds up with owed. */
async function consistent(made: Made): Promise<void> {
  const lines: Json[] = (await h.get(`/v1/balance_transactions?seller=${made.seller.id}&limit=100`)).data;
  const payments = [...new Set(lines.map((line) => line.payment).filter((id): id is string => id !== null))];
  await expectLedgerConsistent(ctx, payments, [made.seller.id]);
}

const balance = (made: Made) => h.get(`/v1/sellers/${made.seller.id}/balance`);

/** A released order whose refund of 565 after release had its reversal of 500 refused: the seller owes 500. */
async function owing500(): Promise<Made> {
  const made = await h.paid();
  await h.complete(made);
  await h.payouts(made.seller.id, 'restricted');
  await h.refund({ payment: made.payment.id, amount: 565 });
  await h.payouts(made.seller.id, 'enabled');
  return made;
}

const dispute = (made: { payment: Json }, d: Json, status: string): ProcessorReport => ({
  type: 'card_dispute', dispute: d.processor.dispute, charge: made.payment.processor.charge, paymentIntent: made.payment.processor.payment_intent,
  amount: d.amount, reason: d.reason, status, evidenceDueBy: null,
});

describe('a refused reversal after release', () => {
  it('becomes seller_debt, recovered from the next release, which transfers only the rest', async () => {
    const first = await owing500();
    expect((await lines(`payment=${first.payment.id}`)).slice(6)).toEqual([
      ['refund', 'refunds_out', 565], ['refund', 'seller', -565],
      ['platform_fee_refund', 'platform_fees', -65], ['platform_fee_refund', 'seller', 65],
      ['seller_debt', 'seller_receivables', 500], ['seller_debt', 'seller', 500],
    ]);
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 1000, reversed: 0, owed: 500, net: 500 });

    const second = await again(first);
    await h.complete(second);
    const released = await h.payment(second.payment.id);
    expect(released.release).toMatchObject({ status: 'released', amount: 1000, recovered: 500 });
    expect(released.processor.transfer).not.toBeNull();
    expect(await lines(`payment=${second.payment.id}`)).toEqual([
      ['charge', 'buyer_funds', 1130], ['charge', 'seller', 1130],
      ['platform_fee', 'platform_fees', 130], ['platform_fee', 'seller', -130],
      ['recovery', 'seller', -500], ['recovery', 'seller_receivables', -500],
      ['transfer', 'transfers_out', 500], ['transfer', 'seller', -500],
    ]);
    const recovery = (await h.get(`/v1/balance_transactions?seller=${first.seller.id}&type=recovery`)).data;
    expect(recovery.map((line: Json) => line.source)).toEqual([second.payment.id, second.payment.id]);
    expect(recovery[0]).toMatchObject({ payment: second.payment.id, order: second.order.id });
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 1500, reversed: 0, owed: 0, net: 1500 });
    await consistent(first);
  });

  it('across two releases: a share smaller than the debt is kept whole (released with no transfer), the rest from the next one', async () => {
    const first = await owing500();
    const second = await again(first);
    await h.refund({ payment: second.payment.id, amount: 904 }); // before release: share 1000 − 800 = 200
    await h.complete(second);
    const kept = await h.payment(second.payment.id);
    expect(kept.release).toMatchObject({ status: 'released', amount: 200, recovered: 200, failure: null });
    expect(kept.processor.transfer).toBeNull();
    expect((await lines(`payment=${second.payment.id}&type=transfer`))).toEqual([]);
    const events = (await h.get('/v1/events?type=payment.released&limit=100')).data.filter((e: Json) => e.data.object.id === second.payment.id);
    expect(events).toHaveLength(1);
    expect(events[0].data.object.release).toMatchObject({ status: 'released', amount: 200, recovered: 200 });
    expect(await balance(first)).toMatchObject({ owed: 300, transferred: 1000 });

    const third = await again(first);
    await h.complete(third);
    expect((await h.payment(third.payment.id)).release).toMatchObject({ status: 'released', amount: 1000, recovered: 300 });
    expect(await lines(`payment=${third.payment.id}&account=transfers_out`)).toEqual([['transfer', 'transfers_out', 700]]);
    // 500 + 200 + 1000 earned; 1000 + 700 sent.
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 1700, reversed: 0, owed: 0, net: 1700 });
    await consistent(first);
  });

  it('two releases of the seller at once recover the debt once', async () => {
    const first = await owing500();
    // Each on a listing and buyer of its own, so nothing but the seller's debt is shared.
    const other = async () => again({ ...first, buyer: await createBuyer(ctx), listing: await createPublishedListing(ctx, { seller: first.seller.id, quantity: 5, price: { amount: 1000, currency: 'USD' } }) });
    const a = await other();
    const b = await other();
    for (const made of [a, b]) await h.ok(`/v1/orders/${made.order.id}/claim`, { actor: first.seller.id });
    await Promise.all([a, b].map((made) => h.ok(`/v1/orders/${made.order.id}/confirm`, { actor: made.buyer.id })));
    const kept = await Promise.all([a, b].map(async (made) => (await h.payment(made.payment.id)).release.recovered as number));
    expect(kept.sort((x, y) => x - y)).toEqual([0, 500]);
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 2500, owed: 0, net: 2500 });
    await consistent(first);
  });

  it('recoverOwed in two transactions at once recovers the debt once (the seller debt lock; a payout passes no payment)', async () => {
    const first = await owing500();
    const now = new Date(await h.testNow());
    const input = { seller: first.seller.id, currency: 'USD', upTo: 1000, source: { id: 'po_test_recovery', paymentId: null, orderId: null }, now };
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const pause = () => new Promise((resolve) => setTimeout(resolve, 300));
    const one = ctx.db.transaction(async (tx) => {
      const kept = await recoverOwed(tx, scope, input);
      await gate; // holds its transaction (and the lock) open while the other asks
      return kept;
    });
    await pause();
    const other = ctx.db.transaction((tx) => recoverOwed(tx, scope, input));
    await pause();
    open();
    expect([await one, await other].sort((x, y) => x - y)).toEqual([0, 500]);
    const lines = (await h.get(`/v1/balance_transactions?seller=${first.seller.id}&type=recovery`)).data;
    expect(lines.map((line: Json) => [line.source, line.payment, line.amount])).toEqual([['po_test_recovery', null, -500], ['po_test_recovery', null, -500]]);
    expect(await balance(first)).toMatchObject({ pending: -500, owed: 0 });
  });

  it('a release whose transfer fails after it kept part of the share owes it again (recovery_reversal); the retry recovers anew', async () => {
    const first = await owing500();
    const second = await again(first);
    await h.complete(second);
    const released = await h.payment(second.payment.id);
    await report([{ type: 'transfer_failed', transfer: released.processor.transfer, message: 'account closed' }]);
    expect((await h.payment(second.payment.id)).release).toMatchObject({ status: 'failed', amount: 1000, recovered: 0 });
    expect(await lines(`payment=${second.payment.id}&account=seller_receivables`)).toEqual([
      ['recovery', 'seller_receivables', -500], ['recovery_reversal', 'seller_receivables', 500],
    ]);
    expect(await balance(first)).toMatchObject({ pending: 1000, owed: 500 });
    await h.ok(`/v1/payments/${second.payment.id}/retry_release`);
    expect((await h.payment(second.payment.id)).release).toMatchObject({ status: 'released', amount: 1000, recovered: 500 });
    expect(await balance(first)).toMatchObject({ pending: 0, owed: 0, transferred: 2000, reversed: 500, net: 1500 });
    await consistent(first);
  });

  it('a refund of a release that kept the seller debt: the transfer reversed is at most what was sent, the kept part owed again', async () => {
    const first = await owing500();
    const second = await again(first);
    await h.complete(second); // kept 500, sent 500
    const refund = await h.refund({ payment: second.payment.id, amount: 1130 });
    expect(await h.get(`/v1/refunds/${refund.id}`)).toMatchObject({ status: 'succeeded', transfer_reversal: { amount: 500, status: 'succeeded' } });
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 1500, reversed: 500, owed: 500, net: 500 });
    await consistent(first);
  });
});

describe("a processor's own refund after release and a lost card dispute", () => {
  it("the waived share of a dashboard refund is owed and recovered", async () => {
    const first = await h.paid();
    await h.complete(first);
    await h.ok(`/v1/test_helpers/payments/${first.payment.id}/processor_refund`, { amount: 500 });
    expect(await lines(`payment=${first.payment.id}&type=seller_debt`)).toEqual([['seller_debt', 'seller_receivables', 442], ['seller_debt', 'seller', 442]]);
    const second = await again(first);
    await h.complete(second);
    expect(await lines(`payment=${second.payment.id}&account=transfers_out`)).toEqual([['transfer', 'transfers_out', 558]]);
    expect(await balance(first)).toMatchObject({ owed: 0, transferred: 1558, net: 1558 });
  });

  it("a lost dispute: the seller owes their share of it (the fee's part goes back on platform_fees), recovered whole from the next release", async () => {
    const first = await h.paid();
    await h.complete(first);
    const d = await h.ok(`/v1/test_helpers/payments/${first.payment.id}/card_dispute`, {});
    await report([dispute(first, d, 'lost')]);
    await report([dispute(first, d, 'lost')]); // written once
    expect((await lines(`payment=${first.payment.id}`)).filter(([type]) => type.startsWith('dispute'))).toEqual([
      ['dispute', 'buyer_funds', -1130], ['dispute', 'disputes', 1130],
      ['dispute_lost', 'disputes', -1130], ['dispute_lost', 'seller_receivables', 1000], ['dispute_lost', 'platform_fees', -130],
    ]);
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 1000, owed: 1000, net: 0 });
    const second = await again(first);
    await h.complete(second);
    const kept = await h.payment(second.payment.id);
    expect(kept.release).toMatchObject({ status: 'released', amount: 1000, recovered: 1000 });
    expect(kept.processor.transfer).toBeNull();
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 1000, owed: 0, net: 1000 });
    expect(await lines(`account=platform_losses&seller=${first.seller.id}`)).toEqual([]);
    // A refund of the release the debt kept whole has no transfer to reverse: the kept part is owed again.
    const refund = await h.refund({ payment: second.payment.id, amount: 565 });
    expect(await h.get(`/v1/refunds/${refund.id}`)).toMatchObject({ status: 'succeeded', transfer_reversal: null });
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 1000, owed: 500, net: 500 });
    await consistent(first);
  });

  it("a lost dispute on a checkout's charge: each share's seller owes their part, split by the shares' amounts", async () => {
    const checkout = await c.paidCheckout([{ price: 1000 }, { price: 2000 }]); // 1130 + 2230
    const d = await h.ok(`/v1/test_helpers/payments/${checkout.charge.id}/card_dispute`, {});
    expect(d.amount).toBe(3360);
    await report([dispute({ payment: checkout.charge }, d, 'lost')]);
    await report([dispute({ payment: checkout.charge }, d, 'lost')]); // written once
    expect(await lines(`payment=${checkout.shares[0]!.id}&type=dispute_lost`)).toEqual([
      ['dispute_lost', 'disputes', -1130], ['dispute_lost', 'seller_receivables', 1000], ['dispute_lost', 'platform_fees', -130],
    ]);
    expect(await lines(`payment=${checkout.shares[1]!.id}&type=dispute_lost`)).toEqual([
      ['dispute_lost', 'disputes', -2230], ['dispute_lost', 'seller_receivables', 2000], ['dispute_lost', 'platform_fees', -230],
    ]);
    expect(await lines(`payment=${checkout.charge.id}`)).toEqual([['dispute', 'buyer_funds', -3360], ['dispute', 'disputes', 3360]]);
    expect(await h.get(`/v1/sellers/${checkout.sellers[1]!.id}/balance`)).toMatchObject({ pending: 2000, owed: 2000, net: 0 });
    // The share's own release pays it: released with nothing sent.
    await c.completeOrder(checkout, 1);
    expect((await h.payment(checkout.shares[1]!.id)).release).toMatchObject({ status: 'released', amount: 2000, recovered: 2000 });
    expect(await h.get(`/v1/sellers/${checkout.sellers[1]!.id}/balance`)).toMatchObject({ pending: 0, transferred: 0, owed: 0, net: 0 });
  });
});

describe('write-off (seller_debt_write_off_days)', () => {
  it("what is still owed the setting's days after it arose goes to platform_losses, on the test clock", async () => {
    await h.setSettings({ seller_debt_write_off_days: 3 });
    const first = await owing500();
    await h.advance(3 * DAY - 60);
    expect(await balance(first)).toMatchObject({ owed: 500 });
    await h.advance(120);
    expect(await lines(`seller=${first.seller.id}&type=seller_debt_write_off`)).toEqual([
      ['seller_debt_write_off', 'seller_receivables', -500], ['seller_debt_write_off', 'platform_losses', 500],
    ]);
    const line = (await h.get(`/v1/balance_transactions?seller=${first.seller.id}&type=seller_debt_write_off`)).data[0];
    expect(line).toMatchObject({ payment: null, order: null, source: first.seller.id, seller: first.seller.id });
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 1000, owed: 0, net: 1000 });
    // Nothing is left to recover: the next release sends the whole share.
    const second = await again(first);
    await h.complete(second);
    expect((await h.payment(second.payment.id)).release).toMatchObject({ status: 'released', amount: 1000, recovered: 0 });
    await consistent(first);
  });

  it('only what was not recovered is written off', async () => {
    await h.setSettings({ seller_debt_write_off_days: 2 });
    const first = await owing500();
    const second = await again(first);
    await h.refund({ payment: second.payment.id, amount: 904 }); // share 200
    await h.complete(second);
    await h.advance(2 * DAY + 60);
    expect(await lines(`seller=${first.seller.id}&account=platform_losses`)).toEqual([['seller_debt_write_off', 'platform_losses', 300]]);
    expect(await balance(first)).toMatchObject({ owed: 0 });
  });

  it("0 (the default) keeps today's ledger: the platform bears it at once (shortfall, dispute_lost to platform_losses), nothing is recovered", async () => {
    await h.setSettings({ seller_debt_write_off_days: 0 });
    const first = await owing500();
    expect((await lines(`payment=${first.payment.id}`)).slice(10)).toEqual([['shortfall', 'platform_losses', 500], ['shortfall', 'seller', 500]]);
    const d = await h.ok(`/v1/test_helpers/payments/${first.payment.id}/card_dispute`, { amount: 565 });
    await report([dispute(first, d, 'lost')]);
    expect(await lines(`payment=${first.payment.id}&type=dispute_lost`)).toEqual([['dispute_lost', 'disputes', -565], ['dispute_lost', 'platform_losses', 565]]);
    expect(await balance(first)).toMatchObject({ pending: 0, transferred: 1000, reversed: 0, owed: 0, net: 1000 });
    const second = await again(first);
    await h.complete(second);
    expect((await h.payment(second.payment.id)).release).toMatchObject({ status: 'released', amount: 1000, recovered: 0 });
    expect(await lines(`payment=${second.payment.id}&account=transfers_out`)).toEqual([['transfer', 'transfers_out', 1000]]);
  });

  it('the setting is validated: a whole number of days 0 to 3650, or null', async () => {
    const owner = await ownerToken(ctx);
    const path = `/manage/v1/marketplaces/${ctx.marketplaceId}/modes/test/settings`;
    for (const bad of [-1, 3651, 1.5, '3']) {
      expectError(await ctx.request(path, { method: 'PATCH', key: owner, body: { seller_debt_write_off_days: bad } }), 400, 'invalid_request', 'seller_debt_write_off_days');
    }
    for (const good of [30, null, 0]) {
      const res = await ctx.request(path, { method: 'PATCH', key: owner, body: { seller_debt_write_off_days: good } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.seller_debt_write_off_days).toBe(good);
    }
  });
});
