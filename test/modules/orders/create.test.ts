// Creating orders (contract 9): the body, the amounts, the refusals in their order, Idempotency-Key
// on creation and transitions, units reserved, returned and sold, the listing sold; reading orders,
// their filters and their transition log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCategory, createListing, createPublishedListing, createSeller, storedEvents, suspendSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { DAY, orderHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = orderHelpers(() => ctx);

describe('create', () => {
  it('commits at once with payments off: amounts fixed, units reserved, order.created + order.committed, the claim window as deadline', async () => {
    await h.setSettings({ platform_fee: { percent_bps: 150, fixed_amount: 0 } });
    try {
      const { order, buyer, seller, listing } = await h.order({ quantity: 1, metadata: { ref: 'A-1' } }, { price: { amount: 4500, currency: 'USD' } });
      expect(order).toMatchObject({
        object: 'order',
        buyer: buyer.id,
        seller: seller.id,
        listing: listing.id,
        quantity: 1,
        unit_amount: 4500,
        subtotal: 4500,
        fee_amount: 68, // 67.5 rounded half up
        total: 4568,
        currency: 'USD',
        state: 'committed',
        payment: null,
        cancellation: null,
        dispute: null,
        metadata: { ref: 'A-1' },
      });
      expect(Date.parse(order.deadline) - Date.parse(order.created_at)).toBe(7 * DAY * 1000);
      expect((await h.getListing(listing.id)).quantity_available).toBe(4);
      expect((await storedEvents(ctx, order.id)).map((e) => e.type)).toEqual(['order.created', 'order.committed']);
      expect(await h.transitions(order.id)).toEqual([
        expect.objectContaining({ object: 'order_transition', order: order.id, from: null, to: 'committed', transition: 'create', actor: null }),
      ]);
      // The price changing later does not change the order.
      await ctx.request(`/v1/listings/${listing.id}`, { method: 'PATCH', body: { price: { amount: 9900, currency: 'USD' } } });
      expect((await h.getOrder(order.id)).unit_amount).toBe(4500);
    } finally {
      await h.setSettings({ platform_fee: { percent_bps: 0, fixed_amount: 0 } });
    }
  });

  it("takes the category's fee over the mode's (a null member counts as 0)", async () => {
    await h.setSettings({ platform_fee: { percent_bps: 1000, fixed_amount: 999 } });
    try {
      const category = await createCategory(ctx, { fee: { percent_bps: 250, fixed_amount: 30 } });
      const { order } = await h.order({ quantity: 3 }, { category: category.id, price: { amount: 4500, currency: 'USD' } });
      expect(order).toMatchObject({ subtotal: 13_500, fee_amount: 338 + 30, total: 13_500 + 368 });
      const fixedOnly = await createCategory(ctx, { fee: { fixed_amount: 100 } });
      const second = await h.order({}, { category: fixedOnly.id, price: { amount: 1000, currency: 'USD' } });
      expect(second.order.fee_amount).toBe(100);
    } finally {
      await h.setSettings({ platform_fee: { percent_bps: 0, fixed_amount: 0 } });
    }
  });

  it('awaits payment with payments on, with the payment window as deadline and no order.committed', async () => {
    await h.setSettings({ payments_enabled: true });
    try {
      const { order } = await h.order();
      expect(order.state).toBe('awaiting_payment');
      expect(Date.parse(order.deadline) - Date.parse(order.created_at)).toBe(1800 * 1000);
      expect((await storedEvents(ctx, order.id)).map((e) => e.type)).toEqual(['order.created']);
    } finally {
      await h.setSettings({ payments_enabled: false });
    }
  });

  it('validates the body: quantity bounds, unknown fields, payment_method', async () => {
    const { buyer, listing } = await h.parties();
    for (const body of [{ quantity: 0 }, { quantity: 100_001 }, { quantity: '1' }, { colour: 'red' }, { payment_method: 'cash' }]) {
      const res = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    const missing = await h.post('/v1/orders', { listing: listing.id });
    expect(missing.body.error).toMatchObject({ code: 'invalid_request', param: 'buyer' });
  });
});

describe('refusals, in the order of contract 9', () => {
  it('404 for an unknown buyer or listing', async () => {
    const { buyer, listing } = await h.parties();
    const noBuyer = await h.post('/v1/orders', { buyer: 'byr_nope', listing: listing.id });
    expect(noBuyer.status).toBe(404);
    expect(noBuyer.body.error).toMatchObject({ code: 'resource_missing', param: 'buyer' });
    const noListing = await h.post('/v1/orders', { buyer: buyer.id, listing: 'lst_nope' });
    expect(noListing.status).toBe(404);
    expect(noListing.body.error).toMatchObject({ code: 'resource_missing', param: 'listing' });
  });

  it('409 invalid_state for a listing that is not published, before self_order', async () => {
    const seller = await createSeller(ctx);
    const self = await createBuyer(ctx, { external_id: seller.external_id });
    const draft = await createListing(ctx, { seller: seller.id });
    const res = await h.post('/v1/orders', { buyer: self.id, listing: draft.id });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'invalid_state', param: 'listing' });
    expect(res.body.error.message).toContain('draft');
  });

  it('409 invalid_state for an erased buyer; the erased buyer keeps their orders', async () => {
    const { order, buyer, listing } = await h.order();
    expect((await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'DELETE' })).status).toBe(200);
    const res = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'invalid_state', param: 'buyer' });
    expect((await h.getOrder(order.id)).buyer).toBe(buyer.id);
  });

  it('403 self_order before seller_suspended, and seller_suspended before quantity_unavailable', async () => {
    const seller = await createSeller(ctx);
    const listing = await createPublishedListing(ctx, { seller: seller.id, quantity: 1 });
    const self = await createBuyer(ctx, { external_id: seller.external_id });
    await suspendSeller(ctx, seller.id);
    const selfOrder = await h.post('/v1/orders', { buyer: self.id, listing: listing.id, quantity: 5 });
    expect(selfOrder.status).toBe(403);
    expect(selfOrder.body.error.code).toBe('self_order');
    const other = await createBuyer(ctx);
    const suspended = await h.post('/v1/orders', { buyer: other.id, listing: listing.id, quantity: 5 });
    expect(suspended.status).toBe(403);
    expect(suspended.body.error.code).toBe('seller_suspended');
  });

  it('409 quantity_unavailable when fewer units are left, and nothing is reserved', async () => {
    const { buyer, listing } = await h.parties({ quantity: 2 });
    const res = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id, quantity: 3 });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'quantity_unavailable', param: 'quantity' });
    expect((await h.getListing(listing.id)).quantity_available).toBe(2);
    expect((await ctx.request(`/v1/orders?listing=${listing.id}`)).body.data).toEqual([]);
  });
});

describe('units', () => {
  it('return to the listing when an unclaimed order is cancelled; are sold when a claimed one is', async () => {
    const { order, listing, seller } = await h.order({ quantity: 2 });
    // The platform cancels with no body at all.
    const cancelled = await ctx.request(`/v1/orders/${order.id}/cancel`, { method: 'POST' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.state).toBe('cancelled');
    expect((await h.getListing(listing.id)).quantity_available).toBe(5);
    const buyer = await createBuyer(ctx);
    const second = (await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id, quantity: 2 })).body;
    await h.post(`/v1/orders/${second.id}/claim`, { actor: seller.id });
    await h.post(`/v1/orders/${second.id}/cancel`, {});
    expect((await h.getListing(listing.id)).quantity_available).toBe(3);
  });

  it('the listing becomes sold (listing.sold) when its units are sold, and takes no more orders', async () => {
    const { order, buyer, seller, listing } = await h.order({ quantity: 2 }, { quantity: 2 });
    await h.post(`/v1/orders/${order.id}/claim`, { actor: seller.id });
    await h.post(`/v1/orders/${order.id}/confirm`, { actor: buyer.id });
    const sold = await h.getListing(listing.id);
    expect(sold).toMatchObject({ status: 'sold', quantity_available: 0 });
    expect((await storedEvents(ctx, listing.id)).map((e) => e.type)).toContain('listing.sold');
    const again = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
  });
});

describe('Idempotency-Key', () => {
  it('replays a creation and a transition instead of doing them twice', async () => {
    const { buyer, seller, listing } = await h.parties();
    const key = { 'idempotency-key': `create-${listing.id}` };
    const first = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id }, key);
    const second = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id }, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect((await h.getListing(listing.id)).quantity_available).toBe(4);

    const claimKey = { 'idempotency-key': `claim-${first.body.id}` };
    const claimed = await h.post(`/v1/orders/${first.body.id}/claim`, { actor: seller.id }, claimKey);
    const replayed = await h.post(`/v1/orders/${first.body.id}/claim`, { actor: seller.id }, claimKey);
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual(claimed.body);
    expect(await h.transitions(first.body.id)).toHaveLength(2);

    const reused = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id, quantity: 2 }, key);
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });
});

describe('the reservation sent with the COMMIT', () => {
  it('answers what a later read gives, metadata keys in stored order', async () => {
    const { buyer, listing } = await h.parties();
    const created = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id, metadata: { zeta: 'z', a: 'a', '10': 'ten', bb: 'b' } });
    expect(created.status, created.text).toBe(201);
    const read = await ctx.request(`/v1/orders/${created.body.id}`);
    expect(read.text).toBe(created.text);
  });

  it('a refused reservation under an Idempotency-Key: the 409 is stored and replayed, nothing is written, the next order goes through', async () => {
    const { buyer, listing } = await h.parties({ quantity: 2 });
    const key = { 'idempotency-key': `short-${listing.id}` };
    const refused = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id, quantity: 3 }, key);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'quantity_unavailable', param: 'quantity' });
    const replayed = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id, quantity: 3 }, key);
    expect(replayed.status).toBe(409);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect((await ctx.request(`/v1/orders?listing=${listing.id}`)).body.data).toEqual([]);
    expect((await h.getListing(listing.id)).quantity_available).toBe(2);
    const next = await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id, quantity: 2 });
    expect(next.status, next.text).toBe(201);
    expect((await h.getListing(listing.id)).quantity_available).toBe(0);
  });
});

describe('read', () => {
  it('retrieves, lists newest first with filters and pages, and 404s unknown ids', async () => {
    const { order: a, buyer, seller, listing } = await h.order();
    const b = (await h.post('/v1/orders', { buyer: buyer.id, listing: listing.id })).body;
    await h.post(`/v1/orders/${b.id}/claim`, { actor: seller.id });
    expect((await h.getOrder(a.id)).id).toBe(a.id);
    const byBuyer = await ctx.request(`/v1/orders?buyer=${buyer.id}`);
    expect(byBuyer.body.data.map((o: { id: string }) => o.id)).toEqual([b.id, a.id]);
    const bySeller = await ctx.request(`/v1/orders?seller=${seller.id}&state=claimed`);
    expect(bySeller.body.data.map((o: { id: string }) => o.id)).toEqual([b.id]);
    const page = await ctx.request(`/v1/orders?listing=${listing.id}&limit=1`);
    expect(page.body).toMatchObject({ has_more: true, next_cursor: b.id });
    const next = await ctx.request(`/v1/orders?listing=${listing.id}&limit=1&starting_after=${b.id}`);
    expect(next.body.data.map((o: { id: string }) => o.id)).toEqual([a.id]);
    const bad = await ctx.request('/v1/orders?state=lost');
    expect(bad.status).toBe(400);
    for (const path of ['/v1/orders/ord_nope', '/v1/orders/ord_nope/events']) {
      const res = await ctx.request(path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_missing');
    }
    const transition = await h.post('/v1/orders/ord_nope/claim', { actor: seller.id });
    expect(transition.status).toBe(404);
  });
});
