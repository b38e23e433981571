// Buyers: create, list, retrieve, update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, storedEvents, unique } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe('buyers', () => {
  it('creates a buyer with the documented record and emits buyer.created', async () => {
    const externalId = unique('b');
    const res = await ctx.request('/v1/buyers', { body: { external_id: externalId, name: 'Grace', email: 'grace@example.com' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'buyer',
      id: expect.stringMatching(/^byr_/),
      external_id: externalId,
      name: 'Grace',
      email: 'grace@example.com',
      metadata: {},
      erased_at: null,
      created_at: expect.any(String),
      updated_at: res.body.created_at,
    });
    const events = await storedEvents(ctx, res.body.id);
    expect(events.map((e) => e.type)).toEqual(['buyer.created']);
    expect(events[0]!.data.object).toEqual(res.body);
  });

  it('refuses a taken external_id on create and on update with 409 resource_exists, param external_id', async () => {
    const a = await createBuyer(ctx);
    const b = await createBuyer(ctx);
    const create = await ctx.request('/v1/buyers', { body: { external_id: a.external_id } });
    expect(create.status).toBe(409);
    expect(create.body.error).toMatchObject({ code: 'resource_exists', param: 'external_id' });
    const update = await ctx.request(`/v1/buyers/${b.id}`, { method: 'PATCH', body: { external_id: a.external_id } });
    expect(update.status).toBe(409);
    expect(update.body.error).toMatchObject({ code: 'resource_exists', param: 'external_id' });
  });

  it('updates, replacing metadata whole, and emits buyer.updated with previous_attributes', async () => {
    const buyer = await createBuyer(ctx, { metadata: { a: '1' } });
    const res = await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'PATCH', body: { email: 'new@example.com', metadata: { b: '2' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'new@example.com', metadata: { b: '2' }, name: buyer.name });
    const events = await storedEvents(ctx, buyer.id);
    expect(events[1]!.type).toBe('buyer.updated');
    expect(events[1]!.data.previous_attributes).toEqual({ email: buyer.email, metadata: { a: '1' } });
    const same = await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'PATCH', body: {} });
    expect(same.body).toEqual(res.body);
    expect((await storedEvents(ctx, buyer.id)).length).toBe(2);
  });

  it('writes nothing when the same metadata comes again with its keys in another order', async () => {
    const buyer = await createBuyer(ctx, { metadata: { zz: '1', a: '2' } });
    const res = await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'PATCH', body: { metadata: { zz: '1', a: '2' } } });
    expect(res.body).toEqual(buyer);
    expect((await storedEvents(ctx, buyer.id)).map((e) => e.type)).toEqual(['buyer.created']);
  });

  it('retrieves, lists newest first with external_id filter and paging', async () => {
    const a = await createBuyer(ctx);
    const b = await createBuyer(ctx);
    expect((await ctx.request(`/v1/buyers/${a.id}`)).body).toEqual(a);
    const page = await ctx.request('/v1/buyers?limit=1');
    expect(page.body).toMatchObject({ object: 'list', has_more: true, next_cursor: b.id });
    expect(page.body.data[0].id).toBe(b.id);
    const next = await ctx.request(`/v1/buyers?limit=1&starting_after=${b.id}`);
    expect(next.body.data[0].id).toBe(a.id);
    const found = await ctx.request(`/v1/buyers?external_id=${encodeURIComponent(a.external_id)}`);
    expect(found.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect((await ctx.request('/v1/buyers?status=active')).body.error).toMatchObject({ code: 'invalid_request', param: 'status' });
  });

  it('takes a page size of 1 to 100: limit=0 and limit=101 answer 400 param limit', async () => {
    await createBuyer(ctx);
    for (const limit of [1, 100]) {
      const res = await ctx.request(`/v1/buyers?limit=${limit}`);
      expect(res.status, `limit=${limit}`).toBe(200);
      expect(res.body.object).toBe('list');
    }
    for (const limit of ['0', '101', '-1', 'ten']) {
      const res = await ctx.request(`/v1/buyers?limit=${limit}`);
      expect(res.status, `limit=${limit}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'limit' });
    }
  });

  it('answers 404 for unknown ids and other modes, 403 secret_key_required for a publishable key', async () => {
    const buyer = await createBuyer(ctx);
    expect((await ctx.request('/v1/buyers/byr_01jd00000000000000000000zz')).status).toBe(404);
    expect((await ctx.request('/v1/buyers/byr_01jd00000000000000000000zz', { method: 'PATCH', body: {} })).status).toBe(404);
    expect((await ctx.request('/v1/buyers/byr_01jd00000000000000000000zz', { method: 'DELETE' })).status).toBe(404);
    const live = await ctx.request(`/v1/buyers/${buyer.id}`, { key: ctx.keys.live.secret_key });
    expect(live.status).toBe(404);
    const liveList = await ctx.request('/v1/buyers?limit=100', { key: ctx.keys.live.secret_key });
    expect(liveList.body.data.map((x: { id: string }) => x.id)).not.toContain(buyer.id);
    for (const [url, method] of [['/v1/buyers', 'GET'], [`/v1/buyers/${buyer.id}`, 'GET'], [`/v1/buyers/${buyer.id}`, 'DELETE']] as const) {
      const res = await ctx.request(url, { method, key: ctx.keys.test.publishable_key });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('secret_key_required');
    }
  });
});
