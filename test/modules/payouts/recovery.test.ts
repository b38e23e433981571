// What a seller owes, recovered from their next payout (docs/payouts.md "What the seller owes",
// docs/ledger.md "What sellers owe"): a refused reversal after a per_order release leaves a debt;
// the seller then paid on a schedule has it kept from their available balance (a `recovery` line on
// the payout), a failed payout gives it back, and a balance the debt takes whole pays nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectLedgerConsistent } from '../ledger/ledger-checks.js';
import { payoutHelpers } from './helpers.js';

let ctx: TestContext;
const h = payoutHelpers(() => ctx);

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  // Order of 1000 at a fee of 10 % + 30: the buyer pays 1130, the seller's share is 1000. Debts are kept, never written off.
  await h.setSettings({
    payments_enabled: true,
    platform_fee: { percent_bps: 1000, fixed_amount: 30 },
    release_delay_seconds: 0,
    payout_schedule: { method: 'per_order' },
    seller_debt_write_off_days: null,
  });
});

type Parties = Awaited<ReturnType<typeof h.parties>>;

/** A per_order seller's order released (1000 transferred), then refunded by `refund` with the reversal refused: the seller owes its share part. */
async function owingSeller(refund: number): Promise<Parties> {
  const parties = await h.parties({ price: { amount: 1000, currency: 'USD' }, quantity: 50 });
  const { payment } = await h.completedOrder(parties);
  expect(payment.release).toMatchObject({ status: 'released', amount: 1000 });
  await h.payouts(parties.seller.id, 'restricted');
  await h.refund({ payment: payment.id, amount: refund });
  await h.payouts(parties.seller.id, 'enabled');
  return parties;
}

/** The seller's ledger lines of `type`, as [account (seller_available:… as "available"), amount, source]. */
async function linesOf(sellerId: string, type: string): Promise<Array<[string, number, string]>> {
  const page: Json = await h.get(`/v1/balance_transactions?seller=${sellerId}&type=${type}&limit=100`);
  return page.data.reverse().map((line: Json) => [line.account.startsWith('seller_available:') ? 'available' : line.account, line.amount, line.source]);
}

async function consistent(sellerId: string): Promise<void> {
  const lines: Json[] = (await h.get(`/v1/balance_transactions?seller=${sellerId}&limit=100`)).data;
  const payments = [...new Set(lines.map((line) => line.payment).filter((id): id is string => id !== null))];
  await expectLedgerConsistent(ctx, payments, [sellerId]);
}

describe('a scheduled seller who owes', () => {
  it('is paid available − owed by the run, the recovery on the payout lines; a failed payout owes it again, the next pays it anew', async () => {
    await h.toHourOfNextDay(10);
    const parties = await owingSeller(565);
    const seller = parties.seller.id;
    expect(await h.balance(seller)).toMatchObject({ transferred: 1000, owed: 500, net: 500 });

    await h.put(`/v1/sellers/${seller}/payout_schedule`, { method: 'scheduled', interval: 'daily', delay_days: 0 });
    await h.completedOrder(parties);
    expect(await h.balance(seller)).toMatchObject({ pending: 0, available: 1000, owed: 500, net: 1500 });

    await h.toHourOfNextDay(2);
    const [payout] = await h.payoutsOf(seller);
    expect(payout).toMatchObject({ amount: 500, status: 'paid', automatic: true });
    const lines = await h.lines(payout.id);
    expect(lines.map((line) => [line.type, line.ledger_type, line.amount])).toEqual([
      ['order_share', 'share_available', 1000],
      ['recovery', 'recovery', -500],
    ]);
    expect(lines.reduce((sum, line) => sum + line.amount, 0)).toBe(payout.amount);
    expect(await linesOf(seller, 'recovery')).toEqual([['available', -500, payout.id], ['seller_receivables', -500, payout.id]]);
    expect(await h.balance(seller)).toMatchObject({ pending: 0, available: 0, paid_out: 500, owed: 0, net: 1500 });
    await consistent(seller);

    // The bank returns it: the payout's 500 back to available, and the 500 it kept owed again.
    await h.ok(`/v1/test_helpers/payouts/${payout.id}/fail`, { message: 'The bank returned it.' });
    expect(await linesOf(seller, 'recovery_reversal')).toEqual([['available', 500, payout.id], ['seller_receivables', 500, payout.id]]);
    expect(await h.balance(seller)).toMatchObject({ available: 1000, paid_out: 0, owed: 500, net: 1500 });
    await consistent(seller);

    // The next run recovers anew and pays the rest; the failed payout's lines come with it (they sum to 0 but the share).
    await h.toHourOfNextDay(2);
    const [next] = await h.payoutsOf(seller);
    expect(next.id).not.toBe(payout.id);
    expect(next).toMatchObject({ amount: 500, status: 'paid' });
    const nextLines = await h.lines(next.id);
    expect(nextLines.reduce((sum, line) => sum + line.amount, 0)).toBe(500);
    expect(nextLines.map((line) => [line.ledger_type, line.amount])).toEqual([['share_available', 1000], ['recovery', -500], ['recovery_reversal', 500], ['recovery', -500]]);
    expect(await h.balance(seller)).toMatchObject({ available: 0, paid_out: 500, owed: 0, net: 1500 });
    await consistent(seller);
  });

  it('a canceled payout gives back what it kept too', async () => {
    const parties = await owingSeller(565);
    const seller = parties.seller.id;
    await h.put(`/v1/sellers/${seller}/payout_schedule`, { method: 'scheduled', interval: 'manual' });
    await h.completedOrder(parties);
    const pending = await h.ok('/v1/payouts', { seller }, 201);
    expect(pending).toMatchObject({ amount: 500, status: 'pending' });
    expect(await h.balance(seller)).toMatchObject({ available: 0, paid_out: 500, owed: 0 });
    await h.ok(`/v1/payouts/${pending.id}/cancel`);
    expect(await h.balance(seller)).toMatchObject({ available: 1000, paid_out: 0, owed: 500, net: 1500 });
    await consistent(seller);
  });

  it('a balance the debt takes whole pays nothing: 409, yet the recovery stays (source the seller)', async () => {
    // Refunded in full after release, the reversal of 1000 refused: the seller owes 1000.
    const parties = await owingSeller(1130);
    const seller = parties.seller.id;
    expect(await h.balance(seller)).toMatchObject({ owed: 1000, net: 0 });
    await h.put(`/v1/sellers/${seller}/payout_schedule`, { method: 'scheduled', interval: 'manual' });
    await h.completedOrder(parties);
    const refused = await h.post('/v1/payouts', { seller });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'payout_nothing_available', param: 'seller' });
    expect(await h.payoutsOf(seller)).toEqual([]);
    expect(await linesOf(seller, 'recovery')).toEqual([['available', -1000, seller], ['seller_receivables', -1000, seller]]);
    expect(await h.balance(seller)).toMatchObject({ available: 0, paid_out: 0, owed: 0, net: 1000 });
    await consistent(seller);
  });
});
