// The endpoint API: create with its secret (stored encrypted, never in a stored answer), list,
// retrieve, update, delete (with its deliveries), rotate; validation names the field at fault.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPATCHER } from '../../../src/modules/webhooks/wake.js';
import { createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { createEndpoint, deliveriesOf } from './helpers.js';

let ctx: TestContext;
const url = 'https://hooks.example.com/marketplace';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.services.background.loop(DISPATCHER).stop(0);
  await ctx.close();
});

describe('POST /v1/webhook_endpoints', () => {
  it('creates an enabled endpoint and shows its whsec_ secret once, stored encrypted', async () => {
    const res = await ctx.request('/v1/webhook_endpoints', {
      method: 'POST',
      body: { url, enabled_events: ['order.created', 'seller.created'], description: 'Sync', metadata: { team: 'ops' } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      object: 'webhook_endpoint',
      url,
      description: 'Sync',
      enabled_events: ['order.created', 'seller.created'],
      status: 'enabled',
      disabled_reason: null,
      failing_since: null,
      last_success_at: null,
      metadata: { team: 'ops' },
    });
    expect(res.body.id).toMatch(/^whe_[0-9a-z]{26}$/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const [row] = await ctx.db.query<{ secret_enc: string }>('SELECT secret_enc FROM webhook_endpoints WHERE id = $1', [res.body.id]);
    expect(row!.secret_enc).not.toContain(res.body.secret.slice(6));
    const read = await ctx.request(`/v1/webhook_endpoints/${res.body.id}`);
    expect(read.body).not.toHaveProperty('secret');
    const list = await ctx.request('/v1/webhook_endpoints');
    expect(list.body.data.every((e: object) => !('secret' in e))).toBe(true);
  });

  it('keeps no plain secret in the stored answer of an idempotent create, and replays it whole', async () => {
    const headers = { 'idempotency-key': `whe-${Date.now()}` };
    const body = { url, enabled_events: ['*'] };
    const first = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body, headers });
    expect(first.status).toBe(201);
    const [stored] = await ctx.db.query<{ response_body: string }>('SELECT response_body FROM idempotency_keys WHERE key = $1', [headers['idempotency-key']]);
    expect(stored!.response_body).not.toContain(first.body.secret);
    expect(stored!.response_body.startsWith('sealed:')).toBe(true);
    const again = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body, headers });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it.each([
    [{ enabled_events: ['order.created', '*', 'order.nope'] }, 'enabled_events[2]'],
    [{ enabled_events: [] }, 'enabled_events'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'ftp://example.com/x' }, 'url'],
    [{ description: 'x'.repeat(201) }, 'description'],
    [{ metadata: { a: 1 } }, 'metadata.a'],
    [{ extra: true }, 'extra'],
  ])('refuses %j with 400 naming %s', async (change, param) => {
    const res = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body: { url, enabled_events: ['*'], ...change } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
  });

  it('refuses a publishable key and a missing key', async () => {
    const pk = await ctx.request('/v1/webhook_endpoints', { key: ctx.keys.test.publishable_key });
    expect(pk.status).toBe(403);
    const none = await ctx.request('/v1/webhook_endpoints', { key: null });
    expect(none.status).toBe(401);
  });
});

describe('endpoint operations', () => {
  it('lists newest first with paging', async () => {
    const a = await createEndpoint(ctx, { url });
    const b = await createEndpoint(ctx, { url });
    const page = await ctx.request('/v1/webhook_endpoints?limit=1');
    expect(page.body).toMatchObject({ object: 'list', has_more: true, next_cursor: b.id });
    expect(page.body.data[0].id).toBe(b.id);
    const next = await ctx.request(`/v1/webhook_endpoints?limit=1&starting_after=${b.id}`);
    expect(next.body.data[0].id).toBe(a.id);
    const bad = await ctx.request('/v1/webhook_endpoints?starting_after=evt_00000000000000000000000000');
    expect(bad.status).toBe(400);
  });

  it('updates url, events, description and metadata; validates them the same way', async () => {
    const e = await createEndpoint(ctx, { url, description: 'old' });
    const res = await ctx.request(`/v1/webhook_endpoints/${e.id}`, {
      method: 'PATCH',
      body: { url: 'https://other.example.com/x', enabled_events: ['listing.created'], description: null, metadata: { k: 'v' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ url: 'https://other.example.com/x', enabled_events: ['listing.created'], description: null, metadata: { k: 'v' } });
    expect(res.body).not.toHaveProperty('secret');
    const bad = await ctx.request(`/v1/webhook_endpoints/${e.id}`, { method: 'PATCH', body: { enabled_events: ['listing.created', 'nope'] } });
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', param: 'enabled_events[1]' });
    const badStatus = await ctx.request(`/v1/webhook_endpoints/${e.id}`, { method: 'PATCH', body: { status: 'paused' } });
    expect(badStatus.body.error).toMatchObject({ code: 'invalid_request', param: 'status' });
  });

  it('deletes an endpoint with its deliveries', async () => {
    const e = await createEndpoint(ctx, { url, enabled_events: ['seller.created'] });
    await createSeller(ctx);
    expect(await deliveriesOf(ctx, e.id)).toHaveLength(1);
    const res = await ctx.request(`/v1/webhook_endpoints/${e.id}`, { method: 'DELETE' });
    expect(res.body).toEqual({ object: 'webhook_endpoint', id: e.id, deleted: true });
    expect(await ctx.db.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [e.id])).toEqual([]);
    expect((await ctx.request(`/v1/webhook_endpoints/${e.id}`)).status).toBe(404);
  });

  it.each([
    ['GET', ''],
    ['PATCH', ''],
    ['DELETE', ''],
    ['POST', '/rotate_secret'],
  ] as const)('answers 404 resource_missing to %s on an unknown endpoint%s', async (method, suffix) => {
    const res = await ctx.request(`/v1/webhook_endpoints/whe_00000000000000000000000000${suffix}`, {
      method,
      ...(method === 'PATCH' ? { body: { description: 'x' } } : {}),
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
  });

  it('does not show another mode its endpoints', async () => {
    const e = await createEndpoint(ctx, { url });
    const live = await ctx.request(`/v1/webhook_endpoints/${e.id}`, { key: ctx.keys.live.secret_key });
    expect(live.status).toBe(404);
  });
});

describe('GET /v1/webhook_deliveries', () => {
  it('filters by endpoint and status, newest first', async () => {
    const e = await createEndpoint(ctx, { url, enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await createSeller(ctx);
    const all = await deliveriesOf(ctx, e.id);
    expect(all).toHaveLength(2);
    expect(all[0].id > all[1].id).toBe(true);
    const pending = await ctx.request(`/v1/webhook_deliveries?endpoint=${e.id}&status=pending`);
    expect(pending.body.data).toHaveLength(2);
    const none = await ctx.request(`/v1/webhook_deliveries?endpoint=${e.id}&status=succeeded`);
    expect(none.body.data).toHaveLength(0);
    const badStatus = await ctx.request('/v1/webhook_deliveries?status=lost');
    expect(badStatus.body.error).toMatchObject({ code: 'invalid_request', param: 'status' });
    const badEndpoint = await ctx.request('/v1/webhook_deliveries?endpoint=sel_00000000000000000000000000');
    expect(badEndpoint.body.error).toMatchObject({ code: 'invalid_request', param: 'endpoint' });
    const missing = await ctx.request('/v1/webhook_deliveries/whd_00000000000000000000000000');
    expect(missing.status).toBe(404);
    await ctx.request(`/v1/webhook_endpoints/${e.id}`, { method: 'DELETE' });
  });
});
