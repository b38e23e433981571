// docs/payouts.md, "Worked example": one seller's fortnight replayed through the API, every figure
// of the page's table checked (weekly on Friday, delay_days 2, minimum 1000; a refund before the
// first payout, a refund after it recovered from the second).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPublishedListing } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectLedgerConsistent } from '../ledger/ledger-checks.js';
import { DAY_MS, payoutHelpers } from './helpers.js';

let ctx: TestContext;
const h = payoutHelpers(() => ctx);
const HOUR = 3_600_000;

beforeAll(async () => {
  ctx = await startTestApp();
  await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 250, fixed_amount: 0 }, release_delay_seconds: 0 });
});
afterAll(async () => {
  await ctx.close();
});

it('replays the worked example of docs/payouts.md', async () => {
  // Monday 00:00 UTC of next week on the test clock.
  const now = await h.testNow();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const monday = today + ((8 - new Date(today).getUTCDay()) % 7 || 7) * DAY_MS;
  const at = (day: number, hour: number) => monday + day * DAY_MS + hour * HOUR;

  const seller = await h.parties({ price: { amount: 4500, currency: 'USD' } });
  await h.put(`/v1/sellers/${seller.seller.id}/payout_schedule`, { method: 'scheduled', interval: 'weekly', weekly_anchor: 'friday', delay_days: 2, minimum: 1000 });
  const cheaper = await createPublishedListing(ctx, { seller: seller.seller.id, quantity: 5, price: { amount: 2000, currency: 'USD' } });
  const figures = async () => {
    const b = await h.balance(seller.seller.id);
    return [b.pending, b.available, b.paid_out];
  };

  await h.advanceTo(at(0, 10));
  const a = await h.completedOrder(seller);
  expect(a.payment).toMatchObject({ amount: 4613, fee_amount: 113 });
  expect(await figures()).toEqual([4500, 0, 0]);

  await h.advanceTo(at(1, 10));
  const b = await h.completedOrder({ ...seller, listing: cheaper });
  expect(b.payment).toMatchObject({ amount: 2050, fee_amount: 50 });
  expect(await figures()).toEqual([6500, 0, 0]);

  await h.advanceTo(at(2, 11)); // A's delay is over
  expect(await figures()).toEqual([2000, 4500, 0]);
  await h.refund({ payment: a.payment.id, amount: 1153 });
  expect(await figures()).toEqual([2000, 3375, 0]);

  await h.advanceTo(at(3, 11)); // B's delay is over
  expect(await figures()).toEqual([0, 5375, 0]);
  expect((await h.balance(seller.seller.id)).next_payout_at).toBe(new Date(at(4, 0)).toISOString());

  await h.advanceTo(at(4, 12)); // Friday's run
  const [first] = await h.payoutsOf(seller.seller.id);
  expect(first).toMatchObject({ amount: 5375, status: 'paid', period_end: new Date(at(4, 0)).toISOString() });
  expect((await h.lines(first.id)).map((line) => [line.type, line.amount])).toEqual([['order_share', 4500], ['refund', -1153], ['fee', 28], ['order_share', 2000]]);
  expect(await figures()).toEqual([0, 0, 5375]);

  await h.refund({ payment: a.payment.id, amount: 2000 }); // after the payout
  expect(await figures()).toEqual([0, -1951, 5375]);

  await h.advanceTo(at(7, 10));
  const c = await h.completedOrder(seller);
  expect(await figures()).toEqual([4500, -1951, 5375]);
  await h.advanceTo(at(9, 11));
  expect(await figures()).toEqual([0, 2549, 5375]);

  await h.advanceTo(at(11, 12)); // the second Friday
  const [second] = await h.payoutsOf(seller.seller.id);
  expect(second).toMatchObject({ amount: 2549, status: 'paid', period_end: new Date(at(11, 0)).toISOString() });
  expect((await h.lines(second.id)).map((line) => [line.type, line.amount])).toEqual([['refund', -2000], ['fee', 49], ['order_share', 4500]]);
  expect(await figures()).toEqual([0, 0, 7924]);
  expect((await h.balance(seller.seller.id)).net).toBe(7924);
  await expectLedgerConsistent(ctx, [a.payment.id, b.payment.id, c.payment.id], [seller.seller.id]);
});
