// GET /v1/daily_totals (docs/ledger.md, "Daily totals"): the mode's money per UTC day from the
// ledger, today on the mode's clock last, zeros on quiet days, scoped to the mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { paymentHelpers } from '../payments/helpers.js';

let ctx: TestContext;
const h = paymentHelpers(() => ctx);

beforeAll(async () => {
  ctx = await startTestApp();
  await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 1000, fixed_amount: 0 }, release_delay_seconds: 0 });
});
afterAll(() => ctx.close());

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('GET /v1/daily_totals', () => {
  it('answers 30 days, the last one today on the mode clock, zeros before any payment', async () => {
    const res = await ctx.request('/v1/daily_totals');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ object: 'daily_totals', currency: 'USD', livemode: false });
    expect(res.body.data).toHaveLength(30);
    expect(res.body.data.at(-1).date).toBe(day(await h.testNow()));
    expect(res.body.data.every((d: Json) => d.orders === 0 && d.gross_volume === 0 && d.fees === 0 && d.refunds === 0)).toBe(true);
  });

  it('counts paid orders, volume, fees and refunds on the day they happened', async () => {
    const first = await h.paid({}, { price: { amount: 5000, currency: 'USD' } });
    const second = await h.paid({}, { price: { amount: 2000, currency: 'USD' } });
    await h.unpaid(); // awaiting payment: no money, not counted
    await h.refund({ order: first.order.id, amount: 1100 });
    const firstDay = day(await h.testNow());
    await h.advance(2 * 86_400);
    await h.paid({}, { price: { amount: 1000, currency: 'USD' } });
    const later = day(await h.testNow());
    const res = await ctx.request('/v1/daily_totals?days=7');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(7);
    const byDate = new Map(res.body.data.map((d: Json) => [d.date, d]));
    // 5000 + 10 % and 2000 + 10 %; a refund of 1100 gives back 100 of fee.
    expect(byDate.get(firstDay)).toEqual({ date: firstDay, orders: 2, gross_volume: 7700, fees: 600, refunds: 1100 });
    expect(byDate.get(later)).toEqual({ date: later, orders: 1, gross_volume: 1100, fees: 100, refunds: 0 });
    const quiet = res.body.data.filter((d: Json) => d.date !== firstDay && d.date !== later);
    expect(quiet.every((d: Json) => d.orders === 0 && d.gross_volume === 0)).toBe(true);
    expect(second.order.id).toBeTruthy();
  });

  it('is scoped to the mode: live mode sees none of test mode', async () => {
    const res = await ctx.request('/v1/daily_totals?days=3', { key: ctx.keys.live.secret_key });
    expect(res.status, res.text).toBe(200);
    expect(res.body.livemode).toBe(true);
    expect(res.body.data.every((d: Json) => d.orders === 0 && d.gross_volume === 0 && d.refunds === 0)).toBe(true);
  });

  it.each(['0', '91', 'x', '1.5'])('refuses days=%s with 400 invalid_request', async (days) => {
    const res = await ctx.request(`/v1/daily_totals?days=${days}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'days' });
  });

  it('needs a secret key: a publishable key is refused with 403', async () => {
    const res = await ctx.request('/v1/daily_totals', { key: ctx.keys.test.publishable_key });
    expect(res.status, res.text).toBe(403);
  });
});
