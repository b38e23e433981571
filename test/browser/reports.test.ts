// Reports in the dashboard (issue 25): the Reports page in the nav asks for a report (a refused one
// shows the API's message), lists it pending, and once the worker built it shows it succeeded with
// a download link to the CSV. axe runs on the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReportJobs, download } from '../modules/reports/helpers.js';
import { openSection, startDashboard, type Dashboard } from './helpers.js';

describe('reports in the dashboard', () => {
  let d: Dashboard;

  beforeAll(async () => {
    d = await startDashboard();
  });
  afterAll(async () => {
    await d?.close();
  });

  it('creates a report, shows its status, and links its CSV once built', async () => {
    const { page, ctx } = d;
    await page.goto('/dashboard/login');
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await page.getByLabel('Email').fill(ctx.owner.email);
    await page.getByLabel('Password').fill(ctx.owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Marketplaces' }).waitFor();
    await page.goto(`/dashboard/m/${ctx.marketplaceId}/test`);
    await openSection(page, 'Reports');
    await page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
    await page.getByText('No reports').waitFor();

    // A seller statement of an unknown seller: the API's refusal shows.
    await page.getByLabel('Type').selectOption('seller_statement');
    await page.getByLabel('Seller ID').fill('sel_00000000000000000000000000');
    await page.getByRole('button', { name: 'Create report' }).click();
    await page.getByText("No such seller: 'sel_00000000000000000000000000'").first().waitFor();

    await page.getByLabel('Type').selectOption('balance_summary');
    await page.getByRole('button', { name: 'Create report' }).click();
    const table = page.getByRole('table', { name: 'Reports' });
    await table.getByText('Balance summary').waitFor();
    expect(await table.locator('.badge').allTextContents()).toEqual(['pending']);
    await d.checkA11y('reports');

    await runReportJobs(ctx);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const link = table.getByRole('link', { name: /Download CSV/ });
    await link.waitFor();
    expect(await table.locator('.badge').allTextContents()).toEqual(['succeeded']);
    const href = await link.getAttribute('href');
    expect(href).toMatch(/\/report_files\//);
    const file = await download(ctx, href!);
    expect(file.status).toBe(200);
    expect(file.text.split('\r\n')[0]).toBe('account,currency,opening_balance,movements_in,movements_out,closing_balance');
    await d.checkA11y('reports-built');
    await d.screenshot('reports');
  });
});
