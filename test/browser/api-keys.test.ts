// Publishable keys in the dashboard: public, so the overview and the API keys page show them whole
// with a copy button (a developer who lost the first-start banner copies the key their storefront
// needs from here); secret keys stay masked. axe runs on each page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSection, startDashboard, type Dashboard } from './helpers.js';

describe('publishable keys in the dashboard', () => {
  let d: Dashboard;

  beforeAll(async () => {
    d = await startDashboard();
    await d.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.base });
    const { page, ctx } = d;
    await page.goto('/dashboard/login');
    await page.getByLabel('Email').fill(ctx.owner.email);
    await page.getByLabel('Password').fill(ctx.owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Test marketplace' }).click();
    await page.getByText('USD · Test mode').waitFor();
  });
  afterAll(async () => {
    await d?.close();
  });

  const clipboard = () => d.page.evaluate('navigator.clipboard.readText()');

  it('the overview shows the publishable key whole with a copy button', async () => {
    const { page, ctx } = d;
    const section = page.getByRole('region', { name: 'Publishable keys' });
    const shown = section.locator('[data-publishable-key]');
    await shown.first().waitFor();
    expect(await shown.allTextContents()).toEqual([ctx.keys.test.publishable_key]);
    await section.getByRole('button', { name: 'Copy' }).click();
    await section.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await clipboard()).toBe(ctx.keys.test.publishable_key);
    expect(await page.content()).not.toContain(ctx.keys.test.secret_key);
    await d.checkA11y('overview with publishable keys');
    await d.screenshot('overview-publishable');

    await page.getByRole('button', { name: 'Live mode' }).click();
    await page.getByText('USD · Live mode').waitFor();
    await expect.poll(() => section.locator('[data-publishable-key]').allTextContents()).toEqual([ctx.keys.live.publishable_key]);
    await page.getByRole('button', { name: 'Test mode' }).click();
    await page.getByText('USD · Test mode').waitFor();
  });

  it('the API keys page shows publishable keys whole with a copy button, secret keys masked', async () => {
    const { page, ctx } = d;
    await openSection(page, 'API keys');
    await page.getByLabel('Type').selectOption('publishable');
    await page.getByLabel('Name (optional)').fill('Storefront');
    await page.getByRole('button', { name: 'Create key' }).click();
    const made = (await page.locator('[data-secret]').textContent()) ?? '';
    expect(made).toMatch(/^pk_test_/);
    await page.getByRole('button', { name: 'Done' }).click();

    const storefront = page.getByRole('row').filter({ hasText: 'Storefront' });
    await expect.poll(() => storefront.locator('[data-publishable-key]').textContent()).toBe(made);
    await storefront.getByRole('button', { name: 'Copy' }).click();
    await storefront.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await clipboard()).toBe(made);

    const first = page.getByRole('row').filter({ hasText: ctx.keys.test.publishable_key });
    expect(await first.locator('[data-publishable-key]').textContent()).toBe(ctx.keys.test.publishable_key);
    const secret = page.getByRole('row').filter({ hasText: 'secret' });
    expect(await secret.first().locator('code').textContent()).toBe(`sk_test_…${ctx.keys.test.secret_key.slice(-4)}`);
    expect(await secret.first().getByRole('button', { name: 'Copy' }).count()).toBe(0);
    expect(await page.content()).not.toContain(ctx.keys.test.secret_key);
    await d.checkA11y('api keys with publishable keys');
    await d.screenshot('api-keys-publishable');
  });
});
