// A checkout's refusals (contract 9's, item by item in item order), each naming its item in
// `param`, and leaving nothing behind; the size of the cart; an idempotent retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createListing, suspendSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';
import { checkoutHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = checkoutHelpers(() => ctx);

function expectRefusal(res: TestResponse, status: number, code: string, param: string | undefined) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.param).toBe(param);
}

async function unitsLeft(listingIds: readonly string[]): Promise<number[]> {
  return Promise.all(listingIds.map(async (id) => (await h.getListing(id)).quantity_available));
}

describe('refusals, each naming its item', () => {
  it('400 naming `items` when the orders would be payable each but their sum exceeds the largest amount, and reserves nothing', async () => {
    const { buyer, listings } = await h.cart(2, { price: { amount: 60_000_000_000, currency: 'USD' } });
    const res = await h.post('/v1/checkouts', { buyer: buyer.id, items: listings.map((l) => ({ listing: l.id })) });
    expectRefusal(res, 400, 'invalid_request', 'items');
    expect(await unitsLeft(listings.map((l) => l.id))).toEqual([5, 5]);
  });

  it('404 for an unknown buyer (`buyer`), before any item', async () => {
    const { listings } = await h.cart(1);
    expectRefusal(await h.post('/v1/checkouts', { buyer: 'byr_nope', items: [{ listing: 'lst_nope' }, { listing: listings[0].id }] }), 404, 'resource_missing', 'buyer');
  });

  it('404 for an unknown listing (`items[1].listing`), after a good item, before a later refusal', async () => {
    const { buyer, listings } = await h.cart(2);
    await suspendSeller(ctx, listings[1].seller);
    const res = await h.post('/v1/checkouts', { buyer: buyer.id, items: [{ listing: listings[0].id }, { listing: 'lst_nope' }, { listing: listings[1].id }] });
    expectRefusal(res, 404, 'resource_missing', 'items[1].listing');
    expect(await unitsLeft([listings[0].id])).toEqual([5]);
  });

  it('409 invalid_state for a listing not published (`items[1].listing`)', async () => {
    const { buyer, listings } = await h.cart(1);
    const draft = await createListing(ctx);
    const res = await h.post('/v1/checkouts', { buyer: buyer.id, items: [{ listing: listings[0].id }, { listing: draft.id }] });
    expectRefusal(res, 409, 'invalid_state', 'items[1].listing');
    expect(res.body.error.message).toContain(`The listing ${draft.id} is draft`);
  });

  it('409 invalid_state for an erased buyer (`buyer`)', async () => {
    const { listings } = await h.cart(1);
    const buyer = await createBuyer(ctx);
    expect((await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'DELETE' })).status).toBe(200);
    expectRefusal(await h.post('/v1/checkouts', { buyer: buyer.id, items: [{ listing: listings[0].id }] }), 409, 'invalid_state', 'buyer');
  });

  it('403 self_order for an item of a seller that is the buyer (`items[2].listing`)', async () => {
    const { listings } = await h.cart(3);
    const seller = (await ctx.request(`/v1/sellers/${listings[2].seller}`)).body;
    const buyer = await createBuyer(ctx, { external_id: seller.external_id });
    const res = await h.post('/v1/checkouts', { buyer: buyer.id, items: listings.map((l) => ({ listing: l.id })) });
    expectRefusal(res, 403, 'self_order', 'items[2].listing');
    expect(await unitsLeft(listings.map((l) => l.id))).toEqual([5, 5, 5]);
  });

  it('403 seller_suspended (`items[1].listing`)', async () => {
    const { buyer, listings } = await h.cart(2);
    await suspendSeller(ctx, listings[1].seller);
    expectRefusal(await h.post('/v1/checkouts', { buyer: buyer.id, items: listings.map((l) => ({ listing: l.id })) }), 403, 'seller_suspended', 'items[1].listing');
  });

  it('409 quantity_unavailable (`items[0].quantity`), after the other refusals of every item', async () => {
    const { buyer, listings } = await h.cart(2);
    const draft = await createListing(ctx);
    // The first item is short, the second not published: the item checks come first.
    const res = await h.post('/v1/checkouts', { buyer: buyer.id, items: [{ listing: listings[0].id, quantity: 9 }, { listing: draft.id }] });
    expectRefusal(res, 409, 'invalid_state', 'items[1].listing');
    const short = await h.post('/v1/checkouts', { buyer: buyer.id, items: [{ listing: listings[0].id, quantity: 9 }, { listing: listings[1].id }] });
    expectRefusal(short, 409, 'quantity_unavailable', 'items[0].quantity');
    expect(await unitsLeft(listings.map((l) => l.id))).toEqual([5, 5]);
  });

  it('400 for no item or more than 50', async () => {
    const { buyer, listings } = await h.cart(1);
    const none = await h.post('/v1/checkouts', { buyer: buyer.id, items: [] });
    expect(none.status, none.text).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'invalid_request', param: 'items' });
    const many = await h.post('/v1/checkouts', { buyer: buyer.id, items: Array.from({ length: 51 }, () => ({ listing: listings[0].id })) });
    expect(many.status, many.text).toBe(400);
    expect(many.body.error).toMatchObject({ code: 'invalid_request', param: 'items' });
    const fifty = await h.post('/v1/checkouts', { buyer: buyer.id, items: Array.from({ length: 50 }, () => ({ listing: listings[0].id })) });
    expectRefusal(fifty, 409, 'quantity_unavailable', 'items[0].quantity');
  });

  it('400 naming the item for a bad item (the same notation as the refusals)', async () => {
    const { buyer, listings } = await h.cart(1);
    const cases: Array<[unknown, string]> = [
      [{ listing: listings[0].id, quantity: 0 }, 'items[0].quantity'],
      [{ listing: listings[0].id, quantity: 100_001 }, 'items[0].quantity'],
      [{ listing: listings[0].id, colour: 'red' }, 'items[0].colour'],
      [{}, 'items[0].listing'],
    ];
    for (const [item, param] of cases) expectRefusal(await h.post('/v1/checkouts', { buyer: buyer.id, items: [item] }), 400, 'invalid_request', param);
  });
});

describe('Idempotency-Key', () => {
  it('answers a retry with the same checkout and reserves nothing more', async () => {
    const { buyer, listings } = await h.cart(2);
    const body = { buyer: buyer.id, items: [{ listing: listings[0].id, quantity: 2 }, { listing: listings[1].id }] };
    const headers = { 'Idempotency-Key': `chk-${buyer.id}` };
    const first = await h.post('/v1/checkouts', body, headers);
    expect(first.status, first.text).toBe(201);
    const again = await h.post('/v1/checkouts', body, headers);
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await unitsLeft(listings.map((l) => l.id))).toEqual([3, 4]);
    expect((await ctx.db.query('SELECT id FROM checkouts WHERE buyer_id = $1', [buyer.id])).length).toBe(1);
    expect((await h.ordersOf(first.body.id)).length).toBe(2);
  });
});

describe('GET /v1/checkouts', () => {
  it('retrieves one, lists newest first filtered by buyer and status, pages, and 404s an unknown id', async () => {
    const { buyer, listings } = await h.cart(1);
    const other = await createBuyer(ctx);
    const made: string[] = [];
    for (const who of [buyer.id, other.id, buyer.id, buyer.id]) {
      const res = await h.post('/v1/checkouts', { buyer: who, items: [{ listing: listings[0].id }] });
      expect(res.status, res.text).toBe(201);
      made.push(res.body.id);
    }
    const mine = await ctx.request(`/v1/checkouts?buyer=${buyer.id}`);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.map((c: { id: string }) => c.id)).toEqual([made[3], made[2], made[0]]);
    const completed = await ctx.request(`/v1/checkouts?buyer=${other.id}&status=completed`);
    expect(completed.body.data.map((c: { id: string }) => c.id)).toEqual([made[1]]);
    expect((await ctx.request(`/v1/checkouts?buyer=${other.id}&status=expired`)).body.data).toEqual([]);
    const page1 = await ctx.request(`/v1/checkouts?buyer=${buyer.id}&limit=2`);
    expect(page1.body).toMatchObject({ has_more: true, next_cursor: made[2] });
    const page2 = await ctx.request(`/v1/checkouts?buyer=${buyer.id}&limit=2&starting_after=${page1.body.next_cursor}`);
    expect(page2.body.data.map((c: { id: string }) => c.id)).toEqual([made[0]]);
    expect(page2.body.has_more).toBe(false);
    expect((await ctx.request(`/v1/checkouts/${made[1]}`)).body).toMatchObject({ id: made[1], buyer: other.id, status: 'completed' });
    const missing = await ctx.request('/v1/checkouts/chk_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('resource_missing');
    const [order] = await h.ordersOf(made[1]!);
    expect(order).toMatchObject({ buyer: other.id, checkout: made[1] });
  });

  it('shows a plain order with checkout null', async () => {
    const { buyer, listings } = await h.cart(1);
    const res = await h.post('/v1/orders', { buyer: buyer.id, listing: listings[0].id });
    expect(res.status, res.text).toBe(201);
    expect(res.body.checkout).toBeNull();
  });
});
