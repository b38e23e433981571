// Creating listings, one or in bulk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createListing, createSeller, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';

let ctx: TestContext;
let seller: string;
beforeAll(async () => {
  ctx = await startTestApp();
  seller = (await createSeller(ctx)).id;
});
afterAll(() => ctx.close());

const UNKNOWN_SELLER = 'sel_01jd0000000000000000000000';
const UNKNOWN_CATEGORY = 'cat_01jd0000000000000000000000';
const post = (url: string, body: unknown) => ctx.request(url, { method: 'POST', body });
const minimal = () => ({ seller, title: 'Trail running shoes', price: { amount: 4500, currency: 'USD' } });

function expectError(res: TestResponse, status: number, code: string, param?: string) {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }).toEqual({ status, code, param });
}

describe('POST /v1/listings', () => {
  it('creates a draft with every field, and emits listing.created with it', async () => {
    const category = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'size_eu', type: 'integer', required: true }] } });
    const res = await post('/v1/listings', {
      seller,
      category: category.id,
      title: 'Trail running shoes',
      description: 'Worn twice.',
      price: { amount: 4500, currency: 'usd' },
      quantity: 3,
      attributes: { size_eu: '42' },
      metadata: { sku: 'TRS-42' },
      expires_at: '2099-01-01T00:00:00.000Z',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'listing',
      id: expect.stringMatching(/^lst_[0-9a-z]{26}$/),
      seller,
      category: category.id,
      title: 'Trail running shoes',
      description: 'Worn twice.',
      price: { amount: 4500, currency: 'USD' },
      quantity: 3,
      quantity_available: 3,
      unit_type: 'item',
      seats: 1,
      slot_minutes: null,
      status: 'draft',
      attributes: { size_eu: '42' },
      media: [],
      metadata: { sku: 'TRS-42' },
      published_at: null,
      expires_at: '2099-01-01T00:00:00.000Z',
      removed_reason: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: res.body.created_at,
    });
    const events = await storedEvents(ctx, res.body.id);
    expect(events.map((e) => e.type)).toEqual(['listing.created']);
    expect(events[0]!.data.object).toEqual(res.body);
  });

  it('defaults quantity to 1 and the optional fields to null or empty', async () => {
    const res = await post('/v1/listings', minimal());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ quantity: 1, quantity_available: 1, category: null, description: null, attributes: {}, metadata: {}, expires_at: null });
  });

  it('does not check attributes without a category', async () => {
    const res = await post('/v1/listings', { ...minimal(), attributes: { anything: 'goes' } });
    expect(res.status).toBe(201);
    expect(res.body.attributes).toEqual({ anything: 'goes' });
  });

  it('refuses a seller that does not exist in this mode: 404 param seller', async () => {
    expectError(await post('/v1/listings', { ...minimal(), seller: UNKNOWN_SELLER }), 404, 'resource_missing', 'seller');
    const liveSeller = await createSeller(ctx, {}, ctx.keys.live.secret_key);
    expectError(await post('/v1/listings', { ...minimal(), seller: liveSeller.id }), 404, 'resource_missing', 'seller');
  });

  it('refuses an erased seller: 409 invalid_state', async () => {
    const erased = await createSeller(ctx);
    expect((await ctx.request(`/v1/sellers/${erased.id}`, { method: 'DELETE' })).status).toBe(200);
    expectError(await post('/v1/listings', { ...minimal(), seller: erased.id }), 409, 'invalid_state', 'seller');
  });

  it('refuses a category that does not exist in this mode: 404 param category', async () => {
    expectError(await post('/v1/listings', { ...minimal(), category: UNKNOWN_CATEGORY }), 404, 'resource_missing', 'category');
    const liveCategory = await createCategory(ctx, {}, ctx.keys.live.secret_key);
    expectError(await post('/v1/listings', { ...minimal(), category: liveCategory.id }), 404, 'resource_missing', 'category');
  });

  it('refuses a currency other than the marketplace currency: 400 param price.currency', async () => {
    expectError(await post('/v1/listings', { ...minimal(), price: { amount: 100, currency: 'EUR' } }), 400, 'invalid_request', 'price.currency');
    expectError(await post('/v1/listings', { ...minimal(), price: { amount: 100, currency: 'US' } }), 400, 'invalid_request', 'price.currency');
  });

  it('refuses an expires_at that is not in the future: 400 param expires_at', async () => {
    expectError(await post('/v1/listings', { ...minimal(), expires_at: '2020-01-01T00:00:00.000Z' }), 400, 'invalid_request', 'expires_at');
    expectError(await post('/v1/listings', { ...minimal(), expires_at: 'tomorrow' }), 400, 'invalid_request', 'expires_at');
  });

  it('checks attributes against the category schema: 400 param attributes.<key>', async () => {
    const category = await createCategory(ctx, {
      attribute_schema: { attributes: [{ key: 'size_eu', type: 'integer', required: true, min: 30, max: 50 }] },
    });
    const withAttributes = (attributes: Record<string, string>) => ({ ...minimal(), category: category.id, attributes });
    expectError(await post('/v1/listings', withAttributes({})), 400, 'invalid_request', 'attributes.size_eu');
    expectError(await post('/v1/listings', withAttributes({ size_eu: 'big' })), 400, 'invalid_request', 'attributes.size_eu');
    expectError(await post('/v1/listings', withAttributes({ size_eu: '51' })), 400, 'invalid_request', 'attributes.size_eu');
    expectError(await post('/v1/listings', withAttributes({ size_eu: '42', color: 'red' })), 400, 'invalid_request', 'attributes.color');
    expect((await post('/v1/listings', withAttributes({ size_eu: '50' }))).status).toBe(201);
  });

  it('takes a blank optional string attribute but refuses a blank optional number, integer, boolean or enum: 400 param attributes.<key>', async () => {
    const category = await createCategory(ctx, {
      attribute_schema: {
        attributes: [
          { key: 'note', type: 'string' },
          { key: 'weight', type: 'number' },
          { key: 'size', type: 'integer' },
          { key: 'boxed', type: 'boolean' },
          { key: 'color', type: 'enum', options: ['red', 'blue'] },
        ],
      },
    });
    const withAttributes = (attributes: Record<string, string>) => ({ ...minimal(), category: category.id, attributes });
    for (const blank of ['', '   ']) {
      const res = await post('/v1/listings', withAttributes({ note: blank }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.attributes).toEqual({ note: blank });
      for (const key of ['weight', 'size', 'boxed', 'color']) {
        expectError(await post('/v1/listings', withAttributes({ [key]: blank })), 400, 'invalid_request', `attributes.${key}`);
      }
    }
    // Left out, every optional attribute is fine.
    expect((await post('/v1/listings', withAttributes({}))).status).toBe(201);
  });

  it.each([
    ['title', 200, 'title'],
    ['description', 20000, 'description'],
  ])('takes a %s of %i characters and refuses one more', async (field, limit, param) => {
    expect((await post('/v1/listings', { ...minimal(), [field]: 'x'.repeat(limit) })).status).toBe(201);
    expectError(await post('/v1/listings', { ...minimal(), [field]: 'x'.repeat(limit + 1) }), 400, 'invalid_request', param);
  });

  it('takes quantity 1 to 100000 and refuses 0 and 100001', async () => {
    expect((await post('/v1/listings', { ...minimal(), quantity: 1 })).status).toBe(201);
    expect((await post('/v1/listings', { ...minimal(), quantity: 100000 })).body.quantity).toBe(100000);
    expectError(await post('/v1/listings', { ...minimal(), quantity: 0 }), 400, 'invalid_request', 'quantity');
    expectError(await post('/v1/listings', { ...minimal(), quantity: 100001 }), 400, 'invalid_request', 'quantity');
  });

  it('takes a price amount of 0 to 99,999,999,999 and refuses -1 and 100,000,000,000', async () => {
    expect((await post('/v1/listings', { ...minimal(), price: { amount: 0, currency: 'USD' } })).status).toBe(201);
    const max = await post('/v1/listings', { ...minimal(), price: { amount: 99_999_999_999, currency: 'USD' } });
    expect(max.body.price).toEqual({ amount: 99_999_999_999, currency: 'USD' });
    expect((await ctx.request(`/v1/listings/${max.body.id}`)).body.price.amount).toBe(99_999_999_999);
    expectError(await post('/v1/listings', { ...minimal(), price: { amount: -1, currency: 'USD' } }), 400, 'invalid_request', 'price.amount');
    expectError(await post('/v1/listings', { ...minimal(), price: { amount: 100_000_000_000, currency: 'USD' } }), 400, 'invalid_request', 'price.amount');
  });

  it('takes 50 attributes of 500 characters and refuses a 51st or a 501st character', async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'.repeat(500)]));
    expect((await post('/v1/listings', { ...minimal(), attributes: fifty })).status).toBe(201);
    expectError(await post('/v1/listings', { ...minimal(), attributes: { ...fifty, k50: 'v' } }), 400, 'invalid_request', 'attributes');
    expectError(await post('/v1/listings', { ...minimal(), attributes: { k: 'v'.repeat(501) } }), 400, 'invalid_request', 'attributes.k');
    expectError(await post('/v1/listings', { ...minimal(), attributes: { ['k'.repeat(41)]: 'v' } }), 400, 'invalid_request', 'attributes');
  });

  it('takes an attribute key of 40 characters, with or without a category defining it', async () => {
    const key = 'k'.repeat(40);
    expect((await post('/v1/listings', { ...minimal(), attributes: { [key]: 'v' } })).body.attributes).toEqual({ [key]: 'v' });
    const category = await createCategory(ctx, { attribute_schema: { attributes: [{ key, type: 'string' }] } });
    const res = await post('/v1/listings', { ...minimal(), category: category.id, attributes: { [key]: 'v' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.attributes).toEqual({ [key]: 'v' });
  });

  it('takes metadata of 50 keys of 40 characters with values of 500, and refuses a 51st key, a 41st key character or a 501st value character', async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`.padEnd(40, 'x'), 'v'.repeat(500)]));
    const res = await post('/v1/listings', { ...minimal(), metadata: fifty });
    expect(res.status, res.text).toBe(201);
    expect(res.body.metadata).toEqual(fifty);
    expectError(await post('/v1/listings', { ...minimal(), metadata: { ...fifty, k50: 'v' } }), 400, 'invalid_request', 'metadata');
    expectError(await post('/v1/listings', { ...minimal(), metadata: { ['k'.repeat(41)]: 'v' } }), 400, 'invalid_request', 'metadata');
    expectError(await post('/v1/listings', { ...minimal(), metadata: { note: 'v'.repeat(501) } }), 400, 'invalid_request', 'metadata.note');
  });

  it.each([
    [{ title: undefined }, 'title'],
    [{ title: '' }, 'title'],
    [{ title: '   ' }, 'title'],
    [{ seller: undefined }, 'seller'],
    [{ price: undefined }, 'price'],
    [{ price: { amount: 100 } }, 'price.currency'],
    [{ price: { currency: 'USD' } }, 'price.amount'],
    [{ price: { amount: '100', currency: 'USD' } }, 'price.amount'],
    [{ price: { amount: 1.5, currency: 'USD' } }, 'price.amount'],
    [{ quantity: '2' }, 'quantity'],
    [{ attributes: { size: 42 } }, 'attributes.size'],
    [{ metadata: { note: 1 } }, 'metadata.note'],
    [{ status: 'published' }, 'status'],
  ])('refuses %j with 400 naming %s', async (change, param) => {
    expectError(await post('/v1/listings', { ...minimal(), ...change }), 400, 'invalid_request', param);
  });
});

describe('POST /v1/listings/bulk', () => {
  it('creates every listing, in order, with a listing.created each', async () => {
    const res = await post('/v1/listings/bulk', { listings: [{ ...minimal(), title: 'One' }, { ...minimal(), title: 'Two' }] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['object', 'data']);
    expect(res.body.data.map((l: { title: string }) => l.title)).toEqual(['One', 'Two']);
    for (const listing of res.body.data) {
      expect((await storedEvents(ctx, listing.id)).map((e) => e.type)).toEqual(['listing.created']);
    }
  });

  it('creates none when one fails, naming it: listings[i].<field>', async () => {
    const before = await ctx.db.query('SELECT count(*)::int AS n FROM listings');
    const items = [minimal(), minimal(), minimal(), { ...minimal(), seller: UNKNOWN_SELLER }];
    const res = await post('/v1/listings/bulk', { listings: items });
    expectError(res, 404, 'resource_missing', 'listings[3].seller');
    expect(res.body.error.message).toMatch(/^listings\[3\]: /);
    expect(await ctx.db.query('SELECT count(*)::int AS n FROM listings')).toEqual(before);
  });

  it('names the item of a domain 400 and of a schema 400', async () => {
    expectError(
      await post('/v1/listings/bulk', { listings: [minimal(), { ...minimal(), price: { amount: 1, currency: 'EUR' } }] }),
      400,
      'invalid_request',
      'listings[1].price.currency',
    );
    expectError(
      await post('/v1/listings/bulk', { listings: [minimal(), minimal(), { ...minimal(), price: { amount: 1, currency: 'E' } }] }),
      400,
      'invalid_request',
      'listings[2].price.currency',
    );
    const category = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'size', type: 'integer' }] } });
    expectError(
      await post('/v1/listings/bulk', { listings: [{ ...minimal(), category: category.id, attributes: { size: 'L' } }] }),
      400,
      'invalid_request',
      'listings[0].attributes.size',
    );
  });

  it('takes 1 to 100 listings and refuses 0 and 101', async () => {
    expect((await post('/v1/listings/bulk', { listings: [minimal()] })).status).toBe(201);
    const hundred = await post('/v1/listings/bulk', { listings: Array.from({ length: 100 }, minimal) });
    expect(hundred.status).toBe(201);
    expect(hundred.body.data).toHaveLength(100);
    expectError(await post('/v1/listings/bulk', { listings: [] }), 400, 'invalid_request', 'listings');
    expectError(await post('/v1/listings/bulk', { listings: Array.from({ length: 101 }, minimal) }), 400, 'invalid_request', 'listings');
    expectError(await post('/v1/listings/bulk', {}), 400, 'invalid_request', 'listings');
  });

  it('replays a bulk create under the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'bulk-once' };
    const first = await ctx.request('/v1/listings/bulk', { method: 'POST', body: { listings: [minimal()] }, headers });
    const second = await ctx.request('/v1/listings/bulk', { method: 'POST', body: { listings: [minimal()] }, headers });
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
  });
});

describe('the listings of a factory', () => {
  it('are drafts', async () => {
    expect((await createListing(ctx)).status).toBe('draft');
  });
});

describe('the OpenAPI document', () => {
  it('shows an example request body for every catalog operation that takes fields', async () => {
    const { paths } = (await ctx.request('/v1/openapi.json', { key: null })).body;
    const catalog = /^\/v1\/(sellers|buyers|verifications|categories|listings)\b/;
    const missing: string[] = [];
    type Content = { schema: Record<string, unknown>; example?: unknown };
    for (const [path, operations] of Object.entries<Record<string, { requestBody?: { content: Record<string, Content> } }>>(paths)) {
      if (!catalog.test(path)) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const content = operation.requestBody?.content['application/json'];
        // Operations without fields (publish, unpublish, approve) take no body or {}.
        if (!content || content.schema.anyOf) continue;
        if (content.example === undefined) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
