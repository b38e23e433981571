// Order test helpers over HTTP: settings, the test clock, orders and orders in each state.
import { expect } from 'vitest';
import { createBuyer, createPublishedListing, createSeller, type Json } from '../../helpers/factories.js';
import type { TestContext, TestResponse } from '../../helpers/harness.js';

export const DAY = 86_400;

export function orderHelpers(ctx: () => TestContext) {
  const post = (url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse> =>
    ctx().request(url, { method: 'POST', ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });

  async function setSettings(settings: Record<string, unknown>) {
    await ctx().db.query('UPDATE marketplace_modes SET settings = settings || $2::jsonb WHERE marketplace_id = $1 AND mode = $3', [
      ctx().marketplaceId,
      JSON.stringify(settings),
      'test',
    ]);
  }

  async function advance(seconds: number) {
    const res = await post('/v1/test_helpers/clock/advance', { seconds });
    expect(res.status, res.text).toBe(200);
  }

  async function testNow(): Promise<number> {
    return Date.parse((await ctx().request('/v1/test_helpers/clock')).body.now);
  }

  /** A seller (onboarded: payouts enabled, so orders work with payments on), a buyer and a published listing of the seller. */
  async function parties(listing: Record<string, unknown> = {}) {
    const seller = await createSeller(ctx());
    const payouts = await post(`/v1/test_helpers/sellers/${seller.id}/payouts`, { status: 'enabled' });
    expect(payouts.status, payouts.text).toBe(200);
    const buyer = await createBuyer(ctx());
    const published = await createPublishedListing(ctx(), { seller: seller.id, quantity: 5, ...listing });
    return { seller, buyer, listing: published };
  }

  async function order(body: Record<string, unknown> = {}, listing: Record<string, unknown> = {}) {
    const p = await parties(listing);
    const res = await post('/v1/orders', { buyer: p.buyer.id, listing: p.listing.id, ...body });
    expect(res.status, res.text).toBe(201);
    return { ...p, order: res.body as Json };
  }

  async function getOrder(id: string): Promise<Json> {
    return (await ctx().request(`/v1/orders/${id}`)).body;
  }

  async function getListing(id: string): Promise<Json> {
    return (await ctx().request(`/v1/listings/${id}`)).body;
  }

  async function transitions(id: string): Promise<Json[]> {
    const res = await ctx().request(`/v1/orders/${id}/events`);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }

  return { post, setSettings, advance, testNow, parties, order, getOrder, getListing, transitions };
}
