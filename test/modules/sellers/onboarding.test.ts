// Onboarding links and the simulated processor's onboarding page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const urls = { return_url: 'https://platform.example/done', refresh_url: 'https://platform.example/retry' };
const createLink = (sellerId: string, body: unknown = urls, key?: string) =>
  ctx.request(`/v1/sellers/${sellerId}/onboarding_links`, { body, key });
const page = (path: string, method: 'GET' | 'POST' = 'GET') =>
  ctx.app.inject({ method, url: path, ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' } : {}) });

describe('POST /v1/sellers/{id}/onboarding_links', () => {
  it('answers a simulated link valid one hour, and the first one opens a processor account (payouts pending)', async () => {
    const seller = await createSeller(ctx);
    const res = await createLink(seller.id);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'onboarding_link',
      id: expect.stringMatching(/^obl_/),
      seller: seller.id,
      url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:8080/simulated/onboarding/${res.body.id}/[0-9A-Za-z]{32}$`)),
      expires_at: new Date(Date.parse(res.body.created_at) + 3600_000).toISOString(),
      created_at: expect.any(String),
    });
    const after = await ctx.request(`/v1/sellers/${seller.id}`);
    expect(after.body.payouts).toEqual({ status: 'pending', processor_account: expect.stringMatching(/^acct_sim_/) });
    const events = await storedEvents(ctx, seller.id);
    expect(events.map((e) => e.type)).toEqual(['seller.created', 'seller.payouts_updated']);
    expect(events[1]!.data.previous_attributes).toEqual({ payouts: { status: 'not_started', processor_account: null } });
    const second = await createLink(seller.id);
    expect(second.status).toBe(201);
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.payouts.processor_account).toBe(after.body.payouts.processor_account);
  });

  it('completing the simulated page enables payouts, emits seller.payouts_updated and redirects to return_url', async () => {
    const seller = await createSeller(ctx);
    const link = (await createLink(seller.id)).body;
    const path = new URL(link.url).pathname;
    const view = await page(path);
    expect(view.statusCode).toBe(200);
    expect(view.headers['content-type']).toContain('text/html');
    expect(view.body).toContain('Complete onboarding');
    expect(view.headers['cache-control']).toBe('no-store');
    const done = await page(path, 'POST');
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(urls.return_url);
    const after = (await ctx.request(`/v1/sellers/${seller.id}`)).body;
    expect(after.payouts.status).toBe('enabled');
    const events = await storedEvents(ctx, seller.id);
    expect(events.map((e) => e.type)).toEqual(['seller.created', 'seller.payouts_updated', 'seller.payouts_updated']);
    expect(events[2]!.data.object.payouts).toEqual(after.payouts);
    // Single use: the link now sends the seller to refresh_url.
    const reused = await page(path, 'POST');
    expect(reused.statusCode).toBe(303);
    expect(reused.headers.location).toBe(urls.refresh_url);
    expect((await page(path)).headers.location).toBe(urls.refresh_url);
  });

  it('an expired link redirects to refresh_url and changes nothing', async () => {
    const seller = await createSeller(ctx);
    const link = (await createLink(seller.id)).body;
    await ctx.request('/v1/test_helpers/clock/advance', { body: { seconds: 3601 } });
    const path = new URL(link.url).pathname;
    const view = await page(path);
    expect(view.statusCode).toBe(302);
    expect(view.headers.location).toBe(urls.refresh_url);
    const done = await page(path, 'POST');
    expect(done.headers.location).toBe(urls.refresh_url);
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.payouts.status).toBe('pending');
  });

  it('an unknown link answers a 404 page', async () => {
    const res = await page('/simulated/onboarding/obl_01jd00000000000000000000zz');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('does not exist');
  });

  it("names the seller on the page (issue 34, item 9)", async () => {
    const seller = await createSeller(ctx, { name: 'Ada <Lovelace> & Co' });
    const view = await page(new URL((await createLink(seller.id)).body.url).pathname);
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain('Ada &lt;Lovelace&gt; &amp; Co');
    expect(view.body).toContain(seller.id);
  });

  // Issue 33, item 5, as a neighbour would try it: link ids minted together differ by little, so
  // the id alone must not open the page or complete a stranger's onboarding.
  it('the bare link id, or the id with another token, answers 404 and completes nothing; the right URL works', async () => {
    const seller = await createSeller(ctx);
    const link = (await createLink(seller.id)).body;
    const path = new URL(link.url).pathname;
    const token = path.split('/').at(-1)!;
    const other = (await createLink(seller.id)).body;
    const otherToken = new URL(other.url).pathname.split('/').at(-1)!;
    const wrong = [
      `/simulated/onboarding/${link.id}`,
      `/simulated/onboarding/${link.id}/${otherToken}`,
      `/simulated/onboarding/${link.id}/${token.slice(0, -1)}`,
      `/simulated/onboarding/${link.id}/${token}x`,
      `/simulated/onboarding/${link.id}/${token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase()}`,
      `/simulated/onboarding/${link.id}/${link.id}`,
    ];
    for (const bad of wrong) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await page(bad, method);
        expect(res.statusCode, `${method} ${bad}`).toBe(404);
        expect(res.body).toContain('does not exist');
      }
    }
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.payouts.status).toBe('pending');
    expect((await page(path)).statusCode).toBe(200);
    expect((await page(path, 'POST')).headers.location).toBe(urls.return_url);
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.payouts.status).toBe('enabled');
  });

  it('answers 403 processor_not_connected when the mode has no processor connection', async () => {
    const seller = await createSeller(ctx, {}, ctx.keys.live.secret_key);
    const res = await createLink(seller.id, urls, ctx.keys.live.secret_key);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('processor_not_connected');
  });

  it('answers 404 for an unknown seller and 409 invalid_state for an erased one', async () => {
    const missing = await createLink('sel_01jd00000000000000000000zz');
    expect(missing.status).toBe(404);
    const seller = await createSeller(ctx);
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    const erased = await createLink(seller.id);
    expect(erased.status).toBe(409);
    expect(erased.body.error.code).toBe('invalid_state');
  });

  it('needs absolute http(s) URLs with a host, of at most 2000 characters', async () => {
    const seller = await createSeller(ctx);
    const long = `https://a.example/${'x'.repeat(2000 - 'https://a.example/'.length)}`;
    expect((await createLink(seller.id, { ...urls, return_url: long })).status).toBe(201);
    for (const url of ['http://localhost:3000/done', 'HTTPS://user@platform.example/x?y=1#z', 'https://[::1]:8443/done', 'https://10.0.0.1']) {
      const ok = await createLink(seller.id, { ...urls, return_url: url, refresh_url: url });
      expect(ok.status, `${url}: ${ok.text.slice(0, 200)}`).toBe(201);
    }
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ refresh_url: urls.refresh_url }, 'return_url'],
      [{ return_url: urls.return_url }, 'refresh_url'],
      [{ ...urls, return_url: 'ftp://a.example/x' }, 'return_url'],
      [{ ...urls, refresh_url: 'javascript:alert(1)' }, 'refresh_url'],
      [{ ...urls, return_url: 'not a url' }, 'return_url'],
      [{ ...urls, return_url: `${long}x` }, 'return_url'],
      // No host.
      [{ ...urls, return_url: 'https://' }, 'return_url'],
      [{ ...urls, refresh_url: 'http://' }, 'refresh_url'],
      [{ ...urls, return_url: 'https:///done' }, 'return_url'],
      [{ ...urls, refresh_url: 'https://:443/retry' }, 'refresh_url'],
      [{ ...urls, return_url: 'https://user@' }, 'return_url'],
      [{ ...urls, refresh_url: 'https://?next=1' }, 'refresh_url'],
      [{ ...urls, return_url: '/relative/done' }, 'return_url'],
      [{ ...urls, extra: 1 }, 'extra'],
    ];
    for (const [body, param] of cases) {
      const res = await createLink(seller.id, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    }
  });
});
