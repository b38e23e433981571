// Checkouts in the dashboard (issue 24): checkouts made through the API appear in the list, which
// filters by status and buyer; a checkout's page links its orders (in item order) and its payment,
// an order of a checkout links back to it, and the charge's page lists its shares, one per order.
// axe runs on every page visited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../helpers/factories.js';
import { orderHelpers } from '../modules/orders/helpers.js';
import { openSection, startDashboard, type Dashboard } from './helpers.js';

describe('checkouts in the dashboard', () => {
  let d: Dashboard;

  beforeAll(async () => {
    d = await startDashboard();
  });
  afterAll(async () => {
    await d?.close();
  });

  it('lists a checkout made through the API, and its page links its orders and its payment', async () => {
    const { page, ctx } = d;
    const h = orderHelpers(() => ctx);
    await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 250, fixed_amount: 0 } });
    // Three sellers, each with a listing; the first party's buyer checks out one of each, paid.
    const desk = await h.parties({ title: 'Walnut desk', price: { amount: 45000, currency: 'USD' } });
    const vase = await h.parties({ title: 'Ceramic vase', price: { amount: 3499, currency: 'USD' } });
    const linen = await h.parties({ title: 'Linen throw', price: { amount: 8950, currency: 'USD' } });
    const created = await h.post('/v1/checkouts', {
      buyer: desk.buyer.id,
      items: [{ listing: desk.listing.id }, { listing: vase.listing.id, quantity: 2 }, { listing: linen.listing.id }],
    });
    expect(created.status, created.text).toBe(201);
    const paid = created.body as Json;
    expect(paid.orders).toHaveLength(3);
    const succeeded = await h.post(`/v1/test_helpers/payments/${paid.payment}/succeed`);
    expect(succeeded.status, succeeded.text).toBe(200);
    expect((await ctx.request(`/v1/checkouts/${paid.id}`)).body.status).toBe('completed');
    // Another buyer's checkout, left awaiting payment.
    const waiting = await h.post('/v1/checkouts', { buyer: vase.buyer.id, items: [{ listing: vase.listing.id }] });
    expect(waiting.status, waiting.text).toBe(201);
    expect(waiting.body.status).toBe('awaiting_payment');

    await page.goto('/dashboard/login');
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await page.getByLabel('Email').fill(ctx.owner.email);
    await page.getByLabel('Password').fill(ctx.owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Marketplaces' }).waitFor();
    await page.goto(`/dashboard/m/${ctx.marketplaceId}/test`);
    await openSection(page, 'Checkouts');
    const table = page.getByRole('table', { name: 'Checkouts' });
    await table.getByRole('link', { name: paid.id }).waitFor();
    await table.getByRole('link', { name: waiting.body.id }).waitFor();
    await d.checkA11y('checkouts');

    // Filters: by status, then by buyer.
    await page.getByLabel('Status').selectOption('completed');
    await expect.poll(() => table.getByRole('link', { name: waiting.body.id }).count()).toBe(0);
    await table.getByRole('link', { name: paid.id }).waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Buyer ID').fill(vase.buyer.id);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => table.getByRole('link', { name: paid.id }).count()).toBe(0);
    await table.getByRole('link', { name: waiting.body.id }).waitFor();
    await page.getByLabel('Buyer ID').fill('');
    await page.getByRole('button', { name: 'Filter' }).click();

    // The checkout's page: its orders in item order, each a link, and its payment.
    await table.getByRole('link', { name: paid.id }).click();
    await page.getByRole('heading', { name: '$624.72 checkout' }).waitFor();
    const orders = page.getByRole('table', { name: 'Orders of the checkout' });
    await orders.getByRole('link', { name: paid.orders[0] }).waitFor();
    const linked = await orders.locator('tbody tr td:first-child a').allTextContents();
    expect(linked).toEqual(paid.orders);
    expect(await orders.locator('.badge').allTextContents()).toEqual(['committed', 'committed', 'committed']);
    await page.getByRole('link', { name: paid.payment }).waitFor();
    await d.checkA11y('checkout');
    await d.screenshot('checkout');

    // An order of the checkout links back to it.
    await orders.getByRole('link', { name: paid.orders[1] }).click();
    await page.getByRole('heading', { name: 'Transitions' }).waitFor();
    await d.checkA11y('order of a checkout');
    await page.getByRole('link', { name: paid.id }).click();
    await page.getByRole('table', { name: 'Orders of the checkout' }).waitFor();

    // The payment's page: the checkout's charge, linking back to the checkout, and its shares, one
    // per order; a refund of one order is its share's alone.
    const refund = await h.post('/v1/refunds', { order: paid.orders[1], amount: 1000 });
    expect(refund.status, refund.text).toBe(201);
    await page.getByRole('link', { name: paid.payment }).click();
    await page.getByRole('heading', { name: '$624.72 checkout charge' }).waitFor();
    await page.getByRole('link', { name: paid.id }).waitFor();
    const shares = page.getByRole('table', { name: 'Shares of the charge' });
    await shares.waitFor();
    expect(await shares.locator('tbody tr td:nth-child(2) a').allTextContents()).toEqual(paid.orders);
    expect(await shares.locator('tbody tr td:nth-child(5)').allTextContents()).toEqual(['$0.00', '$10.00', '$0.00']);
    await d.checkA11y('checkout charge');

    // A checkout awaiting payment links the buyer's payment page (its payment_url).
    expect(waiting.body.payment_url).toMatch(/^http/);
    await openSection(page, 'Checkouts');
    await table.getByRole('link', { name: waiting.body.id }).click();
    const payLink = page.getByRole('link', { name: 'Open the buyer’s payment page' });
    await payLink.waitFor();
    expect(await payLink.getAttribute('href')).toBe(waiting.body.payment_url);
    await d.checkA11y('checkout awaiting payment');
  });
});
