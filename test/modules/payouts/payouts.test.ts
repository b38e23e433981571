// Payouts on the simulated processor and the test clock (docs/payouts.md): schedules (the seller's
// and the mode's), shares moved to the available balance after delay_days, the daily run on each
// schedule's days, the minimum, manual payouts, cancel, failed payouts back to available, lines and
// the balance. per_order stays as it was (the payments tests run untouched).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectLedgerConsistent } from '../ledger/ledger-checks.js';
import { builtReport, download, parseCsv } from '../reports/helpers.js';
import { DAY_MS, payoutHelpers } from './helpers.js';

let ctx: TestContext;
const h = payoutHelpers(() => ctx);
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  // Order of 1000 at a fee of 10 % + 30: the buyer pays 1130, the seller's share is 1000.
  await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 1000, fixed_amount: 30 }, release_delay_seconds: 0, payout_schedule: { method: 'per_order' } });
});

describe('schedules', () => {
  it("answers the mode's schedule, a seller's override, and the mode's again after DELETE", async () => {
    const { seller } = await h.parties();
    const url = `/v1/sellers/${seller.id}/payout_schedule`;
    expect(await h.get(url)).toEqual({
      object: 'payout_schedule', seller: seller.id, source: 'mode', method: 'per_order', interval: 'daily', weekly_anchor: 'monday', monthly_anchor: 1, delay_days: 0, minimum: 1, livemode: false,
    });
    const put = await h.put(url, { method: 'scheduled', interval: 'weekly', weekly_anchor: 'friday', delay_days: 7, minimum: 500 });
    expect(put).toMatchObject({ source: 'seller', method: 'scheduled', interval: 'weekly', weekly_anchor: 'friday', monthly_anchor: 1, delay_days: 7, minimum: 500 });
    expect(await h.get(url)).toEqual(put);
    await h.setSettings({ payout_schedule: { method: 'scheduled', interval: 'monthly', monthly_anchor: 15 } });
    expect(await h.get(url)).toMatchObject({ source: 'seller', interval: 'weekly' });
    const removed = await ctx.request(url, { method: 'DELETE' });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ source: 'mode', method: 'scheduled', interval: 'monthly', monthly_anchor: 15, weekly_anchor: 'monday', delay_days: 0, minimum: 1 });
    expect(await h.get(url)).toEqual(removed.body);
  });

  it('refuses a bad schedule naming the param, and an unknown seller', async () => {
    const { seller } = await h.parties();
    const url = `/v1/sellers/${seller.id}/payout_schedule`;
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ method: 'weekly' }, 'method'],
      [{ method: 'scheduled', interval: 'yearly' }, 'interval'],
      [{ method: 'scheduled', weekly_anchor: 'someday' }, 'weekly_anchor'],
      [{ method: 'scheduled', monthly_anchor: 32 }, 'monthly_anchor'],
      [{ method: 'scheduled', monthly_anchor: 0 }, 'monthly_anchor'],
      [{ method: 'scheduled', delay_days: 366 }, 'delay_days'],
      [{ method: 'scheduled', minimum: 0 }, 'minimum'],
      [{ method: 'scheduled', every: 'day' }, 'every'],
    ];
    for (const [body, param] of bad) {
      const res = await ctx.request(url, { method: 'PUT', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toMatchObject({ code: 'invalid_request', param });
    }
    expect(await h.get(url)).toMatchObject({ source: 'mode' });
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await ctx.request('/v1/sellers/sel_01jd0000000000000000000000/payout_schedule', { method, ...(method === 'PUT' ? { body: { method: 'per_order' } } : {}) });
      expect(res.status, method).toBe(404);
      expect(res.body.error.code).toBe('resource_missing');
    }
  });

  it('per_order (the default) transfers each share as before: nothing available, no payout, no next payout', async () => {
    const parties = await h.parties({ price: { amount: 1000, currency: 'USD' } });
    const { payment } = await h.completedOrder(parties);
    expect(payment.release).toMatchObject({ status: 'released', amount: 1000 });
    expect(await h.balance(parties.seller.id)).toMatchObject({ pending: 0, available: 0, transferred: 1000, paid_out: 0, net: 1000, next_payout_at: null });
    await h.advance(2 * 86_400);
    expect(await h.payoutsOf(parties.seller.id)).toEqual([]);
  });
});

describe('scheduled payouts', () => {
  it('daily with delay_days: pending, then available after the delay, then paid at the next run in one payout', async () => {
    await h.toHourOfNextDay(10);
    const parties = await h.scheduledParties({ interval: 'daily', delay_days: 2 });
    const { order, payment } = await h.completedOrder(parties);
    expect(payment.release).toMatchObject({ status: 'held', amount: 1000 });
    const start = await h.testNow();
    const nextRun = Math.floor(start / DAY_MS) * DAY_MS + DAY_MS;
    expect(await h.balance(parties.seller.id)).toMatchObject({ pending: 1000, available: 0, transferred: 0, paid_out: 0, net: 1000, next_payout_at: new Date(nextRun).toISOString() });

    await h.advanceTo(start + DAY_MS); // a day on: still within the delay, the run had nothing to pay
    expect(await h.balance(parties.seller.id)).toMatchObject({ pending: 1000, available: 0 });
    expect(await h.payoutsOf(parties.seller.id)).toEqual([]);

    await h.advanceTo(start + 2 * DAY_MS + 60_000); // the delay is over: available, not paid before the next run
    expect((await h.payment(payment.id)).release).toMatchObject({ status: 'in_balance', amount: 1000 });
    expect(await h.balance(parties.seller.id)).toMatchObject({ pending: 0, available: 1000, paid_out: 0, net: 1000 });
    expect(await h.payoutsOf(parties.seller.id)).toEqual([]);

    await h.toHourOfNextDay(1);
    const [payout] = await h.payoutsOf(parties.seller.id);
    const runAt = new Date(Math.floor((await h.testNow()) / DAY_MS) * DAY_MS).toISOString();
    expect(payout).toMatchObject({ object: 'payout', seller: parties.seller.id, amount: 1000, currency: 'USD', status: 'paid', automatic: true, period_end: runAt, failure_message: null });
    expect(payout.id).toMatch(/^po_/);
    expect(payout.processor_reference).toMatch(/^tr_sim_/);
    expect(await h.balance(parties.seller.id)).toMatchObject({ pending: 0, available: 0, transferred: 0, paid_out: 1000, net: 1000 });
    const lines = await h.lines(payout.id);
    expect(lines).toEqual([expect.objectContaining({ object: 'payout_line', type: 'order_share', amount: 1000, ledger_type: 'share_available', order: order.id, payment: payment.id })]);
    const line = await h.get(`/v1/balance_transactions/${lines[0].balance_transaction}`);
    expect(line).toMatchObject({ type: 'share_available', account: `seller_available:${parties.seller.id}`, amount: 1000 });
    expect((await storedEvents(ctx, payout.id)).map((event) => event.type)).toEqual(['payout.created', 'payout.paid']);
    expect(await h.get(`/v1/payouts/${payout.id}`)).toEqual(payout);
    await expectLedgerConsistent(ctx, [payment.id], [parties.seller.id]);
  });

  it('weekly: paid on its weekday only', async () => {
    await h.toHourOfNextDay(10);
    const now = await h.testNow();
    const anchorDay = Math.floor(now / DAY_MS) * DAY_MS + 3 * DAY_MS;
    const anchor = WEEKDAYS[new Date(anchorDay).getUTCDay()]!;
    const parties = await h.scheduledParties({ interval: 'weekly', weekly_anchor: anchor });
    await h.completedOrder(parties);
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 1000, next_payout_at: new Date(anchorDay).toISOString() });
    await h.advanceTo(anchorDay - 3_600_000); // two runs passed, neither on the anchor
    expect(await h.payoutsOf(parties.seller.id)).toEqual([]);
    await h.advanceTo(anchorDay + 3_600_000);
    const payouts = await h.payoutsOf(parties.seller.id);
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({ amount: 1000, status: 'paid', period_end: new Date(anchorDay).toISOString() });
    expect(WEEKDAYS[new Date(payouts[0].period_end).getUTCDay()]).toBe(anchor);
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 0, next_payout_at: new Date(anchorDay + 7 * DAY_MS).toISOString() });
  });

  it('monthly on the 31st: a 30-day month pays on its last day', async () => {
    await h.toHourOfNextDay(10);
    // Into the next 30-day month (or this one, with more than a day left), where the order completes.
    let at = new Date(await h.testNow());
    const daysIn = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    while (daysIn(at) !== 30 || at.getUTCDate() >= 29) at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1, 10));
    if (at.getTime() > (await h.testNow())) await h.advanceTo(at.getTime());
    const lastDay = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 30);
    const parties = await h.scheduledParties({ interval: 'monthly', monthly_anchor: 31 });
    await h.completedOrder(parties);
    expect((await h.balance(parties.seller.id)).next_payout_at).toBe(new Date(lastDay).toISOString());
    await h.advanceTo(lastDay - 3_600_000);
    expect(await h.payoutsOf(parties.seller.id)).toEqual([]);
    await h.advanceTo(lastDay + 3_600_000);
    const payouts = await h.payoutsOf(parties.seller.id);
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({ amount: 1000, status: 'paid', period_end: new Date(lastDay).toISOString() });
    expect(new Date(payouts[0].period_end).getUTCDate()).toBe(30);
    expect((await h.balance(parties.seller.id)).next_payout_at).toBe(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 31)).toISOString());
  });

  it('waits while the balance is below the minimum, then pays everything at once with each share a line', async () => {
    await h.toHourOfNextDay(10);
    const parties = await h.scheduledParties({ interval: 'daily', minimum: 1500 });
    const first = await h.completedOrder(parties);
    await h.toHourOfNextDay(2);
    expect(await h.payoutsOf(parties.seller.id)).toEqual([]);
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 1000 });
    const second = await h.completedOrder(parties);
    await h.toHourOfNextDay(2);
    const [payout] = await h.payoutsOf(parties.seller.id);
    expect(payout).toMatchObject({ amount: 2000, status: 'paid' });
    expect((await h.lines(payout.id)).map((line) => [line.type, line.amount, line.order])).toEqual([
      ['order_share', 1000, first.order.id],
      ['order_share', 1000, second.order.id],
    ]);
  });

  it('the mode setting schedules sellers without their own; a refund after the share became available is a line of the payout', async () => {
    await h.toHourOfNextDay(10);
    await h.setSettings({ payout_schedule: { method: 'scheduled', interval: 'daily' } });
    const parties = await h.parties({ price: { amount: 1000, currency: 'USD' } });
    expect(await h.get(`/v1/sellers/${parties.seller.id}/payout_schedule`)).toMatchObject({ source: 'mode', method: 'scheduled' });
    const { payment } = await h.completedOrder(parties);
    // 565 of 1130 back to the buyer: the share falls to 500, the fee to 65.
    await h.refund({ payment: payment.id, amount: 565 });
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 500 });
    await h.toHourOfNextDay(2);
    const [payout] = await h.payoutsOf(parties.seller.id);
    expect(payout).toMatchObject({ amount: 500, status: 'paid' });
    expect((await h.lines(payout.id)).map((line) => [line.type, line.amount])).toEqual([
      ['order_share', 1000],
      ['refund', -565],
      ['fee', 65],
    ]);
    await expectLedgerConsistent(ctx, [payment.id], [parties.seller.id]);
  });
});

describe('manual payouts, cancel and failures', () => {
  it('a manual schedule is never paid by a run; POST /v1/payouts pays it, cancel returns it, a second POST pays it', async () => {
    await h.toHourOfNextDay(10);
    const parties = await h.scheduledParties({ interval: 'manual', minimum: 5000 });
    await h.completedOrder(parties);
    await h.advance(3 * 86_400);
    expect(await h.payoutsOf(parties.seller.id)).toEqual([]);
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 1000, next_payout_at: null });

    // The minimum is the runs'; asked for, the whole balance is paid. The answer is pending: the job sends it.
    const pending = await h.ok('/v1/payouts', { seller: parties.seller.id }, 201);
    expect(pending).toMatchObject({ amount: 1000, status: 'pending', automatic: false, processor_reference: null });
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 0, paid_out: 1000 });
    const again = await h.post('/v1/payouts', { seller: parties.seller.id });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'payout_nothing_available', param: 'seller' });

    const canceled = await h.ok(`/v1/payouts/${pending.id}/cancel`);
    expect(canceled).toMatchObject({ status: 'canceled', failure_message: null });
    expect(canceled.canceled_at).not.toBeNull();
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 1000, paid_out: 0 });
    expect((await storedEvents(ctx, pending.id)).map((event) => event.type)).toEqual(['payout.created', 'payout.canceled']);
    const twice = await h.post(`/v1/payouts/${pending.id}/cancel`);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('invalid_state');

    const second = await h.ok('/v1/payouts', { seller: parties.seller.id }, 201);
    expect(second.amount).toBe(1000);
    await h.advance(1);
    const paid = await h.get(`/v1/payouts/${second.id}`);
    expect(paid).toMatchObject({ status: 'paid' });
    expect((await h.lines(second.id)).map((line) => line.type)).toEqual(['order_share']);
    const late = await h.post(`/v1/payouts/${second.id}/cancel`);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('invalid_state');
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 0, paid_out: 1000, net: 1000 });

    // Reconciliation matches the payout's transfer with the simulated processor's books.
    const created = Math.floor(Date.parse(paid.created) / 1000);
    const report = await builtReport(ctx, { type: 'reconciliation', interval_start: created - 3600, interval_end: created + 3600 });
    const rows = parseCsv((await download(ctx, report.file.url)).text);
    expect(rows.filter((row) => row[0] === paid.processor_reference)).toEqual([]);
    expect(rows.length).toBeGreaterThan(0); // the header
  });

  it('a payout the processor refuses fails and its amount returns to available; the next run pays it', async () => {
    await h.toHourOfNextDay(10);
    const parties = await h.scheduledParties({ interval: 'daily' });
    await h.completedOrder(parties);
    const made = await h.ok('/v1/payouts', { seller: parties.seller.id }, 201);
    // The seller's account is restricted before the job sends it: the simulated processor declines.
    await h.payouts(parties.seller.id, 'restricted');
    await h.advance(1);
    const failed = await h.get(`/v1/payouts/${made.id}`);
    expect(failed).toMatchObject({ status: 'failed', processor_reference: null });
    expect(failed.failure_message).toContain('restricted');
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 1000, paid_out: 0 });
    expect((await storedEvents(ctx, made.id)).map((event) => event.type)).toEqual(['payout.created', 'payout.failed']);
    const types = (await h.get(`/v1/balance_transactions?seller=${parties.seller.id}&account=transfers_out`)).data.map((line: { type: string }) => line.type);
    expect(types).toEqual(['payout_failure', 'payout']);

    // A run skips a seller who cannot receive payouts; enabled again, the next run pays the same lines.
    await h.toHourOfNextDay(2);
    expect(await h.payoutsOf(parties.seller.id)).toHaveLength(1);
    await h.payouts(parties.seller.id, 'enabled');
    await h.toHourOfNextDay(2);
    const [latest] = await h.payoutsOf(parties.seller.id);
    expect(latest).toMatchObject({ amount: 1000, status: 'paid', automatic: true });
    expect((await h.lines(latest.id)).map((line) => line.type)).toEqual(['order_share']);
  });

  it('the test helper fails a paid payout: payout.failed, the amount back to available', async () => {
    await h.toHourOfNextDay(10);
    const parties = await h.scheduledParties({ interval: 'manual' });
    await h.completedOrder(parties);
    const made = await h.ok('/v1/payouts', { seller: parties.seller.id }, 201);
    await h.advance(1);
    expect((await h.get(`/v1/payouts/${made.id}`)).status).toBe('paid');
    const failed = await h.ok(`/v1/test_helpers/payouts/${made.id}/fail`, { message: 'The bank returned it.' });
    expect(failed).toMatchObject({ status: 'failed', failure_message: 'The bank returned it.' });
    expect(await h.balance(parties.seller.id)).toMatchObject({ available: 1000, paid_out: 0 });
    const again = await h.post(`/v1/test_helpers/payouts/${made.id}/fail`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
  });

  it('refuses POST /v1/payouts for an unknown seller, one who cannot receive payouts, and one with nothing available', async () => {
    const unknown = await h.post('/v1/payouts', { seller: 'sel_01jd0000000000000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'seller' });
    const parties = await h.scheduledParties({ interval: 'manual' });
    const empty = await h.post('/v1/payouts', { seller: parties.seller.id });
    expect(empty.status).toBe(409);
    expect(empty.body.error.code).toBe('payout_nothing_available');
    await h.payouts(parties.seller.id, 'restricted');
    const restricted = await h.post('/v1/payouts', { seller: parties.seller.id });
    expect(restricted.status).toBe(403);
    expect(restricted.body.error).toMatchObject({ code: 'seller_payouts_not_enabled', param: 'seller' });
    expect((await ctx.request('/v1/payouts/po_01jd0000000000000000000000')).status).toBe(404);
    expect((await ctx.request('/v1/payouts/po_01jd0000000000000000000000/lines')).status).toBe(404);
  });

  it('lists payouts newest first, filtered by seller, status and created, paged', async () => {
    await h.toHourOfNextDay(10);
    const parties = await h.scheduledParties({ interval: 'manual' });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      await h.completedOrder(parties);
      made.push((await h.ok('/v1/payouts', { seller: parties.seller.id }, 201)).id);
      if (i === 0) await h.ok(`/v1/payouts/${made[0]}/cancel`);
      if (i < 2) await h.advance(60);
    }
    const page = await h.get(`/v1/payouts?seller=${parties.seller.id}&limit=2`);
    expect(page.data.map((p: { id: string }) => p.id)).toEqual([made[2], made[1]]);
    expect(page.has_more).toBe(true);
    const rest = await h.get(`/v1/payouts?seller=${parties.seller.id}&limit=2&starting_after=${page.next_cursor}`);
    expect(rest.data.map((p: { id: string }) => p.id)).toEqual([made[0]]);
    const canceled = await h.get(`/v1/payouts?seller=${parties.seller.id}&status=canceled`);
    expect(canceled.data.map((p: { id: string }) => p.id)).toEqual([made[0]]);
    const second = await h.get(`/v1/payouts/${made[1]}`);
    const since = await h.get(`/v1/payouts?seller=${parties.seller.id}&created[gte]=${encodeURIComponent(second.created)}`);
    expect(since.data.map((p: { id: string }) => p.id)).toEqual([made[2], made[1]]);
    const bad = await ctx.request('/v1/payouts?status=lost');
    expect(bad.status).toBe(400);
  });
});
