// API-key authentication: missing and invalid keys, key kinds, the
// marketplace-and-mode scope of objects, read-only modes, and CORS on publishable-key operations.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../helpers/harness.js';
import { createMarketplace, type KeyPair } from '../../src/modules/marketplaces/operations.js';
import { ApiKeyCache } from '../../src/http/api-key-cache.js';
import { ManualClock } from '../../src/clock.js';
import type { Db } from '../../src/db/db.js';
import { fixtureRoutes } from './fixtures.js';

let ctx: TestContext;
let other: KeyPair;
beforeAll(async () => {
  ctx = await startTestApp({ routes: fixtureRoutes() });
  const created = await createMarketplace(ctx.db, ctx.services.clock, {
    workspaceId: ctx.workspaceId,
    name: 'Other marketplace',
    currency: 'EUR',
  });
  other = created.api_keys.test;
});
afterAll(() => ctx.close());

async function setBillingState(state: 'active' | 'payment_missed' | 'suspended') {
  await ctx.db.query('UPDATE workspaces SET billing_state = $1 WHERE id = $2', [state, ctx.workspaceId]);
  ctx.services.apiKeys.invalidate();
}

const code = (res: { body: { error?: { code: string } } }) => res.body.error?.code;

describe('missing and invalid keys', () => {
  it('no Authorization header answers 401 api_key_missing', async () => {
    const res = await ctx.request('/v1/marketplace', { key: null });
    expect(res.status).toBe(401);
    expect(code(res)).toBe('api_key_missing');
  });

  it.each([
    ['an unknown well-formed key', `sk_test_${'A'.repeat(40)}`],
    ['garbage', 'garbage'],
    ['a key of the wrong shape', 'sk_test_'],
  ])('%s answers 401 api_key_invalid', async (_name, key) => {
    const res = await ctx.request('/v1/marketplace', { key });
    expect(res.status).toBe(401);
    expect(code(res)).toBe('api_key_invalid');
  });

  it('a malformed Authorization answers 401 api_key_invalid saying what is wrong, without repeating the key', async () => {
    const expected = "Authorization must be 'Bearer <key>'; ";
    const cases: Array<[string, string]> = [
      [ctx.keys.test.secret_key, "the header has no 'Bearer ' prefix."],
      [`Basic ${Buffer.from('a:b').toString('base64')}`, "the header uses the 'Basic' scheme."],
      [`Token ${ctx.keys.test.secret_key}`, "the header uses the 'Token' scheme."],
      [`${ctx.keys.test.secret_key} extra`, "the header has no 'Bearer ' prefix."],
      ['Bearer ', "no key follows 'Bearer'."],
      ['Bearer a b', 'the key may not contain spaces.'],
    ];
    for (const [authorization, problem] of cases) {
      const res = await ctx.request('/v1/marketplace', { key: null, headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(code(res), authorization).toBe('api_key_invalid');
      expect(res.body.error.message, authorization).toBe(expected + problem);
    }
    const valid = await ctx.request('/v1/marketplace', { key: null, headers: { authorization: `bearer   ${ctx.keys.test.secret_key} ` } });
    expect(valid.status).toBe(200);
  });

  it('a revoked key answers 401 api_key_invalid, and an expired (rolled) key too', async () => {
    const { api_keys } = await createMarketplace(ctx.db, ctx.services.clock, { workspaceId: ctx.workspaceId, name: 'Revocable', currency: 'USD' });
    expect((await ctx.request('/v1/marketplace', { key: api_keys.test.secret_key })).status).toBe(200);
    await ctx.db.query(`UPDATE api_keys SET revoked_at = now() WHERE type = 'secret' AND mode = 'test' AND marketplace_id = (SELECT marketplace_id FROM api_keys WHERE publishable_key = $1)`, [api_keys.test.publishable_key]);
    ctx.services.apiKeys.invalidate();
    const revoked = await ctx.request('/v1/marketplace', { key: api_keys.test.secret_key });
    expect(revoked.status).toBe(401);
    expect(code(revoked)).toBe('api_key_invalid');

    await ctx.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE publishable_key = $1`, [api_keys.live.publishable_key]);
    ctx.services.apiKeys.invalidate();
    const expired = await ctx.request('/v1/_test/public', { key: api_keys.live.publishable_key });
    expect(expired.status).toBe(401);
    expect(code(expired)).toBe('api_key_invalid');
  });
});

describe('the key cache', () => {
  function countingCache() {
    const counter = { queries: 0 };
    const db: Db = { ...ctx.db, query: (sql, params) => (counter.queries++, ctx.db.query(sql, params)) };
    // A still clock: the flood below takes longer than the 5 s TTL on a slow machine.
    return { cache: new ApiKeyCache(db, new ManualClock(Date.now())), counter };
  }

  it('refuses text not shaped like a key without a database lookup', async () => {
    const { cache, counter } = countingCache();
    for (const key of ['garbage', 'sk_test_', `sk_test_${'A'.repeat(39)}`, `sk_prod_${'A'.repeat(40)}`, `sk_test_${'A'.repeat(39)}-`]) {
      expect(await cache.lookup(key)).toBeNull();
    }
    expect(counter.queries).toBe(0);
  });

  it('looks an unknown key up once per TTL, and a flood of unknown keys cannot push a real key out', async () => {
    const { cache, counter } = countingCache();
    const real = ctx.keys.test.secret_key;
    expect(await cache.lookup(real)).not.toBeNull();
    const made = (i: number) => `sk_test_${i.toString().padStart(40, 'Z')}`;
    expect(await cache.lookup(made(0))).toBeNull();
    expect(await cache.lookup(made(0))).toBeNull();
    expect(counter.queries).toBe(2);
    for (let i = 1; i <= 10_050; i++) await cache.lookup(made(i));
    const before = counter.queries;
    expect(await cache.lookup(real)).not.toBeNull();
    expect(counter.queries).toBe(before);
  });
});

describe('key kinds', () => {
  it('a publishable key on a secret operation answers 403 secret_key_required', async () => {
    const res = await ctx.request('/v1/marketplace', { key: ctx.keys.test.publishable_key });
    expect(res.status).toBe(403);
    expect(code(res)).toBe('secret_key_required');
    const write = await ctx.request('/v1/_test/widgets', { key: ctx.keys.live.publishable_key, body: { name: 'x' } });
    expect(code(write)).toBe('secret_key_required');
  });

  it('a publishable key works on a PK operation, and so does a secret key', async () => {
    const pk = await ctx.request('/v1/_test/public', { key: ctx.keys.test.publishable_key });
    expect(pk.status).toBe(200);
    expect(pk.body).toEqual({ object: 'public_thing', key_type: 'publishable' });
    const sk = await ctx.request('/v1/_test/public');
    expect(sk.body.key_type).toBe('secret');
  });

  it('live and test keys are separate scopes of the same marketplace', async () => {
    const test = await ctx.request('/v1/marketplace', { key: ctx.keys.test.secret_key });
    const live = await ctx.request('/v1/marketplace', { key: ctx.keys.live.secret_key });
    expect(test.body.id).toBe(ctx.marketplaceId);
    expect(live.body.id).toBe(ctx.marketplaceId);
    expect(test.body.livemode).toBe(false);
    expect(live.body.livemode).toBe(true);
  });
});

describe('object scope', () => {
  it('an object of another mode or another marketplace answers 404 resource_missing', async () => {
    const created = await ctx.request('/v1/_test/widgets', { body: { name: 'scoped' } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await ctx.request(`/v1/_test/widgets/${id}`)).status).toBe(200);
    for (const key of [ctx.keys.live.secret_key, other.secret_key]) {
      const res = await ctx.request(`/v1/_test/widgets/${id}`, { key });
      expect(res.status).toBe(404);
      expect(code(res)).toBe('resource_missing');
    }
  });

  it('lists show only the key’s marketplace and mode', async () => {
    const mine = await ctx.request('/v1/_test/widgets?limit=100');
    const theirs = await ctx.request('/v1/_test/widgets?limit=100', { key: other.secret_key });
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(theirs.body.data).toEqual([]);
  });
});

describe('read-only modes', () => {
  beforeEach(() => setBillingState('active'));
  afterAll(() => setBillingState('active'));

  it('payment_missed makes live read-only and leaves test writable', async () => {
    await setBillingState('payment_missed');
    const liveWrite = await ctx.request('/v1/_test/widgets', { key: ctx.keys.live.secret_key, body: { name: 'x' } });
    expect(liveWrite.status).toBe(403);
    expect(code(liveWrite)).toBe('marketplace_read_only');
    const liveRead = await ctx.request('/v1/marketplace', { key: ctx.keys.live.secret_key });
    expect(liveRead.status).toBe(200);
    expect(liveRead.body.read_only).toEqual({ reason: 'payment_missed', message: expect.any(String) });

    expect((await ctx.request('/v1/_test/widgets', { body: { name: 'x' } })).status).toBe(201);
    expect((await ctx.request('/v1/marketplace')).body.read_only).toBeNull();
  });

  it('suspended makes both modes read-only; reads still work', async () => {
    await setBillingState('suspended');
    for (const mode of ['test', 'live'] as const) {
      const write = await ctx.request('/v1/_test/widgets', { key: ctx.keys[mode].secret_key, body: { name: 'x' } });
      expect(write.status).toBe(403);
      expect(code(write)).toBe('marketplace_read_only');
      const read = await ctx.request('/v1/marketplace', { key: ctx.keys[mode].secret_key });
      expect(read.body.read_only).toEqual({ reason: 'workspace_suspended', message: expect.any(String) });
      expect((await ctx.request('/v1/_test/widgets', { key: ctx.keys[mode].secret_key })).status).toBe(200);
    }
  });

  it('back to active, writes work again', async () => {
    await setBillingState('suspended');
    await setBillingState('active');
    expect((await ctx.request('/v1/_test/widgets', { key: ctx.keys.live.secret_key, body: { name: 'x' } })).status).toBe(201);
  });
});

describe('CORS', () => {
  const origin = { origin: 'https://shop.example' };

  it('a preflight for a PK operation answers 204 with Access-Control-Allow-Origin, without a key', async () => {
    const res = await ctx.request('/v1/_test/public', {
      method: 'OPTIONS',
      key: null,
      headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-allow-headers'])).toMatch(/Authorization/i);
    expect(res.headers['request-id']).toMatch(/^req_/);
  });

  it('PK answers carry Access-Control-Allow-Origin, errors included', async () => {
    const ok = await ctx.request('/v1/_test/public', { key: ctx.keys.test.publishable_key, headers: origin });
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    expect(String(ok.headers['access-control-expose-headers'])).toMatch(/Request-Id/);
    const denied = await ctx.request('/v1/_test/public', { key: 'pk_test_nope', headers: origin });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('*');
  });

  it('secret operations send no CORS headers, and have no preflight', async () => {
    const res = await ctx.request('/v1/marketplace', { headers: origin });
    expect(res.status).toBe(200);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const preflight = await ctx.request('/v1/marketplace', { method: 'OPTIONS', key: null, headers: { ...origin, 'access-control-request-method': 'GET' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const write = await ctx.request('/v1/_test/widgets', { body: { name: 'x' }, headers: origin });
    expect(write.headers['access-control-allow-origin']).toBeUndefined();
  });
});
