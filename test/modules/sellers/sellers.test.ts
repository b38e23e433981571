// Sellers: create, list, retrieve, update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller, storedEvents, unique } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe('POST /v1/sellers', () => {
  it('creates an active, unverified seller with the documented record and emits seller.created', async () => {
    const externalId = unique('ext');
    const res = await ctx.request('/v1/sellers', {
      body: { external_id: externalId, name: 'Ada Lovelace', email: 'ada@example.com', metadata: { tier: 'gold' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'seller',
      id: expect.stringMatching(/^sel_[0-9a-z]{26}$/),
      external_id: externalId,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      status: 'active',
      suspended_reason: null,
      verification: { status: 'unverified', updated_at: null },
      payouts: { status: 'not_started', processor_account: null },
      storefront: null,
      metadata: { tier: 'gold' },
      erased_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: res.body.created_at,
    });
    const events = await storedEvents(ctx, res.body.id);
    expect(events.map((e) => e.type)).toEqual(['seller.created']);
    expect(events[0]!.data.object).toEqual(res.body);
  });

  it('accepts an empty body: every party field is optional', async () => {
    const res = await ctx.request('/v1/sellers', { body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ external_id: null, name: null, email: null, metadata: {} });
  });

  it('accepts no body at all, like an empty one', async () => {
    const res = await ctx.request('/v1/sellers', { method: 'POST' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'seller', external_id: null, name: null });
  });

  it('refuses a taken external_id with 409 resource_exists, param external_id', async () => {
    const seller = await createSeller(ctx);
    const res = await ctx.request('/v1/sellers', { body: { external_id: seller.external_id } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'resource_exists', param: 'external_id' });
  });

  it('keeps external_id unique under concurrent creates: exactly one wins', async () => {
    const externalId = unique('race');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => ctx.request('/v1/sellers', { body: { external_id: externalId } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.error.param).toBe('external_id');
  });

  it('lets the same external_id exist once per mode', async () => {
    const externalId = unique('both-modes');
    await createSeller(ctx, { external_id: externalId });
    const live = await ctx.request('/v1/sellers', { key: ctx.keys.live.secret_key, body: { external_id: externalId } });
    expect(live.status).toBe(201);
    expect(live.body.external_id).toBe(externalId);
  });

  it('refuses unknown fields, wrong types and a bad email with 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ nickname: 'x' }, 'nickname'],
      [{ name: 42 }, 'name'],
      [{ email: 'not-an-email' }, 'email'],
      [{ external_id: '' }, 'external_id'],
      [{ metadata: { a: 1 } }, 'metadata.a'],
      [{ metadata: 'x' }, 'metadata'],
    ];
    for (const [body, param] of cases) {
      const res = await ctx.request('/v1/sellers', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    }
  });

  it('replays a create with the same Idempotency-Key instead of creating twice', async () => {
    const headers = { 'idempotency-key': unique('idem') };
    const body = { external_id: unique('idem-seller') };
    const first = await ctx.request('/v1/sellers', { body, headers });
    const second = await ctx.request('/v1/sellers', { body, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.id).toBe(first.body.id);
  });
});

describe('GET /v1/sellers/{id}', () => {
  it('retrieves the seller', async () => {
    const seller = await createSeller(ctx);
    const res = await ctx.request(`/v1/sellers/${seller.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(seller);
  });

  it('answers 404 resource_missing for an unknown id', async () => {
    const res = await ctx.request('/v1/sellers/sel_01jd00000000000000000000zz');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('resource_missing');
  });

  it('keeps modes apart: a live key cannot see a test seller', async () => {
    const seller = await createSeller(ctx);
    const res = await ctx.request(`/v1/sellers/${seller.id}`, { key: ctx.keys.live.secret_key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('resource_missing');
    const patch = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'PATCH', key: ctx.keys.live.secret_key, body: { name: 'x' } });
    expect(patch.status).toBe(404);
    const erase = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE', key: ctx.keys.live.secret_key });
    expect(erase.status).toBe(404);
  });

  it('needs a secret key: a publishable key gets 403 secret_key_required on every seller operation but the profile', async () => {
    const seller = await createSeller(ctx);
    const pk = ctx.keys.test.publishable_key;
    const calls: Array<[string, 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', unknown?]> = [
      ['/v1/sellers', 'GET'],
      ['/v1/sellers', 'POST', {}],
      [`/v1/sellers/${seller.id}`, 'GET'],
      [`/v1/sellers/${seller.id}`, 'PATCH', { name: 'x' }],
      [`/v1/sellers/${seller.id}`, 'DELETE'],
      [`/v1/sellers/${seller.id}/storefront`, 'PUT', { name: 'x' }],
      [`/v1/sellers/${seller.id}/suspend`, 'POST', { reason: 'x' }],
      [`/v1/sellers/${seller.id}/unsuspend`, 'POST', {}],
      [`/v1/sellers/${seller.id}/verifications`, 'POST', {}],
      [`/v1/sellers/${seller.id}/onboarding_links`, 'POST', { return_url: 'https://a.example', refresh_url: 'https://a.example' }],
    ];
    for (const [url, method, body] of calls) {
      const res = await ctx.request(url, { method, key: pk, body });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error.code).toBe('secret_key_required');
    }
    const none = await ctx.request(`/v1/sellers/${seller.id}`, { key: null });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('api_key_missing');
  });
});

describe('GET /v1/sellers', () => {
  it('lists newest first and pages with starting_after', async () => {
    const a = await createSeller(ctx);
    const b = await createSeller(ctx);
    const c = await createSeller(ctx);
    const first = await ctx.request('/v1/sellers?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.object).toBe('list');
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual([c.id, b.id]);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: b.id });
    const second = await ctx.request(`/v1/sellers?limit=2&starting_after=${b.id}`);
    expect(second.body.data[0].id).toBe(a.id);
  });

  it('finds a seller by external_id', async () => {
    const seller = await createSeller(ctx);
    const res = await ctx.request(`/v1/sellers?external_id=${encodeURIComponent(seller.external_id)}`);
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([seller.id]);
    expect(res.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('filters by status', async () => {
    const suspended = await createSeller(ctx);
    await ctx.request(`/v1/sellers/${suspended.id}/suspend`, { body: { reason: 'Fraud.' } });
    const res = await ctx.request('/v1/sellers?status=suspended&limit=100');
    expect(res.body.data.map((s: { id: string }) => s.id)).toContain(suspended.id);
    expect(res.body.data.every((s: { status: string }) => s.status === 'suspended')).toBe(true);
    const active = await ctx.request('/v1/sellers?status=active&limit=100');
    expect(active.body.data.map((s: { id: string }) => s.id)).not.toContain(suspended.id);
  });

  it('does not list the other mode\'s sellers', async () => {
    const seller = await createSeller(ctx);
    const res = await ctx.request('/v1/sellers?limit=100', { key: ctx.keys.live.secret_key });
    expect(res.body.data.map((s: { id: string }) => s.id)).not.toContain(seller.id);
  });

  it('refuses bad list parameters with 400 naming them', async () => {
    const cases: Array<[string, string]> = [
      ['status=closed', 'status'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['starting_after=byr_01jd0000000000000000000000', 'starting_after'],
      ['colour=blue', 'colour'],
    ];
    for (const [query, param] of cases) {
      const res = await ctx.request(`/v1/sellers?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    }
  });
});

describe('PATCH /v1/sellers/{id}', () => {
  it('changes the given fields, replaces metadata whole and emits seller.updated with previous_attributes', async () => {
    const seller = await createSeller(ctx, { metadata: { a: '1', b: '2' } });
    const res = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'PATCH', body: { name: 'Ada King', metadata: { c: '3' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Ada King', email: seller.email, external_id: seller.external_id, metadata: { c: '3' } });
    const events = await storedEvents(ctx, seller.id);
    expect(events.map((e) => e.type)).toEqual(['seller.created', 'seller.updated']);
    expect(events[1]!.data.object).toEqual(res.body);
    expect(events[1]!.data.previous_attributes).toEqual({ name: 'Ada Lovelace', metadata: { a: '1', b: '2' } });
  });

  it('clears a field with null', async () => {
    const seller = await createSeller(ctx);
    const res = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'PATCH', body: { email: null, external_id: null } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: null, external_id: null, name: seller.name });
  });

  it('writes nothing and emits nothing when nothing changes', async () => {
    const seller = await createSeller(ctx);
    const res = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'PATCH', body: { name: seller.name } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(seller);
    expect((await storedEvents(ctx, seller.id)).map((e) => e.type)).toEqual(['seller.created']);
  });

  it('writes nothing when the same metadata comes again with its keys in another order', async () => {
    const seller = await createSeller(ctx, { metadata: { zz: '1', a: '2' } });
    const res = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'PATCH', body: { metadata: { zz: '1', a: '2' } } });
    expect(res.body).toEqual(seller);
    expect((await storedEvents(ctx, seller.id)).map((e) => e.type)).toEqual(['seller.created']);
  });

  it('refuses an external_id another seller holds with 409 resource_exists, param external_id', async () => {
    const a = await createSeller(ctx);
    const b = await createSeller(ctx);
    const res = await ctx.request(`/v1/sellers/${b.id}`, { method: 'PATCH', body: { external_id: a.external_id } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'resource_exists', param: 'external_id' });
  });

  it('answers 404 for an unknown seller and 400 for an unknown field', async () => {
    const missing = await ctx.request('/v1/sellers/sel_01jd00000000000000000000zz', { method: 'PATCH', body: { name: 'x' } });
    expect(missing.status).toBe(404);
    const seller = await createSeller(ctx);
    const bad = await ctx.request(`/v1/sellers/${seller.id}`, { method: 'PATCH', body: { status: 'suspended' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', param: 'status' });
  });
});
