// The refusals of order creation in the order of contract 9, one test per adjacent pair of the
// list: two preconditions fail at once and the earlier one answers. The list: unknown buyer,
// unknown listing, listing not published, buyer erased, self_order, seller_suspended,
// processor_not_connected, seller_payouts_not_enabled, quantity_unavailable. Live mode stands
// for a mode without a processor connection (the harness connects only test mode).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createListing, createPublishedListing, createSeller, suspendSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';
import { ownerToken } from '../accounts/manage-helpers.js';
import { orderHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = orderHelpers(() => ctx);

const live = () => ctx.keys.live.secret_key;

async function setLiveSettings(settings: Record<string, unknown>) {
  await ctx.db.query("UPDATE marketplace_modes SET settings = settings || $2::jsonb WHERE marketplace_id = $1 AND mode = 'live'", [
    ctx.marketplaceId,
    JSON.stringify(settings),
  ]);
}

function order(body: Record<string, unknown>, key?: string): Promise<TestResponse> {
  return ctx.request('/v1/orders', { method: 'POST', body, ...(key === undefined ? {} : { key }) });
}

function expectRefusal(res: TestResponse, status: number, code: string, param?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

async function erase(buyerId: string) {
  const res = await ctx.request(`/v1/buyers/${buyerId}`, { method: 'DELETE' });
  expect(res.status, res.text).toBe(200);
}

describe('two refusals at once: the earlier in contract 9 answers', () => {
  it('unknown buyer before unknown listing', async () => {
    expectRefusal(await order({ buyer: 'byr_nope', listing: 'lst_nope' }), 404, 'resource_missing', 'buyer');
  });

  it('unknown listing before an erased buyer (a listing that does not exist is not unpublished either)', async () => {
    const buyer = await createBuyer(ctx);
    await erase(buyer.id);
    expectRefusal(await order({ buyer: buyer.id, listing: 'lst_nope' }), 404, 'resource_missing', 'listing');
  });

  it('listing not published before an erased buyer', async () => {
    const buyer = await createBuyer(ctx);
    await erase(buyer.id);
    const draft = await createListing(ctx);
    const res = await order({ buyer: buyer.id, listing: draft.id });
    expectRefusal(res, 409, 'invalid_state', 'listing');
    expect(res.body.error.message).toContain('draft');
  });

  it('an erased buyer before self_order (the buyer shared the seller\'s external id before erasure)', async () => {
    const seller = await createSeller(ctx);
    const self = await createBuyer(ctx, { external_id: seller.external_id });
    const listing = await createPublishedListing(ctx, { seller: seller.id });
    await erase(self.id);
    expectRefusal(await order({ buyer: self.id, listing: listing.id }), 409, 'invalid_state', 'buyer');
  });

  it('self_order before seller_suspended', async () => {
    const seller = await createSeller(ctx);
    const listing = await createPublishedListing(ctx, { seller: seller.id });
    const self = await createBuyer(ctx, { external_id: seller.external_id });
    await suspendSeller(ctx, seller.id);
    expectRefusal(await order({ buyer: self.id, listing: listing.id }), 403, 'self_order');
  });

  describe('with payments on', () => {
    beforeAll(async () => {
      await h.setSettings({ payments_enabled: true });
      await setLiveSettings({ payments_enabled: true });
    });
    afterAll(async () => {
      await h.setSettings({ payments_enabled: false });
      await setLiveSettings({ payments_enabled: false });
    });

    it('seller_suspended before processor_not_connected', async () => {
      const seller = await createSeller(ctx, {}, live());
      const listing = await createPublishedListing(ctx, { seller: seller.id }, live());
      const buyer = await createBuyer(ctx, {}, live());
      const suspended = await ctx.request(`/v1/sellers/${seller.id}/suspend`, { method: 'POST', body: { reason: 'Policy violation.' }, key: live() });
      expect(suspended.status, suspended.text).toBe(200);
      expectRefusal(await order({ buyer: buyer.id, listing: listing.id }, live()), 403, 'seller_suspended');
    });

    it('processor_not_connected before seller_payouts_not_enabled (the platform\'s connection before the seller\'s onboarding)', async () => {
      // As a platform developer meets it: payments turned on and the test mode's processor
      // disconnected through the management API, a seller who has not finished onboarding.
      const owner = await ownerToken(ctx);
      const mode = `/manage/v1/marketplaces/${ctx.marketplaceId}/modes/test`;
      const settings = await ctx.request(`${mode}/settings`, { method: 'PATCH', key: owner, body: { payments_enabled: true } });
      expect(settings.status, settings.text).toBe(200);
      const disconnected = await ctx.request(`${mode}/processor`, { method: 'DELETE', key: owner });
      expect(disconnected.status, disconnected.text).toBe(200);
      try {
        const seller = await createSeller(ctx);
        const listing = await createPublishedListing(ctx, { seller: seller.id });
        const buyer = await createBuyer(ctx);
        expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.payouts.status).toBe('not_started');
        expectRefusal(await order({ buyer: buyer.id, listing: listing.id }), 403, 'processor_not_connected');
        // Under an Idempotency-Key the checks run inside the key's transaction: the same answer.
        const keyed = await ctx.request('/v1/orders', { method: 'POST', body: { buyer: buyer.id, listing: listing.id }, headers: { 'idempotency-key': 'refusal-order-1' } });
        expectRefusal(keyed, 403, 'processor_not_connected');
        // The same in live mode, which was never connected.
        const liveSeller = await createSeller(ctx, {}, live());
        const liveListing = await createPublishedListing(ctx, { seller: liveSeller.id }, live());
        const liveBuyer = await createBuyer(ctx, {}, live());
        expectRefusal(await order({ buyer: liveBuyer.id, listing: liveListing.id }, live()), 403, 'processor_not_connected');
      } finally {
        const reconnected = await ctx.request(`${mode}/processor`, { method: 'PUT', key: owner, body: { provider: 'simulated' } });
        expect(reconnected.status, reconnected.text).toBe(200);
      }
    });

    it('seller_payouts_not_enabled before quantity_unavailable', async () => {
      const seller = await createSeller(ctx);
      const listing = await createPublishedListing(ctx, { seller: seller.id, quantity: 1 });
      const buyer = await createBuyer(ctx);
      expectRefusal(await order({ buyer: buyer.id, listing: listing.id, quantity: 2 }), 403, 'seller_payouts_not_enabled');
      expect((await h.getListing(listing.id)).quantity_available).toBe(1);
    });
  });
});
