// The list filters the dashboard searches with (issue 34): sellers and buyers by `name` (starts
// with, case-insensitively) and `email` (case-insensitively), listings by `title` (starts with);
// scoped to the mode, paged like every list, `%` and `_` taken literally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../helpers/factories.js';
import { createBuyer, createListing, createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
const ids = (res: { body: Json }) => res.body.data.map((item: Json) => item.id);

// A generous bound for the embedded database's start on a busy machine (not a timing assertion).
beforeAll(async () => {
  ctx = await startTestApp();
}, 300_000);
afterAll(() => ctx.close());

describe('GET /v1/sellers and /v1/buyers ?name= &email=', () => {
  it('finds by the start of the name and by the whole email, case-insensitively, newest first', async () => {
    const ada1 = await createSeller(ctx, { name: 'Ada Lovelace', email: 'Ada.Ceramics@example.com' });
    const ada2 = await createSeller(ctx, { name: 'ada lovelace', email: 'ada.prints@example.com' });
    const grace = await createSeller(ctx, { name: 'Grace Hopper', email: 'grace@example.com' });
    expect(ids(await ctx.request('/v1/sellers?name=ADA'))).toEqual([ada2.id, ada1.id]);
    expect(ids(await ctx.request('/v1/sellers?name=Lovelace'))).toEqual([]);
    expect(ids(await ctx.request('/v1/sellers?email=ada.ceramics@EXAMPLE.com'))).toEqual([ada1.id]);
    expect(ids(await ctx.request('/v1/sellers?email=ada'))).toEqual([]);
    expect(ids(await ctx.request(`/v1/sellers?name=${encodeURIComponent('Grace H')}&status=active`))).toEqual([grace.id]);
    const page = await ctx.request('/v1/sellers?name=ada&limit=1');
    expect(page.body).toMatchObject({ has_more: true, next_cursor: ada2.id });
    expect(ids(await ctx.request(`/v1/sellers?name=ada&limit=1&starting_after=${ada2.id}`))).toEqual([ada1.id]);

    const buyer = await createBuyer(ctx, { name: 'Grace Hopper', email: 'Grace@Example.com' });
    await createBuyer(ctx, { name: 'Alan Turing', email: 'alan@example.com' });
    expect(ids(await ctx.request('/v1/buyers?name=grace'))).toEqual([buyer.id]);
    expect(ids(await ctx.request('/v1/buyers?email=grace@example.com'))).toEqual([buyer.id]);
  });

  it('takes % and _ literally', async () => {
    const odd = await createSeller(ctx, { name: '100% Wool_Co', email: 'wool@example.com' });
    await createSeller(ctx, { name: '1000 Wools', email: 'wools@example.com' });
    expect(ids(await ctx.request(`/v1/sellers?name=${encodeURIComponent('100%')}`))).toEqual([odd.id]);
    expect(ids(await ctx.request(`/v1/sellers?name=${encodeURIComponent('100% Wool_')}`))).toEqual([odd.id]);
    expect(ids(await ctx.request(`/v1/sellers?name=${encodeURIComponent('10_')}`))).toEqual([]);
  });

  it('is scoped to the mode', async () => {
    await createSeller(ctx, { name: 'Modal Seller', email: 'modal@example.com' });
    expect(ids(await ctx.request('/v1/sellers?name=Modal', { key: ctx.keys.live.secret_key }))).toEqual([]);
    expect(ids(await ctx.request('/v1/sellers?email=modal@example.com', { key: ctx.keys.live.secret_key }))).toEqual([]);
  });

  it('does not find an erased party by its former name or email', async () => {
    const gone = await createBuyer(ctx, { name: 'Erin Erased', email: 'erin@example.com' });
    expect((await ctx.request(`/v1/buyers/${gone.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(ids(await ctx.request('/v1/buyers?name=Erin'))).toEqual([]);
    expect(ids(await ctx.request('/v1/buyers?email=erin@example.com'))).toEqual([]);
  });

  it.each([
    ['/v1/sellers?name=', 'name'],
    ['/v1/buyers?email=', 'email'],
    [`/v1/sellers?name=${'a'.repeat(201)}`, 'name'],
    ['/v1/listings?title=', 'title'],
  ])('refuses %s with 400 invalid_request naming the parameter', async (url, param) => {
    const res = await ctx.request(url);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
  });
});

describe('GET /v1/listings ?title=', () => {
  it('finds by the start of the title, with the other filters', async () => {
    const seller = await createSeller(ctx, { name: 'Potter' });
    const vase = await createListing(ctx, { seller: seller.id, title: 'Celadon vase' });
    const bowl = await createListing(ctx, { seller: seller.id, title: 'celadon bowl' });
    await createListing(ctx, { seller: seller.id, title: 'Tea bowl, celadon' });
    expect(ids(await ctx.request('/v1/listings?title=Celadon'))).toEqual([bowl.id, vase.id]);
    expect(ids(await ctx.request(`/v1/listings?title=celadon&seller=${seller.id}&status=draft`))).toEqual([bowl.id, vase.id]);
    // A publishable key still sees published listings only.
    expect(ids(await ctx.request('/v1/listings?title=Celadon', { key: ctx.keys.test.publishable_key }))).toEqual([]);
  });
});
