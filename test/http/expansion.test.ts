// expand[] (src/http/expansion.ts, docs/expand.md): every path of orders, listings and refunds on
// retrieve and list, each expanded object equal to its own retrieve route's answer; the statements
// a page takes (one batch per kind and level, the same for 2 or 8 rows); the refusals (unknown
// path, three levels, a publishable key); null stays null; an erased buyer expands redacted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, type Json } from '../helpers/factories.js';
import { startTestApp, type TestContext } from '../helpers/harness.js';
import { checkoutHelpers } from '../modules/payments/checkout-helpers.js';
import { paymentHelpers } from '../modules/payments/helpers.js';

let ctx: TestContext;
const h = paymentHelpers(() => ctx);
const c = checkoutHelpers(() => ctx);

const ORDER_PATHS = ['listing', 'buyer', 'seller', 'payment', 'checkout', 'dispute', 'listing.seller', 'listing.category'];
const REFUND_PATHS = ['order', 'payment', ...ORDER_PATHS.filter((path) => !path.includes('.')).map((path) => `order.${path}`)];
/** Where each object is read on its own. */
const RETRIEVE: Record<string, string> = {
  listing: '/v1/listings',
  buyer: '/v1/buyers',
  seller: '/v1/sellers',
  payment: '/v1/payments',
  checkout: '/v1/checkouts',
  dispute: '/v1/disputes',
  category: '/v1/categories',
  order: '/v1/orders',
};

const query = (paths: string[], name = 'expand[]') => paths.map((path) => `${name}=${encodeURIComponent(path)}`).join('&');

const ORDER_KINDS: Record<string, string> = { listing: 'listing', buyer: 'buyer', seller: 'seller', payment: 'payment', checkout: 'checkout', dispute: 'dispute' };
const LISTING_KINDS: Record<string, string> = { seller: 'seller', category: 'category' };
const REFUND_KINDS: Record<string, string> = { order: 'order', payment: 'payment' };
const KINDS_IN: Record<string, Record<string, string>> = { order: ORDER_KINDS, listing: LISTING_KINDS };

/** The object with every expanded object inside it put back to its id. */
function collapsed(object: Json): Json {
  const isObject = (value: Json) => value !== null && typeof value === 'object' && typeof value.object === 'string' && typeof value.id === 'string';
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, isObject(value) ? (value as Json).id : value]));
}

/** The field, expanded along the path, is the object its own retrieve route answers (with its own expanded fields put back to ids). */
async function expectSame(object: Json, path: string, kinds: Record<string, string>) {
  const [field, inner] = path.split('.') as [string, string | undefined];
  const value = object[field];
  const kind = kinds[field]!;
  expect(value, `${path} on ${object.id}`).toMatchObject({ object: kind });
  expect(collapsed(value), `${path} on ${object.id}`).toEqual(await h.get(`${RETRIEVE[kind]}/${value.id}`));
  if (inner !== undefined) await expectSame(value, inner, KINDS_IN[kind]!);
}

let category: Json;
let disputedOrder: Json;
let checkoutOrder: Json;
let refund: Json;

beforeAll(async () => {
  ctx = await startTestApp();
  await h.setSettings({ payments_enabled: true, release_delay_seconds: 0, checkout_success_url: null, checkout_cancel_url: null });
  category = await createCategory(ctx);
  const paid = await h.paid({}, { category: category.id });
  await h.ok(`/v1/orders/${paid.order.id}/dispute`, { actor: paid.buyer.id, reason: 'not_as_described', description: 'Wrong colour.' });
  disputedOrder = await h.getOrder(paid.order.id);
  const refunded = await h.paid({}, { category: category.id });
  refund = await h.refund({ payment: refunded.payment.id, amount: 300 });
  const checkout = await c.unpaidCheckout([{ price: 1500 }]);
  checkoutOrder = checkout.orders[0];
}, 60_000);
afterAll(() => ctx.close());

describe('orders', () => {
  it('expands every path on retrieve: each object as its own retrieve route answers it', async () => {
    for (const order of [disputedOrder, checkoutOrder]) {
      const res = await ctx.request(`/v1/orders/${order.id}?${query(ORDER_PATHS)}`);
      expect(res.status, res.text).toBe(200);
      for (const path of ORDER_PATHS) {
        if (order[path.split('.')[0]!] === null || (path === 'listing.category' && order === checkoutOrder)) continue;
        await expectSame(res.body, path, ORDER_KINDS);
      }
    }
  });

  it('expands every path on list, and reads `expand` repeated or once like `expand[]`', async () => {
    const res = await ctx.request(`/v1/orders?limit=100&${query(ORDER_PATHS)}`);
    expect(res.status, res.text).toBe(200);
    for (const order of res.body.data as Json[]) {
      for (const path of ORDER_PATHS) {
        const first = path.split('.')[0]!;
        if (order[first] === null) continue;
        if (path === 'listing.category' && order.listing.category === null) continue;
        await expectSame(order, path, ORDER_KINDS);
      }
    }
    const repeated = await ctx.request(`/v1/orders/${disputedOrder.id}?${query(['listing', 'buyer'], 'expand')}`);
    expect(repeated.body).toMatchObject({ listing: { object: 'listing' }, buyer: { object: 'buyer' }, seller: disputedOrder.seller });
    const once = await ctx.request(`/v1/orders/${disputedOrder.id}?expand=dispute`);
    expect(once.body).toMatchObject({ dispute: { object: 'dispute', id: disputedOrder.dispute }, listing: disputedOrder.listing });
  });

  it('leaves null as null (an order with no dispute, one with no checkout)', async () => {
    const res = await ctx.request(`/v1/orders/${checkoutOrder.id}?${query(['dispute', 'checkout'])}`);
    expect(res.body.dispute).toBeNull();
    expect(res.body.checkout).toMatchObject({ object: 'checkout', id: checkoutOrder.checkout });
    const alone = await ctx.request(`/v1/orders/${disputedOrder.id}?${query(['checkout', 'dispute'])}`);
    expect(alone.body).toMatchObject({ checkout: null, dispute: { object: 'dispute' } });
  });

  it('expands an erased buyer to its redacted form', async () => {
    const made = await h.order();
    const erased = await ctx.request(`/v1/buyers/${made.buyer.id}`, { method: 'DELETE' });
    expect(erased.status, erased.text).toBe(200);
    const res = await ctx.request(`/v1/orders/${made.order.id}?expand[]=buyer`);
    expect(res.body.buyer).toEqual(await h.get(`/v1/buyers/${made.buyer.id}`));
    expect(res.body.buyer.erased_at).not.toBeNull();
  });
});

describe('listings', () => {
  it('expands seller and category on retrieve and list', async () => {
    const listing = (await h.get(`/v1/orders/${disputedOrder.id}`)).listing as string;
    const one = await ctx.request(`/v1/listings/${listing}?${query(['seller', 'category'])}`);
    expect(one.status, one.text).toBe(200);
    await expectSame(one.body, 'seller', { seller: 'seller' });
    await expectSame(one.body, 'category', { category: 'category' });
    const page = await ctx.request(`/v1/listings?limit=100&${query(['seller', 'category'])}`);
    expect(page.status, page.text).toBe(200);
    for (const item of page.body.data as Json[]) {
      await expectSame(item, 'seller', { seller: 'seller' });
      if (item.category !== null) await expectSame(item, 'category', { category: 'category' });
    }
  });

  it("refuses a publishable key the objects it may not read (a seller, a category), naming the path", async () => {
    const pk = ctx.keys.test.publishable_key;
    for (const path of ['seller', 'category']) {
      const res = await ctx.request(`/v1/listings?expand[]=${path}`, { key: pk });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'expand[0]' });
      expect(res.body.error.message).toContain('publishable key');
    }
    expect((await ctx.request('/v1/listings', { key: pk })).status).toBe(200);
  });
});

describe('refunds', () => {
  it('expands every path, two levels included, on retrieve and list', async () => {
    const one = await ctx.request(`/v1/refunds/${refund.id}?${query(REFUND_PATHS)}`);
    expect(one.status, one.text).toBe(200);
    const page = await ctx.request(`/v1/refunds?${query(REFUND_PATHS)}`);
    expect(page.status, page.text).toBe(200);
    for (const item of [one.body, ...page.body.data]) {
      for (const path of REFUND_PATHS) {
        const inner = path.split('.')[1];
        if (inner !== undefined && item.order[inner] === null) continue;
        await expectSame(item, path, REFUND_KINDS);
      }
    }
    expect(page.body.data[0].order.listing).toMatchObject({ object: 'listing' });
  });
});

describe('refusals', () => {
  it('names an unknown path by its place', async () => {
    for (const [url, param] of [
      [`/v1/orders/${disputedOrder.id}?expand[]=listing&expand[]=nope`, 'expand[1]'],
      [`/v1/orders?expand[]=listing.nope`, 'expand[0]'],
      [`/v1/orders?expand=order`, 'expand[0]'],
      [`/v1/refunds?expand[]=order&expand[]=payment.order`, 'expand[1]'],
    ] as const) {
      const res = await ctx.request(url);
      expect(res.status, `${url}: ${res.text}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
      expect(res.body.error.message).toContain('Cannot expand');
    }
  });

  it('quotes at most 100 characters of an unknown path', async () => {
    const res = await ctx.request(`/v1/orders?expand[]=${'x'.repeat(5000)}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.message).toContain(`'${'x'.repeat(100)}…'`);
    expect(res.body.error.message.length).toBeLessThan(400);
  });

  it('refuses three levels', async () => {
    const res = await ctx.request(`/v1/refunds/${refund.id}?expand[]=order.listing.seller`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'expand[0]' });
    expect(res.body.error.message).toContain('at most 2 levels');
  });

  it('refuses more than 20 paths', async () => {
    const res = await ctx.request(`/v1/orders?${query(Array.from({ length: 21 }, () => 'listing'))}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'expand[20]' });
  });
});

describe('statements', () => {
  /** The statements one request issues (the API key is cached by then). */
  async function statementsOf(url: string): Promise<number> {
    const db = ctx.services.db;
    const query = db.query.bind(db);
    let count = 0;
    db.query = ((sql: string, params?: readonly unknown[]) => {
      count += 1;
      return query(sql, params);
    }) as typeof db.query;
    try {
      const res = await ctx.request(url);
      expect(res.status, res.text).toBe(200);
    } finally {
      db.query = query;
    }
    return count;
  }

  it('one batch per object kind and level: a page of 8 takes as many statements as a page of 2', async () => {
    // The 8 newest orders are alike (a checkout's order awaiting payment), so both pages name the same kinds.
    for (let i = 0; i < 8; i++) await c.unpaidCheckout([{ price: 1000 + i }]);
    const small = await statementsOf(`/v1/orders?limit=2&${query(ORDER_PATHS)}`);
    const large = await statementsOf(`/v1/orders?limit=8&${query(ORDER_PATHS)}`);
    expect(large).toBe(small);
    // Every order: the page, then level 1: listings (+ their media), buyers, sellers, payments,
    // checkouts (+ their page URLs), disputes; level 2: the listings' sellers and categories.
    const plain = await statementsOf('/v1/orders?limit=100');
    const all = await statementsOf(`/v1/orders?limit=100&${query(ORDER_PATHS)}`);
    expect(all - plain).toBe(10);
    // Refunds: orders and payments, then the orders' six kinds (a payment read again at level 2).
    const refunds = await statementsOf(`/v1/refunds?${query(REFUND_PATHS)}`);
    const refundsPlain = await statementsOf('/v1/refunds');
    expect(refunds - refundsPlain).toBeLessThanOrEqual(9);
  }, 60_000);
});

describe('the OpenAPI document', () => {
  it('lists the paths of each route and shows each expandable field as the id or the object', async () => {
    const document = (await ctx.request('/v1/openapi.json')).body;
    const parameter = (path: string, name: string) =>
      (document.paths[path].get.parameters as Json[]).find((p) => p.name === name && p.in === 'query');
    for (const name of ['expand', 'expand[]']) {
      expect(JSON.stringify(parameter('/v1/orders', name).schema)).toContain('"listing.category"');
      expect(JSON.stringify(parameter('/v1/refunds/{id}', name).schema)).toContain('"order.dispute"');
      expect(JSON.stringify(parameter('/v1/listings', name).schema)).toContain('"category"');
    }
    const order = document.paths['/v1/orders/{id}'].get.responses['200'].content['application/json'].schema;
    const listing = order.properties.listing.anyOf as Json[];
    expect(listing.map((s) => s.type)).toEqual(['string', 'object']);
    expect(listing[1].properties.seller.anyOf.map((s: Json) => s.type)).toEqual(['string', 'object']);
    expect(order.properties.dispute.anyOf.map((s: Json) => s.type)).toEqual(['string', 'null', 'object']);
  });
});
