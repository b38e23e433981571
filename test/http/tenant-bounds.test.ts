// Per-tenant bounds (issue 21, item 4), written as the attacker's requests: one test-mode key
// makes webhook endpoints, media and dispute evidence until refused, an owner makes API keys.
// Each refusal is 409 limit_exceeded naming the limit and its setting; what was made before stays
// and works; a refusal frees nothing, a deletion frees a slot. Several creates at the last free
// slot at once: one wins (the parent row is locked before counting).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedListing, createSeller, type Json } from '../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../helpers/harness.js';
import { ownerToken } from '../modules/accounts/manage-helpers.js';
import { orderHelpers } from '../modules/orders/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = orderHelpers(() => ctx);

function expectLimit(res: TestResponse, setting: string, limit: number, param?: string) {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }, res.text).toEqual({ status: 409, code: 'limit_exceeded', param });
  expect(res.body.error.message).toContain(setting);
  expect(res.body.error.message).toContain(String(limit));
}

const statuses = (responses: TestResponse[]) => responses.map((r) => r.status).sort();

describe('webhook endpoints per mode (MAX_WEBHOOK_ENDPOINTS, 16)', () => {
  const create = (i: number) => ctx.request('/v1/webhook_endpoints', { body: { url: `http://127.0.0.1:9/hook/${i}`, enabled_events: ['*'] } });

  it('refuses the 17th endpoint; the 16 stay and each gets the next event', async () => {
    const made: string[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await create(i);
      expect(res.status, res.text).toBe(201);
      made.push(res.body.id);
    }
    expectLimit(await create(16), 'MAX_WEBHOOK_ENDPOINTS', 16);
    // Another key of the same mode is the same tenant; live mode is another one.
    const live = await ctx.request('/v1/webhook_endpoints', { key: ctx.keys.live.secret_key, body: { url: 'https://hooks.example.com/live', enabled_events: ['*'] } });
    expect(live.status, live.text).toBe(201);

    const list = await ctx.request('/v1/webhook_endpoints?limit=100');
    expect(list.body.data.map((e: Json) => e.id).sort()).toEqual([...made].sort());
    const seller = await createSeller(ctx);
    const deliveries = (await ctx.request('/v1/webhook_deliveries?limit=100')).body.data.filter((d: Json) => d.event_type === 'seller.created');
    expect(deliveries.map((d: Json) => d.endpoint).sort()).toEqual([...made].sort());
    expect(seller.id).toMatch(/^sel_/);

    const deleted = await ctx.request(`/v1/webhook_endpoints/${made[0]}`, { method: 'DELETE' });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await create(17)).status).toBe(201);
    expectLimit(await create(18), 'MAX_WEBHOOK_ENDPOINTS', 16);
  });

  it('five creates at the last free slot at once: one 201, four 409', async () => {
    const list = (await ctx.request('/v1/webhook_endpoints?limit=100')).body.data as Json[];
    const deleted = await ctx.request(`/v1/webhook_endpoints/${list[0].id}`, { method: 'DELETE' });
    expect(deleted.status, deleted.text).toBe(200);
    const results = await Promise.all([100, 101, 102, 103, 104].map(create));
    expect(statuses(results)).toEqual([201, 409, 409, 409, 409]);
    expect((await ctx.request('/v1/webhook_endpoints?limit=100')).body.data).toHaveLength(16);
  });
});

describe('media per listing (MAX_MEDIA_PER_LISTING, 20)', () => {
  const start = (listingId: string) => ctx.request(`/v1/listings/${listingId}/media`, { body: { content_type: 'image/png', size_bytes: 100 } });

  it('refuses the 21st upload (pending ones count); the 20 stay; another listing is not touched', async () => {
    const seller = await createSeller(ctx);
    const listing = await createPublishedListing(ctx, { seller: seller.id });
    const other = await createPublishedListing(ctx, { seller: seller.id });
    const made: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await start(listing.id);
      expect(res.status, res.text).toBe(201);
      made.push(res.body.media.id);
    }
    expectLimit(await start(listing.id), 'MAX_MEDIA_PER_LISTING', 20);
    const list = await ctx.request(`/v1/listings/${listing.id}/media?limit=100`);
    expect(list.body.data.map((m: Json) => m.id).sort()).toEqual([...made].sort());
    expect((await start(other.id)).status).toBe(201);

    const deleted = await ctx.request(`/v1/media/${made[0]}`, { method: 'DELETE' });
    expect(deleted.status, deleted.text).toBe(200);
    const results = await Promise.all([start(listing.id), start(listing.id), start(listing.id)]);
    expect(statuses(results)).toEqual([201, 409, 409]);
  });
});

describe('evidence per dispute (MAX_EVIDENCE_PER_DISPUTE, 50) and its size', () => {
  it('refuses the 51st item and a text over 5000 characters; the 50 stay, and so do their events', async () => {
    const made = await h.order();
    const opened = await h.post(`/v1/orders/${made.order.id}/dispute`, { actor: made.buyer.id, reason: 'not_received', description: 'Nothing came.' });
    expect(opened.status, opened.text).toBe(200);
    const disputeId = opened.body.dispute as string;
    const add = (actor: string, text: string) => h.post(`/v1/disputes/${disputeId}/evidence`, { actor, text });

    const tooLong = await add(made.seller.id, 'x'.repeat(5001));
    expect({ status: tooLong.status, code: tooLong.body.error.code, param: tooLong.body.error.param }).toEqual({ status: 400, code: 'invalid_request', param: 'text' });
    for (let i = 0; i < 50; i++) {
      const res = await add(i % 2 ? made.buyer.id : made.seller.id, `item ${i}`);
      expect(res.status, res.text).toBe(200);
    }
    expectLimit(await add(made.buyer.id, 'one more'), 'MAX_EVIDENCE_PER_DISPUTE', 50);
    const dispute = (await ctx.request(`/v1/disputes/${disputeId}`)).body;
    expect(dispute.evidence).toHaveLength(50);
    expect(dispute.evidence.at(-1).text).toBe('item 49');
    const events = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE marketplace_id = $1 AND type = 'dispute.evidence_added' AND data->'object'->>'id' = $2`,
      [ctx.marketplaceId, disputeId],
    );
    expect(Number(events[0]!.n)).toBe(50);
  });
});

describe('API keys per mode (MAX_API_KEYS, 20; revoked and expired keys do not count)', () => {
  let owner: string;
  const keysPath = () => `/manage/v1/marketplaces/${ctx.marketplaceId}/modes/test/api_keys`;
  const create = (name: string) => ctx.request(keysPath(), { key: owner, body: { type: 'secret', name } });

  it('refuses the 21st working key; the 20 work; a revoked one frees its slot; at the last slot at once, one wins', async () => {
    owner = await ownerToken(ctx);
    // The mode has its two default keys; 18 more make 20.
    const made: string[] = [];
    for (let i = 0; i < 18; i++) {
      const res = await create(`key ${i}`);
      expect(res.status, res.text).toBe(201);
      made.push(res.body.key);
    }
    expectLimit(await create('one too many'), 'MAX_API_KEYS', 20);
    // The keys made stay, and authenticate.
    expect((await ctx.request('/v1/sellers', { key: made[17]! })).status).toBe(200);
    expect((await ctx.request('/v1/sellers', { key: ctx.keys.test.secret_key })).status).toBe(200);
    // The other mode is another tenant.
    expect((await ctx.request(`/manage/v1/marketplaces/${ctx.marketplaceId}/modes/live/api_keys`, { key: owner, body: { type: 'secret' } })).status).toBe(201);

    const list = (await ctx.request(`${keysPath()}?limit=100`, { key: owner })).body.data as Json[];
    expect(list).toHaveLength(20);
    const revoked = await ctx.request(`/manage/v1/api_keys/${list.find((k) => k.name === 'key 0')!.id}`, { method: 'DELETE', key: owner });
    expect(revoked.status, revoked.text).toBe(200);
    const results = await Promise.all([create('race a'), create('race b'), create('race c')]);
    expect(statuses(results)).toEqual([201, 409, 409]);
    expectLimit(results.find((r) => r.status === 409)!, 'MAX_API_KEYS', 20);
  });
});
