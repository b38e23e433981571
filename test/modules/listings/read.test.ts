// Listing list and retrieve: filters, paging, publishable keys, modes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createListing, createPublishedListing, createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';

let ctx: TestContext;
let seller: string;
let category: string;
let draft: { id: string };
let published: { id: string };
let removed: { id: string };
let elsewhere: { id: string };

beforeAll(async () => {
  ctx = await startTestApp();
  seller = (await createSeller(ctx)).id;
  category = (await createCategory(ctx)).id;
  draft = await createListing(ctx, { seller, category });
  published = await createPublishedListing(ctx, { seller, category });
  removed = await createListing(ctx, { seller });
  await ctx.request(`/v1/listings/${removed.id}/remove`, { method: 'POST', body: { reason: 'x' } });
  elsewhere = await createPublishedListing(ctx);
});
afterAll(() => ctx.close());

const pk = () => ctx.keys.test.publishable_key;
const ids = (res: TestResponse) => res.body.data.map((listing: { id: string }) => listing.id);

function expectError(res: TestResponse, status: number, code: string, param?: string) {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }).toEqual({ status, code, param });
}

describe('GET /v1/listings', () => {
  it('lists every listing newest first with a secret key', async () => {
    const res = await ctx.request('/v1/listings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(ids(res)).toEqual([elsewhere.id, removed.id, published.id, draft.id]);
  });

  it('filters by seller, category and status', async () => {
    expect(ids(await ctx.request(`/v1/listings?seller=${seller}`))).toEqual([removed.id, published.id, draft.id]);
    expect(ids(await ctx.request(`/v1/listings?category=${category}`))).toEqual([published.id, draft.id]);
    expect(ids(await ctx.request('/v1/listings?status=removed'))).toEqual([removed.id]);
    expect(ids(await ctx.request(`/v1/listings?seller=${seller}&status=published`))).toEqual([published.id]);
    expect(ids(await ctx.request('/v1/listings?seller=sel_01jd0000000000000000000000'))).toEqual([]);
  });

  it('pages with limit and starting_after', async () => {
    const first = await ctx.request('/v1/listings?limit=3');
    expect(ids(first)).toEqual([elsewhere.id, removed.id, published.id]);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: published.id });
    const second = await ctx.request(`/v1/listings?limit=3&starting_after=${published.id}`);
    expect(ids(second)).toEqual([draft.id]);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('refuses bad query parameters with 400 naming them', async () => {
    expectError(await ctx.request('/v1/listings?status=sold_out'), 400, 'invalid_request', 'status');
    expectError(await ctx.request('/v1/listings?limit=0'), 400, 'invalid_request', 'limit');
    expectError(await ctx.request('/v1/listings?limit=101'), 400, 'invalid_request', 'limit');
    expectError(await ctx.request('/v1/listings?starting_after=cat_01jd0000000000000000000000'), 400, 'invalid_request', 'starting_after');
    expectError(await ctx.request('/v1/listings?colour=red'), 400, 'invalid_request', 'colour');
  });

  it('shows a publishable key published listings only; another status filter lists nothing', async () => {
    expect(ids(await ctx.request('/v1/listings', { key: pk() }))).toEqual([elsewhere.id, published.id]);
    expect(ids(await ctx.request(`/v1/listings?seller=${seller}`, { key: pk() }))).toEqual([published.id]);
    expect(ids(await ctx.request('/v1/listings?status=published', { key: pk() }))).toEqual([elsewhere.id, published.id]);
    expect(ids(await ctx.request('/v1/listings?status=draft', { key: pk() }))).toEqual([]);
  });

  it('answers browsers from any origin for the publishable-key operations', async () => {
    const res = await ctx.request('/v1/listings', { key: pk(), headers: { origin: 'https://shop.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('keeps modes apart: a live key lists no test listings', async () => {
    expect(ids(await ctx.request('/v1/listings', { key: ctx.keys.live.secret_key }))).toEqual([]);
    expect(ids(await ctx.request('/v1/listings', { key: ctx.keys.live.publishable_key }))).toEqual([]);
  });
});

describe('GET /v1/listings/{id}', () => {
  it('retrieves any listing with a secret key', async () => {
    for (const listing of [draft, published, removed]) {
      const res = await ctx.request(`/v1/listings/${listing.id}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(listing.id);
    }
  });

  it('retrieves only a published listing with a publishable key; the others are 404', async () => {
    expect((await ctx.request(`/v1/listings/${published.id}`, { key: pk() })).body.status).toBe('published');
    expectError(await ctx.request(`/v1/listings/${draft.id}`, { key: pk() }), 404, 'resource_missing');
    expectError(await ctx.request(`/v1/listings/${removed.id}`, { key: pk() }), 404, 'resource_missing');
  });

  it('404s an unknown id and a test listing asked for with a live key', async () => {
    expectError(await ctx.request('/v1/listings/lst_01jd0000000000000000000000'), 404, 'resource_missing');
    expectError(await ctx.request(`/v1/listings/${published.id}`, { key: ctx.keys.live.secret_key }), 404, 'resource_missing');
    expectError(await ctx.request(`/v1/listings/${published.id}`, { key: ctx.keys.live.publishable_key }), 404, 'resource_missing');
  });

  it('needs a key: 401 without one', async () => {
    expectError(await ctx.request(`/v1/listings/${published.id}`, { key: null }), 401, 'api_key_missing');
  });
});

describe('secret-key operations', () => {
  it('refuse a publishable key: 403 secret_key_required', async () => {
    const key = pk();
    expectError(await ctx.request('/v1/listings', { key, body: { seller, title: 'x', price: { amount: 1, currency: 'USD' } } }), 403, 'secret_key_required');
    expectError(await ctx.request(`/v1/listings/${draft.id}/publish`, { key, method: 'POST' }), 403, 'secret_key_required');
    expectError(await ctx.request(`/v1/listings/${draft.id}`, { key, method: 'PATCH', body: { title: 'x' } }), 403, 'secret_key_required');
  });

  it('cannot touch a test listing with a live key: 404', async () => {
    const live = ctx.keys.live.secret_key;
    expectError(await ctx.request(`/v1/listings/${draft.id}`, { key: live, method: 'PATCH', body: { title: 'x' } }), 404, 'resource_missing');
    expectError(await ctx.request(`/v1/listings/${published.id}/unpublish`, { key: live, method: 'POST' }), 404, 'resource_missing');
    expectError(await ctx.request(`/v1/listings/${draft.id}/remove`, { key: live, body: { reason: 'x' } }), 404, 'resource_missing');
  });
});
