// Categories over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createListing, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const post = (url: string, body: unknown) => ctx.request(url, { method: 'POST', body });
const patch = (url: string, body: unknown) => ctx.request(url, { method: 'PATCH', body });
const put = (url: string, body: unknown) => ctx.request(url, { method: 'PUT', body });
const UNKNOWN_CATEGORY = 'cat_01jd0000000000000000000000';

function expectError(res: TestResponse, status: number, code: string, param?: string) {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }).toEqual({ status, code, param });
}

describe('POST /v1/categories', () => {
  it('creates a category with every field and emits category.created', async () => {
    const parent = await createCategory(ctx, { key: 'shoes', name: 'Shoes' });
    const res = await post('/v1/categories', {
      key: 'shoes.running',
      name: 'Running shoes',
      description: 'For trails and roads.',
      parent: parent.id,
      attribute_schema: { attributes: [{ key: 'size_eu', type: 'integer', required: true, min: 30, max: 50 }] },
      fee: { percent_bps: 250, fixed_amount: 30 },
      prohibited: false,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'category',
      id: expect.stringMatching(/^cat_[0-9a-z]{26}$/),
      key: 'shoes.running',
      name: 'Running shoes',
      description: 'For trails and roads.',
      parent: parent.id,
      attribute_schema: {
        attributes: [
          { key: 'size_eu', label: null, type: 'integer', required: true, options: null, min: 30, max: 50, max_length: null },
        ],
      },
      fee: { percent_bps: 250, fixed_amount: 30 },
      prohibited: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: res.body.created_at,
    });
    const events = await storedEvents(ctx, res.body.id);
    expect(events.map((e) => e.type)).toEqual(['category.created']);
    expect(events[0]!.data.object).toEqual(res.body);
  });

  it('defaults description, parent, schema, fee and prohibited', async () => {
    const res = await post('/v1/categories', { key: 'defaults', name: 'Defaults' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: null, parent: null, attribute_schema: { attributes: [] }, fee: null, prohibited: false });
  });

  it('fills a fee given partly with null members', async () => {
    const res = await post('/v1/categories', { key: 'fee-partly', name: 'Fee', fee: { percent_bps: 0 } });
    expect(res.body.fee).toEqual({ percent_bps: 0, fixed_amount: null });
  });

  it('refuses a key already used in this marketplace and mode: 409 resource_exists, param key', async () => {
    await createCategory(ctx, { key: 'taken' });
    expectError(await post('/v1/categories', { key: 'taken', name: 'Again' }), 409, 'resource_exists', 'key');
  });

  it('gives a key to one of two concurrent creates; the other hears 409', async () => {
    const both = await Promise.all([post('/v1/categories', { key: 'race', name: 'A' }), post('/v1/categories', { key: 'race', name: 'B' })]);
    expect(both.map((res) => res.status).sort()).toEqual([201, 409]);
    expectError(both.find((res) => res.status === 409)!, 409, 'resource_exists', 'key');
  });

  it('allows the same key in the other mode', async () => {
    await createCategory(ctx, { key: 'both-modes' });
    const res = await ctx.request('/v1/categories', { key: ctx.keys.live.secret_key, body: { key: 'both-modes', name: 'Live' } });
    expect(res.status).toBe(201);
  });

  it('refuses a parent that does not exist in this mode: 404 resource_missing, param parent', async () => {
    expectError(await post('/v1/categories', { key: 'orphan', name: 'Orphan', parent: UNKNOWN_CATEGORY }), 404, 'resource_missing', 'parent');
    const live = await createCategory(ctx, {}, ctx.keys.live.secret_key);
    expectError(await post('/v1/categories', { key: 'cross-mode', name: 'X', parent: live.id }), 404, 'resource_missing', 'parent');
  });

  it.each([
    [{ name: 'No key' }, 'key'],
    [{ key: 'Upper', name: 'x' }, 'key'],
    [{ key: '-leading', name: 'x' }, 'key'],
    [{ key: 'a'.repeat(101), name: 'x' }, 'key'],
    [{ key: 'no-name' }, 'name'],
    [{ key: 'blank-name', name: '   ' }, 'name'],
    [{ key: 'long-name', name: 'n'.repeat(121) }, 'name'],
    [{ key: 'long-description', name: 'x', description: 'd'.repeat(2001) }, 'description'],
    [{ key: 'fee-bps-high', name: 'x', fee: { percent_bps: 10001 } }, 'fee.percent_bps'],
    [{ key: 'fee-bps-low', name: 'x', fee: { percent_bps: -1 } }, 'fee.percent_bps'],
    [{ key: 'fee-bps-float', name: 'x', fee: { percent_bps: 2.5 } }, 'fee.percent_bps'],
    [{ key: 'fee-fixed-low', name: 'x', fee: { fixed_amount: -1 } }, 'fee.fixed_amount'],
    [{ key: 'fee-fixed-high', name: 'x', fee: { fixed_amount: 100_000_000_000 } }, 'fee.fixed_amount'],
    [{ key: 'fee-unknown', name: 'x', fee: { percent: 1 } }, 'fee.percent'],
    [{ key: 'prohibited-text', name: 'x', prohibited: 'yes' }, 'prohibited'],
    [{ key: 'unknown', name: 'x', colour: 'red' }, 'colour'],
    [
      { key: 'schema-51', name: 'x', attribute_schema: { attributes: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, type: 'string' })) } },
      'attribute_schema.attributes',
    ],
    [
      { key: 'schema-dup', name: 'x', attribute_schema: { attributes: [{ key: 'a', type: 'string' }, { key: 'a', type: 'number' }] } },
      'attribute_schema.attributes[1].key',
    ],
  ])('refuses %j with 400 naming %s', async (body, param) => {
    expectError(await post('/v1/categories', body), 400, 'invalid_request', param);
  });

  it('accepts every bound at its limit', async () => {
    const res = await post('/v1/categories', {
      key: 'a'.repeat(100),
      name: 'n'.repeat(120),
      description: 'd'.repeat(2000),
      fee: { percent_bps: 10000, fixed_amount: 99_999_999_999 },
      attribute_schema: { attributes: Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, type: 'string' })) },
    });
    expect(res.status).toBe(201);
    expect(res.body.attribute_schema.attributes).toHaveLength(50);
    expect(res.body.fee).toEqual({ percent_bps: 10000, fixed_amount: 99_999_999_999 });
    const low = await post('/v1/categories', { key: 'fee-zero', name: 'x', fee: { percent_bps: 0, fixed_amount: 0 } });
    expect(low.body.fee).toEqual({ percent_bps: 0, fixed_amount: 0 });
  });

  it('is not reachable with a publishable key: 403 secret_key_required', async () => {
    const res = await ctx.request('/v1/categories', { key: ctx.keys.test.publishable_key, body: { key: 'pk', name: 'x' } });
    expectError(res, 403, 'secret_key_required');
  });
});

describe('GET /v1/categories and /v1/categories/{id}', () => {
  it('lists newest first with paging', async () => {
    const a = await createCategory(ctx);
    const b = await createCategory(ctx);
    const c = await createCategory(ctx);
    const first = await ctx.request('/v1/categories?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id]);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: b.id });
    const second = await ctx.request(`/v1/categories?limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body.data[0].id).toBe(a.id);
  });

  it('refuses a cursor that is not a category id and a limit out of bounds', async () => {
    expectError(await ctx.request('/v1/categories?starting_after=lst_01jd0000000000000000000000'), 400, 'invalid_request', 'starting_after');
    expectError(await ctx.request('/v1/categories?limit=0'), 400, 'invalid_request', 'limit');
    expectError(await ctx.request('/v1/categories?limit=101'), 400, 'invalid_request', 'limit');
  });

  it('retrieves one, and 404s an unknown id or one from the other mode', async () => {
    const category = await createCategory(ctx);
    const res = await ctx.request(`/v1/categories/${category.id}`);
    expect(res.body).toEqual(category);
    expectError(await ctx.request(`/v1/categories/${UNKNOWN_CATEGORY}`), 404, 'resource_missing');
    expectError(await ctx.request(`/v1/categories/${category.id}`, { key: ctx.keys.live.secret_key }), 404, 'resource_missing');
    const liveList = await ctx.request('/v1/categories', { key: ctx.keys.live.secret_key });
    expect(liveList.body.data.map((x: { id: string }) => x.id)).not.toContain(category.id);
  });
});

describe('PATCH /v1/categories/{id}', () => {
  it('changes fields and emits category.updated with previous_attributes', async () => {
    const category = await createCategory(ctx, { name: 'Old', fee: { percent_bps: 100 } });
    const res = await patch(`/v1/categories/${category.id}`, { name: 'New', description: 'Now described', fee: null, prohibited: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'New', description: 'Now described', fee: null, prohibited: true, key: category.key });
    const events = await storedEvents(ctx, category.id);
    expect(events.map((e) => e.type)).toEqual(['category.created', 'category.updated']);
    expect(events[1]!.data.object).toEqual(res.body);
    expect(events[1]!.data.previous_attributes).toEqual({
      name: 'Old',
      description: null,
      fee: { percent_bps: 100, fixed_amount: null },
      prohibited: false,
    });
  });

  it('emits nothing when nothing changes', async () => {
    const category = await createCategory(ctx, { name: 'Same' });
    const res = await patch(`/v1/categories/${category.id}`, { name: 'Same' });
    expect(res.body).toEqual(category);
    expect((await storedEvents(ctx, category.id)).map((e) => e.type)).toEqual(['category.created']);
  });

  it('refuses a change of key: 400 param key', async () => {
    const category = await createCategory(ctx);
    expectError(await patch(`/v1/categories/${category.id}`, { key: 'renamed' }), 400, 'invalid_request', 'key');
    expectError(await patch(`/v1/categories/${category.id}`, { key: category.key }), 400, 'invalid_request', 'key');
  });

  it('moves a category under another and back to the top', async () => {
    const parent = await createCategory(ctx);
    const child = await createCategory(ctx);
    expect((await patch(`/v1/categories/${child.id}`, { parent: parent.id })).body.parent).toBe(parent.id);
    expect((await patch(`/v1/categories/${child.id}`, { parent: null })).body.parent).toBe(null);
  });

  it('refuses a parent that would make a cycle: itself, a child, a grandchild', async () => {
    const a = await createCategory(ctx);
    const b = await createCategory(ctx, { parent: a.id });
    const c = await createCategory(ctx, { parent: b.id });
    expectError(await patch(`/v1/categories/${a.id}`, { parent: a.id }), 400, 'invalid_request', 'parent');
    expectError(await patch(`/v1/categories/${a.id}`, { parent: b.id }), 400, 'invalid_request', 'parent');
    expectError(await patch(`/v1/categories/${a.id}`, { parent: c.id }), 400, 'invalid_request', 'parent');
    expect((await ctx.request(`/v1/categories/${a.id}`)).body.parent).toBe(null);
  });

  it('refuses a parent that does not exist: 404 param parent', async () => {
    const category = await createCategory(ctx);
    expectError(await patch(`/v1/categories/${category.id}`, { parent: UNKNOWN_CATEGORY }), 404, 'resource_missing', 'parent');
  });

  it('404s an unknown category, and answers every bound at the limit and one past it', async () => {
    expectError(await patch(`/v1/categories/${UNKNOWN_CATEGORY}`, { name: 'x' }), 404, 'resource_missing');
    const category = await createCategory(ctx);
    const url = `/v1/categories/${category.id}`;
    expectError(await patch(url, { name: 'n'.repeat(121) }), 400, 'invalid_request', 'name');
    expect((await patch(url, { name: 'n'.repeat(120) })).status).toBe(200);
    expectError(await patch(url, { description: 'd'.repeat(2001) }), 400, 'invalid_request', 'description');
    expect((await patch(url, { description: 'd'.repeat(2000) })).status).toBe(200);
    expectError(await patch(url, { fee: { percent_bps: 10001 } }), 400, 'invalid_request', 'fee.percent_bps');
    expect((await patch(url, { fee: { percent_bps: 10000 } })).status).toBe(200);
    expectError(await patch(url, { fee: { fixed_amount: -1 } }), 400, 'invalid_request', 'fee.fixed_amount');
    expect((await patch(url, { fee: { fixed_amount: 0 } })).status).toBe(200);
    expectError(await patch(url, { fee: { fixed_amount: 100_000_000_000 } }), 400, 'invalid_request', 'fee.fixed_amount');
    expect((await patch(url, { fee: { fixed_amount: 99_999_999_999 } })).body.fee).toEqual({ percent_bps: null, fixed_amount: 99_999_999_999 });
    expect((await ctx.request(url)).body.fee).toEqual({ percent_bps: null, fixed_amount: 99_999_999_999 });
    expectError(await patch(url, { attribute_schema: { attributes: [] } }), 400, 'invalid_request', 'attribute_schema');
  });
});

describe('attribute schema', () => {
  const size = { key: 'size_eu', label: 'Size (EU)', type: 'integer', required: true, min: 30, max: 50 };

  it('reads and replaces the schema, with category.updated carrying the old one', async () => {
    const category = await createCategory(ctx);
    const url = `/v1/categories/${category.id}/attribute_schema`;
    expect((await ctx.request(url)).body).toEqual({ attributes: [] });
    const res = await put(url, { attributes: [size, { key: 'color', type: 'enum', options: ['red', 'blue'] }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      attributes: [
        { key: 'size_eu', label: 'Size (EU)', type: 'integer', required: true, options: null, min: 30, max: 50, max_length: null },
        { key: 'color', label: null, type: 'enum', required: false, options: ['red', 'blue'], min: null, max: null, max_length: null },
      ],
    });
    expect((await ctx.request(url)).body).toEqual(res.body);
    const events = await storedEvents(ctx, category.id);
    expect(events.map((e) => e.type)).toEqual(['category.created', 'category.updated']);
    expect(events[1]!.data.object.attribute_schema).toEqual(res.body);
    expect(events[1]!.data.previous_attributes).toEqual({ attribute_schema: { attributes: [] } });
    // What GET answers can be PUT back unchanged; it changes nothing and emits nothing.
    const again = await put(url, res.body);
    expect(again.body).toEqual(res.body);
    expect(await storedEvents(ctx, category.id)).toHaveLength(2);
  });

  it('404s an unknown category on GET and PUT', async () => {
    expectError(await ctx.request(`/v1/categories/${UNKNOWN_CATEGORY}/attribute_schema`), 404, 'resource_missing');
    expectError(await put(`/v1/categories/${UNKNOWN_CATEGORY}/attribute_schema`, { attributes: [] }), 404, 'resource_missing');
  });

  it('takes 50 definitions and refuses 51', async () => {
    const category = await createCategory(ctx);
    const defs = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, type: 'string' }));
    expect((await put(`/v1/categories/${category.id}/attribute_schema`, { attributes: defs(50) })).status).toBe(200);
    expectError(await put(`/v1/categories/${category.id}/attribute_schema`, { attributes: defs(51) }), 400, 'invalid_request', 'attributes');
  });

  it('takes every definition bound at its limit: key of 40, label of 200, 200 options, max_length 1 and 500', async () => {
    const category = await createCategory(ctx);
    const options = Array.from({ length: 200 }, (_, i) => `o${i}`);
    const attributes = [
      { key: 'k'.repeat(40), label: 'l'.repeat(200), type: 'string', max_length: 1 },
      { key: 'long', type: 'string', max_length: 500 },
      { key: 'choice', type: 'enum', options },
    ];
    const res = await put(`/v1/categories/${category.id}/attribute_schema`, { attributes });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes).toMatchObject([
      { key: 'k'.repeat(40), label: 'l'.repeat(200), max_length: 1 },
      { key: 'long', max_length: 500 },
      { key: 'choice', options },
    ]);
  });

  it.each([
    [{}, 'attributes'],
    [{ attributes: [{ key: 'a', label: 'l'.repeat(201), type: 'string' }] }, 'attributes[0].label'],
    [{ attributes: [{ key: 'a', type: 'enum', options: Array.from({ length: 201 }, (_, i) => `o${i}`) }] }, 'attributes[0].options'],
    [{ attributes: [{ type: 'string' }] }, 'attributes[0].key'],
    [{ attributes: [{ key: 'a' }] }, 'attributes[0].type'],
    [{ attributes: [{ key: 'a', type: 'date' }] }, 'attributes[0].type'],
    [{ attributes: [{ key: 'a.b', type: 'string' }] }, 'attributes[0].key'],
    [{ attributes: [{ key: 'k'.repeat(41), type: 'string' }] }, 'attributes[0].key'],
    [{ attributes: [{ key: 'a', type: 'string' }, { key: 'a', type: 'string' }] }, 'attributes[1].key'],
    [{ attributes: [{ key: 'a', type: 'enum' }] }, 'attributes[0].options'],
    [{ attributes: [{ key: 'a', type: 'enum', options: [] }] }, 'attributes[0].options'],
    [{ attributes: [{ key: 'a', type: 'enum', options: ['x', 'x'] }] }, 'attributes[0].options'],
    [{ attributes: [{ key: 'a', type: 'string', options: ['x'] }] }, 'attributes[0].options'],
    [{ attributes: [{ key: 'a', type: 'string', min: 1 }] }, 'attributes[0].min'],
    [{ attributes: [{ key: 'a', type: 'boolean', max: 1 }] }, 'attributes[0].max'],
    [{ attributes: [{ key: 'a', type: 'number', min: 5, max: 4 }] }, 'attributes[0].max'],
    [{ attributes: [{ key: 'a', type: 'number', min: 1.5 }] }, 'attributes[0].min'],
    [{ attributes: [{ key: 'a', type: 'integer', max_length: 3 }] }, 'attributes[0].max_length'],
    [{ attributes: [{ key: 'a', type: 'string', max_length: 0 }] }, 'attributes[0].max_length'],
    [{ attributes: [{ key: 'a', type: 'string', max_length: 501 }] }, 'attributes[0].max_length'],
    [{ attributes: [{ key: 'a', type: 'string', extra: true }] }, 'attributes[0].extra'],
  ])('refuses %j with 400 naming %s', async (body, param) => {
    const category = await createCategory(ctx);
    expectError(await put(`/v1/categories/${category.id}/attribute_schema`, body), 400, 'invalid_request', param);
  });

  it('refuses a schema an existing listing would not fit: 409 schema_conflict naming the listing', async () => {
    const category = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'size_eu', type: 'integer' }] } });
    const listing = await createListing(ctx, { category: category.id, attributes: { size_eu: '42' } });
    const url = `/v1/categories/${category.id}/attribute_schema`;
    // 42 is above a max of 40.
    const res = await put(url, { attributes: [{ key: 'size_eu', type: 'integer', max: 40 }] });
    expectError(res, 409, 'schema_conflict');
    expect(res.body.error.message).toContain(listing.id);
    // A new required attribute the listing lacks; the listing's key no longer defined.
    expectError(await put(url, { attributes: [{ key: 'size_eu', type: 'integer' }, { key: 'color', type: 'string', required: true }] }), 409, 'schema_conflict');
    expectError(await put(url, { attributes: [] }), 409, 'schema_conflict');
    // A schema it still fits is accepted.
    expect((await put(url, { attributes: [{ key: 'size_eu', type: 'integer', max: 42 }, { key: 'color', type: 'string' }] })).status).toBe(200);
  });

  describe('checks every listing of the category that is not removed', () => {
    const testNow = async () => Date.parse((await ctx.request('/v1/test_helpers/clock')).body.now);
    const publish = async (id: string) => {
      const res = await post(`/v1/listings/${id}/publish`, {});
      expect(res.status, res.text).toBe(200);
    };

    /** A listing of a new category with schema {size_eu: integer}, carrying size_eu 42, moved into `status` through the API. */
    async function listingIn(status: 'draft' | 'published' | 'expired' | 'sold' | 'removed') {
      const category = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'size_eu', type: 'integer' }] } });
      const expires_at = status === 'expired' ? new Date((await testNow()) + 60_000).toISOString() : null;
      const listing = await createListing(ctx, { category: category.id, attributes: { size_eu: '42' }, expires_at });
      if (status !== 'draft') await publish(listing.id);
      if (status === 'expired') {
        expect((await post('/v1/test_helpers/clock/advance', { seconds: 61 })).status).toBe(200);
      }
      if (status === 'sold') {
        // Only orders sell a listing, and orders are not built yet: set the state the way they will.
        await ctx.db.query("UPDATE listings SET status = 'sold', quantity_sold = quantity WHERE id = $1", [listing.id]);
      }
      if (status === 'removed') expect((await post(`/v1/listings/${listing.id}/remove`, { reason: 'gone' })).status).toBe(200);
      expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe(status);
      return { category, listing };
    }

    it.each(['draft', 'published', 'expired', 'sold'] as const)('a %s listing conflicts: 409 schema_conflict naming it', async (status) => {
      const { category, listing } = await listingIn(status);
      const url = `/v1/categories/${category.id}/attribute_schema`;
      const res = await put(url, { attributes: [{ key: 'size_eu', type: 'integer', max: 40 }] });
      expectError(res, 409, 'schema_conflict');
      expect(res.body.error.message).toContain(listing.id);
      expectError(await put(url, { attributes: [] }), 409, 'schema_conflict');
      expect((await ctx.request(url)).body.attributes).toEqual([expect.objectContaining({ key: 'size_eu', max: null })]);
    });

    it('a removed listing does not conflict', async () => {
      const { category } = await listingIn('removed');
      const url = `/v1/categories/${category.id}/attribute_schema`;
      expect((await put(url, { attributes: [{ key: 'size_eu', type: 'integer', max: 40 }] })).status).toBe(200);
      expect((await put(url, { attributes: [] })).body).toEqual({ attributes: [] });
    });
  });

  it('ignores removed listings when checking a new schema', async () => {
    const category = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'size_eu', type: 'integer' }] } });
    const listing = await createListing(ctx, { category: category.id, attributes: { size_eu: '42' } });
    expect((await post(`/v1/listings/${listing.id}/remove`, { reason: 'gone' })).status).toBe(200);
    expect((await put(`/v1/categories/${category.id}/attribute_schema`, { attributes: [] })).status).toBe(200);
  });

  it('checks listings of this category only', async () => {
    const category = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'size_eu', type: 'integer' }] } });
    const other = await createCategory(ctx, { attribute_schema: { attributes: [{ key: 'size_eu', type: 'integer' }] } });
    await createListing(ctx, { category: other.id, attributes: { size_eu: '42' } });
    expect((await put(`/v1/categories/${category.id}/attribute_schema`, { attributes: [] })).status).toBe(200);
  });
});
