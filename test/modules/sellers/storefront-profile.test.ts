// Storefront (PUT, create or replace) and the public profile (PK).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller, storedEvents, unique } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const put = (id: string, body: unknown) => ctx.request(`/v1/sellers/${id}/storefront`, { method: 'PUT', body });

describe('PUT /v1/sellers/{id}/storefront', () => {
  it('creates the storefront, shows it on the seller, and emits seller.updated with previous_attributes.storefront', async () => {
    const seller = await createSeller(ctx);
    const slug = unique('shop');
    const res = await put(seller.id, { name: "Ada's Prints", slug, description: 'Prints.', metadata: { k: 'v' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'storefront',
      id: expect.stringMatching(/^sto_/),
      seller: seller.id,
      name: "Ada's Prints",
      slug,
      description: 'Prints.',
      metadata: { k: 'v' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const again = await ctx.request(`/v1/sellers/${seller.id}`);
    expect(again.body.storefront).toEqual(res.body);
    const events = await storedEvents(ctx, seller.id);
    expect(events.map((e) => e.type)).toEqual(['seller.created', 'seller.updated']);
    expect(events[1]!.data.previous_attributes).toEqual({ storefront: null });
    expect(events[1]!.data.object.storefront).toEqual(res.body);
  });

  it('replaces the whole storefront, keeping its id; fields left out become null', async () => {
    const seller = await createSeller(ctx);
    const first = await put(seller.id, { name: 'One', slug: unique('one'), description: 'First.' });
    const second = await put(seller.id, { name: 'Two' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, name: 'Two', slug: null, description: null, metadata: {} });
    expect(second.body.created_at).toBe(first.body.created_at);
    const events = await storedEvents(ctx, seller.id);
    expect(events.at(-1)!.data.previous_attributes).toEqual({ storefront: first.body });
  });

  it('takes back what GET answers: slug and description null mean none', async () => {
    const seller = await createSeller(ctx);
    const first = await put(seller.id, { name: 'Shop', slug: unique('null-slug'), description: 'About.' });
    const cleared = await put(seller.id, { name: 'Shop', slug: null, description: null, metadata: {} });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ id: first.body.id, name: 'Shop', slug: null, description: null, metadata: {} });

    // The storefront as GET shows it, put back as it is: accepted, and nothing changes.
    const { name, slug, description, metadata } = (await ctx.request(`/v1/sellers/${seller.id}`)).body.storefront;
    expect(slug).toBeNull();
    const events = (await storedEvents(ctx, seller.id)).length;
    const again = await put(seller.id, { name, slug, description, metadata });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(cleared.body);
    expect((await storedEvents(ctx, seller.id)).length).toBe(events);
  });

  it('writes nothing when the storefront is put again unchanged', async () => {
    const seller = await createSeller(ctx);
    const body = { name: 'Same', slug: unique('same') };
    const first = await put(seller.id, body);
    const second = await put(seller.id, body);
    expect(second.body).toEqual(first.body);
    expect((await storedEvents(ctx, seller.id)).length).toBe(2);
  });

  it('writes nothing when the storefront metadata comes again with its keys in another order', async () => {
    const seller = await createSeller(ctx);
    const body = { name: 'Same', metadata: { zz: '1', a: '2' } };
    const first = await put(seller.id, body);
    const second = await put(seller.id, body);
    expect(second.body).toEqual(first.body);
    expect((await storedEvents(ctx, seller.id)).length).toBe(2);
  });

  it('refuses a slug another storefront holds with 409 resource_exists, param slug; the holder may keep it', async () => {
    const slug = unique('taken');
    const a = await createSeller(ctx);
    const b = await createSeller(ctx);
    expect((await put(a.id, { name: 'A', slug })).status).toBe(200);
    const res = await put(b.id, { name: 'B', slug });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'resource_exists', param: 'slug' });
    expect((await put(a.id, { name: 'A renamed', slug })).status).toBe(200);
  });

  it('refuses slugs outside [a-z0-9-]{3,60} and a missing name with 400', async () => {
    const seller = await createSeller(ctx);
    for (const slug of ['ab', 'Upper', 'with space', 'a'.repeat(61), 'under_score']) {
      const res = await put(seller.id, { name: 'S', slug });
      expect(res.status, slug).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'slug' });
    }
    expect((await put(seller.id, { name: 'S', slug: 'abc' })).status).toBe(200);
    expect((await put(seller.id, { name: 'S', slug: 'a'.repeat(60) })).status).toBe(200);
    const noName = await put(seller.id, { slug: 'abcd' });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toMatchObject({ code: 'invalid_request', param: 'name' });
  });

  it('refuses a blank name, as a missing one: 400 param name', async () => {
    const seller = await createSeller(ctx);
    for (const name of ['', '   ', '\n\t']) {
      const res = await put(seller.id, { name });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'name' });
    }
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.storefront).toBeNull();
  });

  it('answers 404 for an unknown seller', async () => {
    const res = await put('sel_01jd00000000000000000000zz', { name: 'S' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('resource_missing');
  });
});

describe('GET /v1/sellers/{id}/profile', () => {
  it('shows a buyer name, storefront and reputation, and nothing private, with a publishable key', async () => {
    const seller = await createSeller(ctx, { metadata: { secret: 'x' } });
    const slug = unique('pub');
    await put(seller.id, { name: 'Shop', slug, description: 'Hello.', metadata: { internal: 'y' } });
    const res = await ctx.request(`/v1/sellers/${seller.id}/profile`, { key: ctx.keys.test.publishable_key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'seller_profile',
      id: seller.id,
      name: seller.name,
      storefront: { name: 'Shop', slug, description: 'Hello.' },
      reputation: { rating_average: null, rating_count: 0, completed_orders: 0 },
      created_at: seller.created_at,
    });
    expect(res.text).not.toContain(seller.email);
    expect(res.text).not.toContain(seller.external_id);
    expect(res.text).not.toContain('secret');
    expect(res.text).not.toContain('internal');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers a secret key too, with storefront null when there is none', async () => {
    const seller = await createSeller(ctx);
    const res = await ctx.request(`/v1/sellers/${seller.id}/profile`);
    expect(res.status).toBe(200);
    expect(res.body.storefront).toBeNull();
  });

  it('answers 404 for an unknown seller and for a seller of the other mode', async () => {
    const seller = await createSeller(ctx);
    const live = await ctx.request(`/v1/sellers/${seller.id}/profile`, { key: ctx.keys.live.publishable_key });
    expect(live.status).toBe(404);
    const missing = await ctx.request('/v1/sellers/sel_01jd00000000000000000000zz/profile', { key: ctx.keys.test.publishable_key });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('resource_missing');
  });
});
