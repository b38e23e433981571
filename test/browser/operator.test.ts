// Issue 34 item 9 in Chromium: an operator works in the dashboard. Names stand beside ids (orders,
// checkouts, sellers with one name told apart by their email); the order page refunds part of a
// paid order, decides its dispute, cancels another and shows the payment link of one awaiting
// payment, each behind a confirmation dialog; the overview charts the last 30 days; a report made
// with the default interval takes in today and its row follows the build to its Download link with
// no Refresh click; a webhook endpoint is sent a signed test event. axe runs on every page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/modules/webhooks/signature.js';
import type { Json } from '../helpers/factories.js';
import { createBuyer, createPublishedListing, createSeller } from '../helpers/factories.js';
import { orderHelpers } from '../modules/orders/helpers.js';
import { runReportJobs } from '../modules/reports/helpers.js';
import { startReceiver, type Receiver } from '../modules/webhooks/helpers.js';
import { openSection, startDashboard, type Dashboard } from './helpers.js';

describe('an operator works in the dashboard (issue 34, item 9)', () => {
  let d: Dashboard;
  let receiver: Receiver;
  const made: Record<string, Json> = {};

  beforeAll(async () => {
    d = await startDashboard();
    receiver = await startReceiver();
    const { ctx } = d;
    const h = orderHelpers(() => ctx);
    await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 1000, fixed_amount: 0 } });
    // Two sellers with one name, told apart by their email.
    const sellers = [
      await createSeller(ctx, { name: 'Ada Lovelace', email: 'ada.ceramics@example.com' }),
      await createSeller(ctx, { name: 'Ada Lovelace', email: 'ada.prints@example.com' }),
    ];
    for (const seller of sellers) expect((await h.post(`/v1/test_helpers/sellers/${seller.id}/payouts`, { status: 'enabled' })).status).toBe(200);
    const buyer = await createBuyer(ctx, { name: 'Grace Hopper', email: 'grace@example.com' });
    const vase = await createPublishedListing(ctx, { seller: sellers[0]!.id, title: 'Celadon vase', quantity: 5, price: { amount: 5000, currency: 'USD' } });
    const print = await createPublishedListing(ctx, { seller: sellers[1]!.id, title: 'Harbour print', quantity: 5, price: { amount: 2000, currency: 'USD' } });
    const order = async (listing: string) => {
      const res = await h.post('/v1/orders', { buyer: buyer.id, listing });
      expect(res.status, res.text).toBe(201);
      return res.body as Json;
    };
    const pay = async (o: Json) => {
      const res = await h.post(`/v1/test_helpers/payments/${o.payment}/succeed`);
      expect(res.status, res.text).toBe(200);
    };
    made.paid = await order(vase.id);
    await pay(made.paid);
    made.toCancel = await order(print.id);
    await pay(made.toCancel);
    made.awaiting = await order(print.id);
    Object.assign(made, { buyer, sellers, vase, print });

    await d.page.goto('/dashboard/login');
    await d.page.getByLabel('Email').fill(ctx.owner.email);
    await d.page.getByLabel('Password').fill(ctx.owner.password);
    await d.page.getByRole('button', { name: 'Log in' }).click();
    await d.page.getByRole('heading', { name: 'Marketplaces' }).waitFor();
  });
  afterAll(async () => {
    await receiver?.close();
    await d?.close();
  });

  const scoped = () => `/dashboard/m/${d.ctx.marketplaceId}/test`;

  it('the overview charts the last 30 days: orders paid, gross volume, fees, refunds', async () => {
    const { page } = d;
    await page.goto(scoped());
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    const chart = (title: string) => page.locator('figure.chart').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
    await expect.poll(() => chart('Orders paid').locator('.chart-total').textContent()).toBe('2');
    expect(await chart('Gross volume').locator('.chart-total').textContent()).toBe('$77.00');
    expect(await chart('Platform fees').locator('.chart-total').textContent()).toBe('$7.00');
    expect(await chart('Refunds').locator('.chart-total').textContent()).toBe('$0.00');
    expect(await chart('Orders paid').locator('rect').count()).toBe(30);
    await d.checkA11y('overview');
    await d.screenshot('overview-charts');
  });

  it('lists show names beside ids, and two sellers of one name apart', async () => {
    const { page } = d;
    await page.goto(`${scoped()}/orders`);
    const orders = page.getByRole('table', { name: 'Orders' });
    const row = orders.locator('tr', { has: page.getByRole('link', { name: made.paid.id }) });
    await row.getByRole('link', { name: 'Celadon vase' }).waitFor();
    await row.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    expect(await row.textContent()).toContain('ada.ceramics@example.com');
    const other = orders.locator('tr', { has: page.getByRole('link', { name: made.toCancel.id }) });
    expect(await other.textContent()).toContain('ada.prints@example.com');
    await d.checkA11y('orders');
    await d.screenshot('orders-names');

    await openSection(page, 'Sellers');
    const sellers = page.getByRole('table', { name: 'Sellers' });
    await sellers.getByText('ada.prints@example.com').waitFor();
    await sellers.getByText('ada.ceramics@example.com').waitFor();
    expect(await sellers.getByRole('link', { name: 'Ada Lovelace' }).count()).toBe(2);
    await d.checkA11y('sellers');
    await d.screenshot('sellers');
  });

  it('searches sellers, buyers and listings by name, email or title', async () => {
    const { page } = d;
    await page.goto(`${scoped()}/sellers`);
    const sellers = page.getByRole('table', { name: 'Sellers' });
    await sellers.getByText('ada.prints@example.com').waitFor();
    await page.getByLabel('Search sellers by name or email').fill('ADA.PRINTS@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => sellers.getByText('ada.ceramics@example.com').count()).toBe(0);
    await sellers.getByText('ada.prints@example.com').waitFor();
    await page.getByLabel('Search sellers by name or email').fill('ada lov');
    await page.getByRole('button', { name: 'Search' }).click();
    await sellers.getByText('ada.ceramics@example.com').waitFor();
    expect(await sellers.getByRole('link', { name: 'Ada Lovelace' }).count()).toBe(2);
    await page.getByLabel('Search sellers by name or email').fill('nobody');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No sellers').waitFor();
    expect(page.url()).not.toContain('nobody');

    await openSection(page, 'Buyers');
    await page.getByLabel('Search buyers by name or email').fill('grace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('table', { name: 'Buyers' }).getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await d.checkA11y('buyers search');

    await openSection(page, 'Listings');
    const listings = page.getByRole('table', { name: 'Listings' });
    await listings.getByRole('link', { name: 'Harbour print' }).waitFor();
    await page.getByLabel('Search listings by title').fill('celadon');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => listings.getByRole('link', { name: 'Harbour print' }).count()).toBe(0);
    await listings.getByRole('link', { name: 'Celadon vase' }).waitFor();
    await d.checkA11y('listings search');
    await d.screenshot('listings');
  });

  it('refunds part of a paid order, then decides its dispute, behind confirmation dialogs', async () => {
    const { page, ctx } = d;
    await page.goto(`${scoped()}/orders/${made.paid.id}`);
    await page.getByRole('heading', { name: '$55.00 order' }).waitFor();
    await page.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: /Refund this order/ });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Amount (USD)').inputValue()).toBe('55.00');
    await d.checkA11y('refund dialog');
    await page.screenshot({ path: `${d.screenshotDir}order-refund-dialog.png` });
    await dialog.getByLabel('Amount (USD)').fill('12.50');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(async () => (await ctx.request(`/v1/refunds?order=${made.paid.id}`)).body.data.map((r: Json) => r.amount)).toEqual([1250]);
    await page.getByRole('table', { name: 'Refunds' }).getByText('$12.50').first().waitFor();

    // The buyer disputes through the API; the operator decides it for the seller.
    const disputed = await ctx.request(`/v1/orders/${made.paid.id}/dispute`, { method: 'POST', body: { actor: made.buyer.id, reason: 'not_as_described', description: 'Chipped rim.' } });
    expect(disputed.status, disputed.text).toBe(200);
    await page.reload();
    await page.getByRole('button', { name: 'Decide dispute' }).click();
    const decide = page.getByRole('dialog', { name: 'Decide the dispute' });
    await decide.getByLabel('Decide for').selectOption('seller');
    await decide.getByLabel('Note (optional)').fill('Photos show it intact.');
    await decide.getByRole('button', { name: 'Decide', exact: true }).click();
    await expect.poll(async () => (await ctx.request(`/v1/disputes?order=${made.paid.id}`)).body.data[0]).toMatchObject({ status: 'decided', outcome: 'seller' });
    await page.getByRole('table', { name: 'Disputes' }).getByText('decided').waitFor();
    expect(await page.getByRole('button', { name: 'Decide dispute' }).count()).toBe(0);
    await d.checkA11y('order');
    await d.screenshot('order-actions');
  });

  it('cancels an order, and a dismissed dialog changes nothing', async () => {
    const { page, ctx } = d;
    await page.goto(`${scoped()}/orders/${made.toCancel.id}`);
    await page.getByRole('button', { name: 'Cancel order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this order?' });
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect((await ctx.request(`/v1/orders/${made.toCancel.id}`)).body.state).toBe('committed');
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await dialog.getByLabel('Reason (optional)').fill('Out of stock.');
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await expect.poll(async () => (await ctx.request(`/v1/orders/${made.toCancel.id}`)).body.state).toBe('cancelled');
    await page.locator('.page-header .badge', { hasText: 'cancelled' }).waitFor();
  });

  it('shows the payment link of an order awaiting payment, with a copy button', async () => {
    const { page, ctx, context, base } = d;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.goto(`${scoped()}/orders/${made.awaiting.id}`);
    const section = page.getByRole('region', { name: 'Payment link' });
    await section.waitFor();
    const payment = (await ctx.request(`/v1/payments/${made.awaiting.payment}`)).body;
    expect(payment.checkout_url).toBeTruthy();
    expect(await section.locator('[data-payment-url]').textContent()).toBe(payment.checkout_url);
    await section.getByRole('button', { name: 'Copy link' }).click();
    await section.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(payment.checkout_url);
    await d.checkA11y('order awaiting payment');
  });

  it('a report with the default interval takes in today and its row follows the build to the download', async () => {
    const { page } = d;
    await openSection(page, 'Reports');
    await page.getByRole('heading', { name: 'New report' }).waitFor();
    const today = new Date(Date.parse((await d.ctx.request('/v1/test_helpers/clock')).body.now)).toISOString().slice(0, 10);
    const to = await page.getByLabel('To (UTC, excluded)').inputValue();
    expect(to > today).toBe(true);
    await page.getByLabel('Type').selectOption('platform_fees');
    await page.getByRole('button', { name: 'Create report' }).click();
    // No Refresh click: the list polls while the report is pending; the background job builds it.
    const table = page.getByRole('table', { name: 'Reports' });
    await table.getByText('pending').waitFor();
    await runReportJobs(d.ctx);
    const link = table.getByRole('link', { name: /Download CSV \((\d+) rows\)/ });
    await link.waitFor({ timeout: 15_000 });
    expect(await link.textContent()).not.toBe('Download CSV (0 rows)');
    // The link stays inside the table's box (no overflow to the right).
    const cell = await link.boundingBox();
    const box = await table.boundingBox();
    expect(cell!.x + cell!.width).toBeLessThanOrEqual(box!.x + box!.width);
    await d.checkA11y('reports');
    await d.screenshot('reports-following');
  });

  it('sends a webhook endpoint a signed test event and shows its answer', async () => {
    const { page, ctx } = d;
    const created = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body: { url: receiver.url('/test-hook'), enabled_events: ['order.created'] } });
    expect(created.status, created.text).toBe(201);
    receiver.on('/test-hook', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('pong'));
    await page.goto(`${scoped()}/webhooks/${created.body.id}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('dialog', { name: 'Send a test event?' }).getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByRole('region', { name: 'Test event' });
    await result.getByText('succeeded').waitFor();
    await result.getByText('HTTP 200').waitFor();
    const got = receiver.received.filter((r) => r.path === '/test-hook');
    expect(got).toHaveLength(1);
    const event = JSON.parse(got[0]!.body);
    expect(event).toMatchObject({ object: 'event', type: 'webhook_endpoint.test', data: { object: { id: created.body.id } } });
    expect(verifySignature(got[0]!.body, String(got[0]!.headers['service-signature']), created.body.secret)).toBe(true);
    await d.checkA11y('webhook test event');
    await d.screenshot('webhook-test-event');
  });

  it('checkouts name their buyer, and a checkout its orders’ listings and sellers', async () => {
    const { page, ctx } = d;
    const checkout = await ctx.request('/v1/checkouts', { method: 'POST', body: { buyer: made.buyer.id, items: [{ listing: made.vase.id }, { listing: made.print.id }] } });
    expect(checkout.status, checkout.text).toBe(201);
    await page.goto(`${scoped()}/checkouts`);
    const row = page.getByRole('table', { name: 'Checkouts' }).locator('tr', { has: page.getByRole('link', { name: checkout.body.id }) });
    await row.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await row.getByRole('link', { name: checkout.body.id }).click();
    const orders = page.getByRole('table', { name: 'Orders of the checkout' });
    await orders.getByRole('link', { name: 'Celadon vase' }).waitFor();
    await orders.getByRole('link', { name: 'Harbour print' }).waitFor();
    expect(await orders.textContent()).toContain('ada.prints@example.com');
    await d.checkA11y('checkout with names');
  });

  it('has a screenshot of each page an operator opens', async () => {
    const { page, ctx } = d;
    const pages: Array<[string, string, string]> = [
      ['checkouts', '/checkouts', 'Checkouts'],
      ['listing', `/listings/${made.vase.id}`, 'Celadon vase'],
      ['seller', `/sellers/${made.sellers[0].id}`, 'Ada Lovelace'],
      ['buyers', '/buyers', 'Buyers'],
      ['buyer', `/buyers/${made.buyer.id}`, 'Grace Hopper'],
      ['payment', `/payments/${made.paid.payment}`, ''],
      ['flags', '/flags', 'Flags'],
      ['moderation', '/moderation', 'Moderation log'],
      ['events', '/events', 'Events'],
      ['webhooks', '/webhooks', 'Webhooks'],
      ['processor', '/processor', ''],
      ['clock', '/clock', 'Test clock'],
    ];
    for (const [name, path, heading] of pages) {
      await page.goto(`${scoped()}${path}`);
      if (heading) await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      else await page.locator('h1').first().waitFor();
      await page.getByText('Loading…').first().waitFor({ state: 'detached' }).catch(() => undefined);
      await d.screenshot(name);
    }
    expect(ctx.marketplaceId).toBeTruthy();
  });
});
