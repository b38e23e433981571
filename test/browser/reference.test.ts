// The API reference at /docs in a real browser: it renders the service's OpenAPI document, the
// `webhooks` section included, from this service's own files only (any other origin is refused
// and recorded), without a CSP violation; and / takes a browser to the dashboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from './helpers.js';

// Swagger UI resolves the document (about 1 MB) before it draws; the tags start closed
// (docExpansion 'none': drawing every operation of a 3.1 document at once stalled it), and a tag's
// operations are drawn when it is opened. Generous bounds, not timings.
const RENDER_MS = 240_000;
const TEST_MS = 300_000;

let dash: Dashboard;
const elsewhere: string[] = [];

beforeAll(async () => {
  dash = await startDashboard();
  await dash.context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(dash.base) || url.startsWith('data:')) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
});
afterAll(() => dash.close());

describe('/docs', () => {
  it('renders the reference with its operations and its webhooks, from this service alone', async () => {
    const { page } = dash;
    await page.goto('/docs');
    await expect.poll(() => page.locator('.swagger-ui .info .title').textContent(), { timeout: RENDER_MS }).toContain('Marketplace Backend API');
    // Every tag, each opening on its operations, and the webhooks section (OpenAPI 3.1) with an event of each kind.
    for (const tag of ['Sellers', 'Listings', 'Orders', 'Checkouts', 'Payments', 'Management']) {
      await page.locator(`#operations-tag-${tag}`).waitFor({ timeout: RENDER_MS });
    }
    await page.locator('#operations-tag-Orders').click();
    await page.locator('.opblock-summary-path[data-path="/v1/orders/{id}"]').first().waitFor({ timeout: RENDER_MS });
    await page.getByRole('heading', { name: 'Webhooks' }).first().waitFor();
    await page.locator('.opblock-summary-path[data-path="order.created"]').first().waitFor();
    expect(elsewhere).toEqual([]);
    expect(dash.problems).toEqual([]);
    await dash.screenshot('api-reference');
  }, TEST_MS);

  it('shows an operation with its error codes when opened', async () => {
    const { page } = dash;
    await page.goto('/docs#/Orders');
    const operation = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/v1/orders/{id}/cancel"]') }).first();
    await operation.locator('.opblock-summary-path').click({ timeout: RENDER_MS });
    await operation.getByText('4XX', { exact: true }).first().waitFor();
    // The example of the error answer (the codes' enum itself is checked on the document, test/http/reference.test.ts).
    await expect.poll(() => operation.textContent()).toMatch(/"code":\s*"[a-z_]+"/);
    expect(elsewhere).toEqual([]);
    expect(dash.problems).toEqual([]);
  }, TEST_MS);
});

describe('/', () => {
  it('takes a browser to the dashboard', async () => {
    await dash.page.goto('/');
    expect(new URL(dash.page.url()).pathname).toMatch(/^\/dashboard/);
  });
});
