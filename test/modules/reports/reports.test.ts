// Reports over HTTP (docs/ledger.md, "Reports"): each type's CSV cell by cell over journal entries
// planted at known times, the reconciliation against the simulated processor's books with planted
// differences, the validation of a request, report.failed, and the signed download link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { recordMovement as recordSimulatedMovement } from '../../../src/adapters/processors/simulated/books.js';
import { orderHelpers } from '../orders/helpers.js';
import { expectError } from '../media/helpers.js';
import { builtReport, createReport, download, pairWithSeller, parseCsv, plant, runReportJobs, seconds } from './helpers.js';

let ctx: TestContext;
const h = orderHelpers(() => ctx);

const D0 = '2026-01-09T10:00:00.000Z';
const START = '2026-01-10T00:00:00.000Z';
const END = '2026-01-12T00:00:00.000Z';
const interval = { interval_start: seconds(START), interval_end: seconds(END) };

let sellerId = '';
let orderId = '';
let categoryId = '';

beforeAll(async () => {
  ctx = await startTestApp();
  await h.setSettings({ payments_enabled: false });
  // A real order (its listing in a category) without a payment: the ledger holds only what is planted.
  const category = await createCategory(ctx);
  categoryId = category.id;
  const made = await h.order({}, { category: category.id });
  sellerId = made.seller.id;
  orderId = made.order.id;
  const part = { paymentId: 'pay_reportlife', orderId, sellerId };
  await plant(ctx, D0, { type: 'charge', sourceId: part.paymentId, processorRef: 'ch_life', ...part, lines: pairWithSeller(sellerId, 'buyer_funds', 1130) });
  await plant(ctx, '2026-01-10T10:00:00.000Z', { type: 'platform_fee', sourceId: part.paymentId, processorRef: 'ch_life', ...part, lines: pairWithSeller(sellerId, 'platform_fees', 130) });
  await plant(ctx, '2026-01-10T12:00:00.000Z', { type: 'transfer', sourceId: part.paymentId, processorRef: 'tr_life', ...part, lines: pairWithSeller(sellerId, 'transfers_out', 1000) });
  await plant(ctx, '2026-01-11T09:00:00.000Z', { type: 'refund', sourceId: 'ref_life', processorRef: 're_life', ...part, lines: pairWithSeller(sellerId, 'refunds_out', 300) });
  await plant(ctx, '2026-01-11T09:00:00.000Z', { type: 'platform_fee_refund', sourceId: 'ref_life', processorRef: 're_life', ...part, lines: pairWithSeller(sellerId, 'platform_fees', -30) });
  await plant(ctx, '2026-01-11T09:00:00.000Z', { type: 'transfer_reversal', sourceId: 'ref_life', processorRef: 'trr_life', ...part, lines: pairWithSeller(sellerId, 'transfers_out', -200) });
  await plant(ctx, '2026-01-11T10:00:00.000Z', {
    type: 'dispute', sourceId: 'cdp_life', processorRef: 'dp_life', ...part,
    lines: [{ account: 'buyer_funds', amount: -500 }, { account: 'disputes', amount: 500 }],
  });
  // After the interval: in no report below.
  await plant(ctx, '2026-01-12T00:00:00.000Z', { type: 'platform_fee', sourceId: 'pay_later', processorRef: 'ch_later', ...part, lines: pairWithSeller(sellerId, 'platform_fees', 7) });
});
afterAll(() => ctx.close());

describe('report files', () => {
  it("seller_statement: the seller's lines with the running balance between opening and closing rows", async () => {
    const report = await builtReport(ctx, { type: 'seller_statement', seller: sellerId, ...interval });
    expect(report).toMatchObject({ type: 'seller_statement', seller: sellerId, interval_start: START, interval_end: END, failure: null, file: { content_type: 'text/csv; charset=utf-8', rows: 7 } });
    const file = await download(ctx, report.file.url);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(Number(file.headers['content-length'])).toBe(report.file.size);
    const rows = parseCsv(file.text);
    expect(rows[0]).toEqual(['created', 'balance_transaction', 'type', 'amount', 'currency', 'source', 'order', 'running_balance']);
    const cells = rows.slice(1).map(([created, btx, type, amount, currency, source, order, running]) => [created, btx === '' ? '' : btx!.slice(0, 4), type, amount, currency, source, order, running]);
    expect(cells).toEqual([
      [START, '', 'opening_balance', '', 'USD', '', '', '1130'],
      ['2026-01-10T10:00:00.000Z', 'btx_', 'platform_fee', '-130', 'USD', 'pay_reportlife', orderId, '1000'],
      ['2026-01-10T12:00:00.000Z', 'btx_', 'transfer', '-1000', 'USD', 'pay_reportlife', orderId, '0'],
      ['2026-01-11T09:00:00.000Z', 'btx_', 'refund', '-300', 'USD', 'ref_life', orderId, '-300'],
      ['2026-01-11T09:00:00.000Z', 'btx_', 'platform_fee_refund', '30', 'USD', 'ref_life', orderId, '-270'],
      ['2026-01-11T09:00:00.000Z', 'btx_', 'transfer_reversal', '200', 'USD', 'ref_life', orderId, '-70'],
      [END, '', 'closing_balance', '', 'USD', '', '', '-70'],
    ]);
  });

  it('balance_summary: every account with its opening balance, movements in and out, and closing balance', async () => {
    const report = await builtReport(ctx, { type: 'balance_summary', ...interval });
    const rows = parseCsv((await download(ctx, report.file.url)).text);
    expect(rows).toEqual([
      ['account', 'currency', 'opening_balance', 'movements_in', 'movements_out', 'closing_balance'],
      ['buyer_funds', 'USD', '1130', '0', '500', '630'],
      ['disputes', 'USD', '0', '500', '0', '500'],
      ['platform_fees', 'USD', '0', '130', '30', '100'],
      ['refunds_out', 'USD', '0', '300', '0', '300'],
      [`seller:${sellerId}`, 'USD', '1130', '230', '1430', '-70'],
      ['transfers_out', 'USD', '0', '1000', '200', '800'],
    ]);
    expect(report.file.rows).toBe(6);
  });

  it("platform_fees: fees net of refunds per day and per category of the order's listing", async () => {
    const report = await builtReport(ctx, { type: 'platform_fees', ...interval });
    expect(parseCsv((await download(ctx, report.file.url)).text)).toEqual([
      ['day', 'category', 'fees', 'currency'],
      ['2026-01-10', categoryId, '130', 'USD'],
      ['2026-01-11', categoryId, '-30', 'USD'],
    ]);
  });

  it("reconciliation: lists every difference with the simulated processor's books, both sides", async () => {
    const scope = { marketplaceId: ctx.marketplaceId, mode: 'test' as const };
    const at = (iso: string) => new Date(iso);
    await recordSimulatedMovement(ctx.db, scope, { reference: 'ch_life', type: 'charge', amount: 1130, currency: 'usd' }, at(D0));
    await recordSimulatedMovement(ctx.db, scope, { reference: 'tr_life', type: 'transfer', amount: 1000, currency: 'usd' }, at('2026-01-10T12:00:01.000Z'));
    await recordSimulatedMovement(ctx.db, scope, { reference: 'trr_life', type: 'transfer_reversal', amount: 200, currency: 'usd' }, at('2026-01-11T09:00:00.000Z'));
    // Planted differences: another refund amount, a refund the ledger never saw; the dispute's withdrawal is missing.
    await recordSimulatedMovement(ctx.db, scope, { reference: 're_life', type: 'refund', amount: 250, currency: 'usd' }, at('2026-01-11T09:00:00.000Z'));
    await recordSimulatedMovement(ctx.db, scope, { reference: 're_stray', type: 'refund', amount: 99, currency: 'usd' }, at('2026-01-11T11:00:00.000Z'));
    const report = await builtReport(ctx, { type: 'reconciliation', ...interval });
    expect(parseCsv((await download(ctx, report.file.url)).text)).toEqual([
      ['reference', 'type', 'kind', 'ours_amount', 'ours_currency', 'theirs_amount', 'theirs_currency'],
      ['dp_life', 'dispute', 'missing_at_processor', '500', 'usd', '', ''],
      ['re_life', 'refund', 'amount_differs', '300', 'usd', '250', 'usd'],
      ['re_stray', 'refund', 'missing_in_ledger', '', '', '99', 'usd'],
    ]);
    expect(report.file.rows).toBe(3);
    expect((await storedEvents(ctx, report.id)).map((e) => e.type)).toEqual(['report.succeeded']);
  });
});

describe('asking for a report', () => {
  it('refuses an empty or reversed interval, one over 366 days, and a misplaced or unknown seller', async () => {
    expectError(await createReport(ctx, { type: 'balance_summary', interval_start: 100, interval_end: 100 }), 400, 'invalid_request', 'interval_end');
    expectError(await createReport(ctx, { type: 'balance_summary', interval_start: 100, interval_end: 50 }), 400, 'invalid_request', 'interval_end');
    expectError(await createReport(ctx, { type: 'balance_summary', interval_start: 0, interval_end: 366 * 86_400 + 1 }), 400, 'invalid_request', 'interval_end');
    expect((await createReport(ctx, { type: 'balance_summary', interval_start: 0, interval_end: 366 * 86_400 })).status).toBe(201);
    expectError(await createReport(ctx, { type: 'seller_statement', ...interval }), 400, 'invalid_request', 'seller');
    expectError(await createReport(ctx, { type: 'platform_fees', seller: sellerId, ...interval }), 400, 'invalid_request', 'seller');
    expectError(await createReport(ctx, { type: 'seller_statement', seller: 'sel_00000000000000000000000000', ...interval }), 404, 'resource_missing', 'seller');
    expect((await createReport(ctx, { type: 'monthly', ...interval })).status).toBe(400);
    expectError(await ctx.request('/v1/reports/rpt_00000000000000000000000000'), 404, 'resource_missing', undefined);
  });

  it('lists newest first, filtered by type and status, paged', async () => {
    const all = await ctx.request('/v1/reports?limit=2');
    expect(all.status, all.text).toBe(200);
    expect(all.body.data).toHaveLength(2);
    expect(all.body.has_more).toBe(true);
    const next = await ctx.request(`/v1/reports?limit=2&starting_after=${all.body.next_cursor}`);
    expect(next.body.data[0].id < all.body.data[1].id).toBe(true);
    const fees = await ctx.request('/v1/reports?type=platform_fees&status=succeeded');
    expect(fees.body.data.map((r: { type: string }) => r.type)).toEqual(['platform_fees']);
    expect(fees.body.data[0].file.url).toMatch(/\/report_files\//);
    const pending = await ctx.request('/v1/reports?status=pending');
    expect(pending.body.data.every((r: { status: string; file: unknown }) => r.status === 'pending' && r.file === null)).toBe(true);
  });

  it('answers a publishable key 403', async () => {
    expectError(await ctx.request('/v1/reports', { key: ctx.keys.test.publishable_key }), 403, 'secret_key_required', undefined);
  });
});

describe('the download link', () => {
  it('is refused when altered, and once it expired on the mode clock', async () => {
    const report = await builtReport(ctx, { type: 'platform_fees', ...interval });
    const url: string = report.file.url;
    const token = url.slice(url.lastIndexOf('/') + 1);
    const altered = url.slice(0, url.lastIndexOf('/') + 1) + token.replace(/\.([a-z0-9]+)\.(?=[^.]+$)/, (_m, s: string) => `.${(parseInt(s, 36) + 3600).toString(36)}.`);
    const tampered = await download(ctx, altered);
    expect(tampered.status).toBe(403);
    expect(tampered.json().error.code).toBe('url_signature_invalid');
    const otherReport = await download(ctx, url.replace(report.id, 'rpt_00000000000000000000000000'));
    expect(otherReport.json().error.code).toBe('url_signature_invalid');
    expect((await download(ctx, url)).status).toBe(200);
    await h.advance(3 * 60 * 60);
    const expired = await download(ctx, url);
    expect(expired.status).toBe(403);
    expect(expired.json().error.code).toBe('url_expired');
    const fresh = (await ctx.request(`/v1/reports/${report.id}`)).body.file.url;
    expect(fresh).not.toBe(url);
    expect((await download(ctx, fresh)).status).toBe(200);
  });
});

describe('the bound on reports waiting to be built', () => {
  it('refuses one past MAX_PENDING_REPORTS with 409 limit_exceeded, until one is built', async () => {
    const small = await startTestApp({ env: { MAX_PENDING_REPORTS: '2' } });
    try {
      const ask = { type: 'balance_summary', ...interval };
      expect((await createReport(small, ask)).status).toBe(201);
      expect((await createReport(small, ask)).status).toBe(201);
      const third = await createReport(small, ask);
      expectError(third, 409, 'limit_exceeded', undefined);
      expect(third.body.error.message).toContain('MAX_PENDING_REPORTS');
      expect((await small.request('/v1/reports')).body.data).toHaveLength(2);
      await runReportJobs(small);
      expect((await createReport(small, ask)).status).toBe(201);
    } finally {
      await small.close();
    }
  });
});
