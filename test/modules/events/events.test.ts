import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { emitEvent } from '../../../src/outbox/emit.js';
import { type EventObject } from '../../../src/contracts/events.js';
import type { EventType } from '../../../src/contracts/events.js';
import { newId } from '../../../src/ids.js';
import { createMarketplace, type KeyPair } from '../../../src/modules/marketplaces/operations.js';
import type { Scope } from '../../../src/scope.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
let test: Scope;
let other: { scope: Scope; keys: { test: KeyPair; live: KeyPair } };

async function emit(scope: Scope, type: EventType, object: EventObject, previous?: Record<string, unknown>) {
  return ctx.db.transaction((tx) => emitEvent(tx, scope, new Date(), type, object, previous));
}

const listing = (fields: Record<string, unknown> = {}) => ({ id: newId('listing'), object: 'listing', ...fields });

beforeAll(async () => {
  // Its events are made up (partial objects): their schemas are not checked at close.
  ctx = await startTestApp({ fabricatedEvents: true });
  test = { marketplaceId: ctx.marketplaceId, mode: 'test' };
  const created = await createMarketplace(ctx.db, systemClock, { workspaceId: ctx.workspaceId, name: 'Other', currency: 'EUR' });
  other = { scope: { marketplaceId: created.marketplace.id, mode: 'test' }, keys: created.api_keys };
});
afterAll(() => ctx.close());

describe('GET /v1/events/{id}', () => {
  it('answers the envelope, keeping every nested field of data.object', async () => {
    const object = listing({ title: 'Oak desk', price: { amount: 2500, currency: 'USD' }, media: [{ id: 'med_1', tags: ['a', null] }], category: null });
    const event = await emit(test, 'listing.created', object);
    const res = await ctx.request(`/v1/events/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: event.id,
      object: 'event',
      type: 'listing.created',
      api_version: 'v1',
      created: event.created,
      livemode: false,
      data: { object },
    });
    expect(Object.keys(res.body.data.object).slice(0, 2)).toEqual(['id', 'object']);
    expect(res.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('round-trips data.previous_attributes of an *.updated event', async () => {
    const object = listing({ title: 'Oak desk', attributes: { color: 'oak' } });
    const previous = { title: 'Desk', attributes: { color: 'pine' }, description: null };
    const event = await emit(test, 'listing.updated', object, previous);
    const res = await ctx.request(`/v1/events/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ object, previous_attributes: previous });
  });

  it('answers 404 resource_missing for an unknown id', async () => {
    const res = await ctx.request(`/v1/events/${newId('event')}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
  });

  it("answers 404 for another marketplace's event and for the other mode's event", async () => {
    const foreign = await emit(other.scope, 'listing.created', listing());
    const live = await emit({ marketplaceId: ctx.marketplaceId, mode: 'live' }, 'listing.created', listing());
    for (const id of [foreign.id, live.id]) {
      const res = await ctx.request(`/v1/events/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_missing');
    }
    const own = await ctx.request(`/v1/events/${foreign.id}`, { key: other.keys.test.secret_key });
    expect(own.status).toBe(200);
    const liveRes = await ctx.request(`/v1/events/${live.id}`, { key: ctx.keys.live.secret_key });
    expect(liveRes.status).toBe(200);
    expect(liveRes.body.livemode).toBe(true);
  });

  it('refuses a publishable key with 403 secret_key_required', async () => {
    const res = await ctx.request(`/v1/events/${newId('event')}`, { key: ctx.keys.test.publishable_key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('secret_key_required');
  });
});

describe('GET /v1/events', () => {
  let scope: Scope;
  let keys: KeyPair;
  const ids: string[] = [];

  beforeAll(async () => {
    // A marketplace of its own, so the list holds exactly the events made here.
    const created = await createMarketplace(ctx.db, systemClock, { workspaceId: ctx.workspaceId, name: 'Listed', currency: 'USD' });
    scope = { marketplaceId: created.marketplace.id, mode: 'test' };
    keys = created.api_keys.test;
    await ctx.db.query(
      `UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '10000') WHERE marketplace_id = $1`,
      [scope.marketplaceId],
    );
    const types: EventType[] = ['listing.created', 'order.created', 'listing.created', 'listing.published', 'listing.created'];
    for (const type of types) ids.push((await emit(scope, type, listing())).id);
    await emit(other.scope, 'listing.created', listing());
    await emit({ ...scope, mode: 'live' }, 'listing.created', listing());
  });

  it('lists newest first, only this marketplace and mode', async () => {
    const res = await ctx.request('/v1/events', { key: keys.secret_key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
    expect(res.body.data[0]).toMatchObject({ object: 'event', api_version: 'v1', livemode: false });
  });

  it('pages with limit and starting_after', async () => {
    const first = await ctx.request('/v1/events?limit=2', { key: keys.secret_key });
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: ids[3] });
    const second = await ctx.request(`/v1/events?limit=2&starting_after=${first.body.next_cursor}`, { key: keys.secret_key });
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const last = await ctx.request(`/v1/events?limit=2&starting_after=${second.body.next_cursor}`, { key: keys.secret_key });
    expect(last.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(last.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
  });

  it('filters by type, and pages within the filter', async () => {
    const res = await ctx.request('/v1/events?type=listing.created&limit=2', { key: keys.secret_key });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[2]]);
    expect(res.body.has_more).toBe(true);
    const rest = await ctx.request(`/v1/events?type=listing.created&starting_after=${res.body.next_cursor}`, { key: keys.secret_key });
    expect(rest.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    const none = await ctx.request('/v1/events?type=refund.updated', { key: keys.secret_key });
    expect(none.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  it.each([
    ['type=listing.bogus', 'type'],
    ['type=', 'type'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['starting_after=lst_01jd7v2a0b1c2d3e4f5g6h7j8k', 'starting_after'],
    ['colour=red', 'colour'],
  ])('answers 400 invalid_request for %s', async (query, param) => {
    const res = await ctx.request(`/v1/events?${query}`, { key: keys.secret_key });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
  });

  it('answers 401 without a key and 403 with a publishable key', async () => {
    expect((await ctx.request('/v1/events', { key: null })).body.error.code).toBe('api_key_missing');
    const res = await ctx.request('/v1/events', { key: keys.publishable_key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('secret_key_required');
  });
});
