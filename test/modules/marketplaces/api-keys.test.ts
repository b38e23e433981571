import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectError, memberToken, ownerToken, PASSWORD, uniqueEmail } from '../accounts/manage-helpers.js';

let ctx: TestContext;
let clock: ManualClock;
let owner: string;
let keysPath: (mode: string) => string;
beforeAll(async () => {
  clock = new ManualClock();
  ctx = await startTestApp({ clock });
  owner = await ownerToken(ctx);
  keysPath = (mode) => `/manage/v1/marketplaces/${ctx.marketplaceId}/modes/${mode}/api_keys`;
});
afterAll(() => ctx.close());

async function newSecretKey(mode = 'test'): Promise<{ id: string; key: string }> {
  const res = await ctx.request(keysPath(mode), { key: owner, body: { type: 'secret', name: 'Server' } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('creating and listing keys', () => {
  it('shows a secret key once, then masked; publishable keys always whole', async () => {
    const created = await ctx.request(keysPath('live'), { key: owner, body: { type: 'secret', name: 'Checkout server' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'api_key', marketplace: ctx.marketplaceId, mode: 'live', type: 'secret', name: 'Checkout server', expires_at: null, revoked_at: null });
    expect(created.body.key).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    expect(created.body.masked).toBe(`sk_live_…${created.body.key.slice(-4)}`);
    expect((await ctx.request('/v1/marketplace', { key: created.body.key })).body.livemode).toBe(true);
    const publishable = await ctx.request(keysPath('live'), { key: owner, body: { type: 'publishable' } });
    expect(publishable.body).toMatchObject({ type: 'publishable', name: null });

    const list = await ctx.request(keysPath('live'), { key: owner });
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({ id: publishable.body.id, key: publishable.body.key });
    expect(list.body.data[1]).toMatchObject({ id: created.body.id, key: null, masked: created.body.masked });
    expect(list.body.data).toHaveLength(4);
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    expect(JSON.stringify(list.body)).not.toContain(ctx.keys.live.secret_key);
  });

  it.each([
    [{ type: 'restricted' }, 'type'],
    [{ name: 'x' }, 'type'],
    [{ type: 'secret', name: 'x'.repeat(101) }, 'name'],
  ])('answers 400 for %j', async (body, param) => {
    expectError(await ctx.request(keysPath('test'), { key: owner, body }), 400, 'invalid_request', param);
  });

  it('lets developers manage keys and viewers list them', async () => {
    const developer = await memberToken(ctx, owner, 'developer');
    const viewer = await memberToken(ctx, owner, 'viewer');
    expect((await ctx.request(keysPath('test'), { key: developer.token, body: { type: 'secret' } })).status).toBe(201);
    expect((await ctx.request(keysPath('test'), { key: viewer.token })).status).toBe(200);
    expectError(await ctx.request(keysPath('test'), { key: viewer.token, body: { type: 'secret' } }), 403, 'permission_denied');
    const { id } = await newSecretKey();
    expectError(await ctx.request(`/manage/v1/api_keys/${id}/roll`, { key: viewer.token, body: { expires_in_seconds: 0 } }), 403, 'permission_denied');
    expectError(await ctx.request(`/manage/v1/api_keys/${id}`, { method: 'DELETE', key: viewer.token }), 403, 'permission_denied');
  });
});

describe('publishable keys are public: whole in every answer', () => {
  type Key = { id: string; type: string; key: string | null; masked: string; revoked_at: string | null; expires_at: string | null };
  const list = async (mode: string, query = '', token = owner): Promise<Key[]> => {
    const res = await ctx.request(`${keysPath(mode)}${query}`, { key: token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };

  it("lists the marketplace's own publishable keys whole, secret keys masked; type filters", async () => {
    for (const mode of ['test', 'live'] as const) {
      const publishable = await list(mode, '?type=publishable&limit=100');
      expect(publishable.length).toBeGreaterThan(0);
      expect(publishable.every((k) => k.type === 'publishable')).toBe(true);
      const first = publishable.find((k) => k.key === ctx.keys[mode].publishable_key);
      expect(first, `${mode}: the publishable key made with the marketplace`).toMatchObject({ masked: `pk_${mode}_…${ctx.keys[mode].publishable_key.slice(-4)}`, revoked_at: null });
      for (const k of publishable) expect(k.key).toMatch(new RegExp(`^pk_${mode}_[0-9A-Za-z]{32,}$`));
      const secret = await list(mode, '?type=secret&limit=100');
      expect(secret.length).toBeGreaterThan(0);
      expect(secret.every((k) => k.type === 'secret' && k.key === null && k.masked.startsWith(`sk_${mode}_…`))).toBe(true);
      const all = await list(mode, '?limit=100');
      expect(all.length).toBe(publishable.length + secret.length);
      expect(JSON.stringify(all)).not.toContain(ctx.keys[mode].secret_key);
    }
    const viewer = await memberToken(ctx, owner, 'viewer');
    expect((await list('test', '?type=publishable&limit=100', viewer.token)).map((k) => k.key)).toContain(ctx.keys.test.publishable_key);
  });

  it('answers a rolled and a revoked publishable key whole, and lists them whole', async () => {
    const made = await ctx.request(keysPath('test'), { key: owner, body: { type: 'publishable', name: 'Storefront' } });
    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^pk_test_/);
    const rolled = await ctx.request(`/manage/v1/api_keys/${made.body.id}/roll`, { key: owner, body: { expires_in_seconds: 600 } });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ type: 'publishable', name: 'Storefront', key: expect.stringMatching(/^pk_test_/) });
    const revoked = await ctx.request(`/manage/v1/api_keys/${rolled.body.id}`, { method: 'DELETE', key: owner });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: rolled.body.id, key: rolled.body.key, revoked_at: expect.any(String) });
    const listed = await list('test', '?type=publishable&limit=100');
    expect(listed.find((k) => k.id === made.body.id)).toMatchObject({ key: made.body.key, expires_at: expect.any(String) });
    expect(listed.find((k) => k.id === rolled.body.id)).toMatchObject({ key: rolled.body.key, revoked_at: expect.any(String) });
  });

  it('answers 400 naming type for a type that is not secret or publishable', async () => {
    expectError(await ctx.request(`${keysPath('test')}?type=restricted`, { key: owner }), 400, 'invalid_request', 'type');
  });
});

describe('revoking', () => {
  it('stops the key at once', async () => {
    const { id, key } = await newSecretKey();
    expect((await ctx.request('/v1/marketplace', { key })).status).toBe(200);
    const revoked = await ctx.request(`/manage/v1/api_keys/${id}`, { method: 'DELETE', key: owner });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id, revoked_at: new Date(clock.nowMs()).toISOString(), key: null });
    expectError(await ctx.request('/v1/marketplace', { key }), 401, 'api_key_invalid');
    expectError(await ctx.request(`/manage/v1/api_keys/${id}`, { method: 'DELETE', key: owner }), 409, 'invalid_state');
    expectError(await ctx.request(`/manage/v1/api_keys/${id}/roll`, { key: owner, body: { expires_in_seconds: 60 } }), 409, 'invalid_state');
  });
});

describe('rolling', () => {
  it('makes a key of the same type and name; the old one works until its expiry', async () => {
    const old = await newSecretKey();
    const rolled = await ctx.request(`/manage/v1/api_keys/${old.id}/roll`, { key: owner, body: { expires_in_seconds: 3600 } });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ type: 'secret', name: 'Server', mode: 'test', expires_at: null });
    expect(rolled.body.id).not.toBe(old.id);
    const list = await ctx.request(keysPath('test'), { key: owner });
    expect(list.body.data.find((k: { id: string; expires_at: string }) => k.id === old.id).expires_at).toBe(new Date(clock.nowMs() + 3_600_000).toISOString());

    clock.advance(3_599_000);
    expect((await ctx.request('/v1/marketplace', { key: old.key })).status).toBe(200);
    clock.advance(1000);
    expectError(await ctx.request('/v1/marketplace', { key: old.key }), 401, 'api_key_invalid');
    expect((await ctx.request('/v1/marketplace', { key: rolled.body.key })).status).toBe(200);
    expectError(await ctx.request(`/manage/v1/api_keys/${old.id}/roll`, { key: owner, body: { expires_in_seconds: 0 } }), 409, 'invalid_state');
  });

  it('with 0 seconds stops the old key at once; a rolled key cannot be rolled again', async () => {
    const old = await newSecretKey();
    const rolled = await ctx.request(`/manage/v1/api_keys/${old.id}/roll`, { key: owner, body: { expires_in_seconds: 0 } });
    expect(rolled.status).toBe(201);
    expectError(await ctx.request('/v1/marketplace', { key: old.key }), 401, 'api_key_invalid');
    const pending = await newSecretKey();
    await ctx.request(`/manage/v1/api_keys/${pending.id}/roll`, { key: owner, body: { expires_in_seconds: 600 } });
    expectError(await ctx.request(`/manage/v1/api_keys/${pending.id}/roll`, { key: owner, body: { expires_in_seconds: 60 } }), 409, 'invalid_state');
  });

  it.each([[{ expires_in_seconds: 604_801 }], [{ expires_in_seconds: -1 }], [{ expires_in_seconds: 1.5 }], [{}]])(
    'answers 400 for %j',
    async (body) => {
      const { id } = await newSecretKey();
      expectError(await ctx.request(`/manage/v1/api_keys/${id}/roll`, { key: owner, body }), 400, 'invalid_request', 'expires_in_seconds');
    },
  );

  it('answers 404 for unknown keys and keys of other workspaces', async () => {
    expectError(await ctx.request('/manage/v1/api_keys/key_01jd0000000000000000000000', { method: 'DELETE', key: owner }), 404, 'resource_missing', 'id');
    expectError(await ctx.request('/manage/v1/api_keys/nonsense/roll', { key: owner, body: { expires_in_seconds: 0 } }), 404, 'resource_missing', 'id');
    const { id } = await newSecretKey();
    const stranger = await ctx.request('/manage/v1/signup', { key: null, body: { email: uniqueEmail('stranger'), password: PASSWORD, workspace_name: 'Other' } });
    expectError(await ctx.request(`/manage/v1/api_keys/${id}`, { method: 'DELETE', key: stranger.body.token }), 404, 'resource_missing', 'id');
    expectError(await ctx.request(keysPath('test'), { key: stranger.body.token }), 404, 'resource_missing', 'id');
  });
});
