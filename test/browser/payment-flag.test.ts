// The amount check in the dashboard: a processor's success report for another amount was refused
// (issue 21, item 6); the order's page flags its payment, and says what was reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderHelpers } from '../modules/orders/helpers.js';
import { startDashboard, type Dashboard } from './helpers.js';

describe('a payment whose success report named another amount', () => {
  let d: Dashboard;

  beforeAll(async () => {
    d = await startDashboard();
  });
  afterAll(async () => {
    await d?.close();
  });

  it('is flagged on its order page', async () => {
    const { page, ctx } = d;
    const h = orderHelpers(() => ctx);
    await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 0, fixed_amount: 0 } });
    const made = await h.order({}, { price: { amount: 1000, currency: 'USD' } });
    const reported = await h.post(`/v1/test_helpers/payments/${made.order.payment}/succeed`, { amount: 1 });
    expect(reported.body).toMatchObject({ status: 'awaiting_payment', amount_mismatch: { amount: 1, currency: 'USD' } });

    await page.goto('/dashboard/login');
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await page.getByLabel('Email').fill(ctx.owner.email);
    await page.getByLabel('Password').fill(ctx.owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Marketplaces' }).waitFor();
    await page.goto(`/dashboard/m/${ctx.marketplaceId}/test/orders/${made.order.id}`);
    const flag = page.getByText('amount mismatch: $0.01 reported');
    await flag.waitFor();
    expect(await flag.getAttribute('title')).toContain('this payment is 1000 USD');
    await d.checkA11y('order with a flagged payment');
  });
});
