// Checkout test helpers over HTTP: sellers with published listings, a buyer, checkouts.
import { expect } from 'vitest';
import { createBuyer, createPublishedListing, createSeller, type Json } from '../../helpers/factories.js';
import type { TestContext, TestResponse } from '../../helpers/harness.js';

export function checkoutHelpers(ctx: () => TestContext) {
  const post = (url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse> =>
    ctx().request(url, { method: 'POST', ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });

  async function setSettings(settings: Record<string, unknown>) {
    await ctx().db.query('UPDATE marketplace_modes SET settings = settings || $2::jsonb WHERE marketplace_id = $1 AND mode = $3', [
      ctx().marketplaceId,
      JSON.stringify(settings),
      'test',
    ]);
  }

  /** A seller with payouts enabled (so it can be paid with payments on). */
  async function seller() {
    const made = await createSeller(ctx());
    const payouts = await post(`/v1/test_helpers/sellers/${made.id}/payouts`, { status: 'enabled' });
    expect(payouts.status, payouts.text).toBe(200);
    return made;
  }

  /** `count` sellers, each with one published listing (quantity 5 unless given), and a buyer. */
  async function cart(count: number, listing: Record<string, unknown> = {}) {
    const buyer = await createBuyer(ctx());
    const listings: Json[] = [];
    for (let i = 0; i < count; i++) {
      const s = await seller();
      listings.push(await createPublishedListing(ctx(), { seller: s.id, quantity: 5, price: { amount: 1000 * (i + 1), currency: 'USD' }, ...listing }));
    }
    return { buyer, listings };
  }

  async function getListing(id: string): Promise<Json> {
    return (await ctx().request(`/v1/listings/${id}`)).body;
  }

  async function ordersOf(checkoutId: string): Promise<Json[]> {
    const res = await ctx().request(`/v1/orders?checkout=${checkoutId}&limit=100`);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }

  return { post, setSettings, seller, cart, getListing, ordersOf };
}
