// The ledger in the dashboard (docs/ledger.md): the order page lists the order's balance
// transactions, the seller page shows the seller's balance from the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentHelpers } from '../modules/payments/helpers.js';
import { startDashboard, type Dashboard } from './helpers.js';

describe('the ledger pages', () => {
  let d: Dashboard;

  beforeAll(async () => {
    d = await startDashboard();
  });
  afterAll(async () => {
    await d?.close();
  });

  it("shows an order's ledger lines and its seller's balance", async () => {
    const { page, ctx } = d;
    const h = paymentHelpers(() => ctx);
    await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 1000, fixed_amount: 30 }, release_delay_seconds: 0 });
    const made = await h.paid(); // 1130 = 1000 + 130 fee
    await h.refund({ order: made.order.id, amount: 113 });

    await page.goto('/dashboard/login');
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await page.getByLabel('Email').fill(ctx.owner.email);
    await page.getByLabel('Password').fill(ctx.owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Marketplaces' }).waitFor();

    await page.goto(`/dashboard/m/${ctx.marketplaceId}/test/orders/${made.order.id}`);
    const ledger = page.getByRole('table', { name: 'Ledger' });
    await ledger.getByText('platform_fee_refund').first().waitFor();
    const rows = await ledger.locator('tbody tr').allInnerTexts();
    expect(rows).toHaveLength(8); // charge, platform_fee, refund, platform_fee_refund: two lines each
    expect(rows.some((row) => row.includes('charge') && row.includes('buyer_funds') && row.includes('$11.30'))).toBe(true);
    expect(rows.some((row) => row.includes('refund') && row.includes('refunds_out') && row.includes('$1.13'))).toBe(true);
    await d.checkA11y('order with its ledger');

    await page.goto(`/dashboard/m/${ctx.marketplaceId}/test/sellers/${made.seller.id}`);
    const balance = page.getByRole('region', { name: 'Balance' });
    await balance.getByText('Pending (owed, not sent)').waitFor();
    expect(await balance.innerText()).toContain('$9.00');
    await d.checkA11y('seller with its balance');
  });
});
