// The delivery controls' API: rate_limit_per_second and ordering on create, update and read (and
// their validation), and POST /v1/webhook_endpoints/{id}/replay_failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPATCHER } from '../../../src/modules/webhooks/wake.js';
import { REPLAY_PAGE } from '../../../src/modules/webhooks/operations.js';
import { createSeller, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { advance, createEndpoint, deliveriesOf } from './helpers.js';

let ctx: TestContext;
const url = 'https://hooks.example.com/marketplace';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.services.background.loop(DISPATCHER).stop(0);
  await ctx.close();
});

async function patch(id: string, body: Record<string, unknown>) {
  return ctx.request(`/v1/webhook_endpoints/${id}`, { method: 'PATCH', body });
}

async function replayFailed(id: string, body?: Record<string, unknown>) {
  return ctx.request(`/v1/webhook_endpoints/${id}/replay_failed`, { method: 'POST', ...(body ? { body } : {}) });
}

/** Turning the endpoint off fails its pending deliveries (endpoint_disabled); then it is turned on again. */
async function failPending(id: string): Promise<void> {
  expect((await patch(id, { status: 'disabled' })).status).toBe(200);
  expect((await patch(id, { status: 'enabled' })).status).toBe(200);
}

describe('rate_limit_per_second and ordering', () => {
  it('default to unlimited and none, are set on create, changed and cleared by PATCH', async () => {
    const plain = await createEndpoint(ctx, { url });
    expect(plain).toMatchObject({ rate_limit_per_second: null, ordering: 'none' });
    const controlled = await createEndpoint(ctx, { url, rate_limit_per_second: 25, ordering: 'per_object' });
    expect(controlled).toMatchObject({ rate_limit_per_second: 25, ordering: 'per_object' });
    const changed = await patch(controlled.id, { rate_limit_per_second: 1000 });
    expect(changed.body).toMatchObject({ rate_limit_per_second: 1000, ordering: 'per_object' });
    const cleared = await patch(controlled.id, { rate_limit_per_second: null, ordering: 'none' });
    expect(cleared.body).toMatchObject({ rate_limit_per_second: null, ordering: 'none' });
    const read = await ctx.request(`/v1/webhook_endpoints/${controlled.id}`);
    expect(read.body).toMatchObject({ rate_limit_per_second: null, ordering: 'none' });
  });

  it.each([
    [{ rate_limit_per_second: 0 }, 'rate_limit_per_second'],
    [{ rate_limit_per_second: 1001 }, 'rate_limit_per_second'],
    [{ rate_limit_per_second: 2.5 }, 'rate_limit_per_second'],
    [{ rate_limit_per_second: '10' }, 'rate_limit_per_second'],
    [{ ordering: 'fifo' }, 'ordering'],
    [{ ordering: null }, 'ordering'],
  ])('refuses %j with 400 naming %s, on create and on update', async (change, param) => {
    const created = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body: { url, enabled_events: ['*'], ...change } });
    expect(created.status, created.text).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'invalid_request', param });
    const endpoint = await createEndpoint(ctx, { url });
    const updated = await patch(endpoint.id, change);
    expect(updated.status, updated.text).toBe(400);
    expect(updated.body.error).toMatchObject({ code: 'invalid_request', param });
  });
});

describe('POST /v1/webhook_endpoints/{id}/replay_failed', () => {
  it('replays every failed delivery, or those created since a time, as new pending deliveries', async () => {
    const endpoint = await createEndpoint(ctx, { url, enabled_events: ['seller.created'] });
    await createSeller(ctx);
    await createSeller(ctx);
    await failPending(endpoint.id);
    await advance(ctx, 3600);
    await createSeller(ctx);
    await failPending(endpoint.id);
    const failed = await deliveriesOf(ctx, endpoint.id);
    expect(failed.map((d) => [d.status, d.error])).toEqual(Array(3).fill(['failed', 'endpoint_disabled']));
    const newest = failed[0]!;

    const since = new Date(Date.parse(newest.created_at) - 60_000).toISOString();
    const recent = await replayFailed(endpoint.id, { since });
    expect(recent.status, recent.text).toBe(200);
    expect(recent.body).toEqual({ object: 'webhook_replay', endpoint: endpoint.id, since, replayed: 1 });
    let deliveries = await deliveriesOf(ctx, endpoint.id);
    expect(deliveries.filter((d) => d.replay_of !== null).map((d) => [d.replay_of, d.status, d.event])).toEqual([[newest.id, 'pending', newest.event]]);

    // The newest event has its pending replay already: only the other two are replayed.
    const all = await replayFailed(endpoint.id);
    expect(all.body).toEqual({ object: 'webhook_replay', endpoint: endpoint.id, since: null, replayed: 2 });
    deliveries = await deliveriesOf(ctx, endpoint.id);
    const replays = deliveries.filter((d) => d.replay_of !== null);
    expect(replays).toHaveLength(3);
    expect(new Set(replays.map((d) => d.event)).size).toBe(3);
    expect(replays.every((d: Json) => d.status === 'pending' && d.request.body === failed.find((f) => f.id === d.replay_of)!.request.body)).toBe(true);
    // The originals are unchanged.
    expect(deliveries.filter((d) => d.replay_of === null).every((d) => d.status === 'failed')).toBe(true);
  });

  it('answers replayed: 0 when nothing failed', async () => {
    const endpoint = await createEndpoint(ctx, { url, enabled_events: ['seller.created'] });
    const res = await replayFailed(endpoint.id, {});
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ object: 'webhook_replay', endpoint: endpoint.id, replayed: 0 });
  });

  it(`replays thousands in pages of ${REPLAY_PAGE}`, async () => {
    const endpoint = await createEndpoint(ctx, { url, enabled_events: ['seller.created'] });
    const count = REPLAY_PAGE * 2 + 7;
    // Ids older than any made now (ids are time-ordered): failed before the call.
    await ctx.db.query(
      `INSERT INTO webhook_deliveries (marketplace_id, mode, id, endpoint_id, event_id, event_type, object_id, status, next_attempt_at, created_at, completed_at, error)
       SELECT $1, 'test', 'whd_00bulk' || lpad(n::text, 6, '0'), $2, 'evt_bulk' || n, 'seller.created', 'sel_bulk', 'failed', NULL, now(), now(), 'timeout'
         FROM generate_series(1, $3::int) AS n`,
      [ctx.marketplaceId, endpoint.id, count],
    );
    const res = await replayFailed(endpoint.id);
    expect(res.body).toMatchObject({ replayed: count });
    const pending = await ctx.db.query<{ n: number; originals: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT replay_of)::int AS originals FROM webhook_deliveries
        WHERE marketplace_id = $1 AND mode = 'test' AND endpoint_id = $2 AND status = 'pending'`,
      [ctx.marketplaceId, endpoint.id],
    );
    expect(pending[0]).toEqual({ n: count, originals: count });
  });

  it('answers 404 for an unknown endpoint, 409 for a disabled one, 400 for a bad since', async () => {
    const missing = await replayFailed('whe_01jd7v3k2m4n5p6q7r8s9t0v1w');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    const endpoint = await createEndpoint(ctx, { url, enabled_events: ['seller.created'] });
    expect((await patch(endpoint.id, { status: 'disabled' })).status).toBe(200);
    const disabled = await replayFailed(endpoint.id);
    expect(disabled.status).toBe(409);
    expect(disabled.body.error).toMatchObject({ code: 'invalid_state' });
    const badSince = await replayFailed(endpoint.id, { since: 'yesterday' });
    expect(badSince.status).toBe(400);
    expect(badSince.body.error).toMatchObject({ code: 'invalid_request', param: 'since' });
    const extra = await replayFailed(endpoint.id, { status: 'failed' });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toMatchObject({ code: 'invalid_request', param: 'status' });
  });
});
