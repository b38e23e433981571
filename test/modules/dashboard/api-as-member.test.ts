// /v1 with the dashboard session: the signed-in member acts on a marketplace's mode without an API key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectError, memberToken, ownerToken, PASSWORD, uniqueEmail } from '../accounts/manage-helpers.js';
import { asBrowser, dashboardHeaders, logIn, type BrowserSession } from './helpers.js';

let ctx: TestContext;
let owner: BrowserSession;
let viewer: BrowserSession;
let developer: BrowserSession;
beforeAll(async () => {
  ctx = await startTestApp();
  owner = await logIn(ctx, ctx.owner);
  const token = await ownerToken(ctx);
  viewer = await logIn(ctx, { email: (await memberToken(ctx, token, 'viewer')).email, password: PASSWORD });
  developer = await logIn(ctx, { email: (await memberToken(ctx, token, 'developer')).email, password: PASSWORD });
});
afterAll(() => ctx.close());

const seller = () => ({ external_id: `ext_${Math.random().toString(36).slice(2)}`, name: 'Ada Lovelace', email: 'ada@example.com' });

describe('/v1 as the signed-in member', () => {
  it.each(['test', 'live'] as const)('reads and writes the %s mode like its secret key', async (mode) => {
    const headers = dashboardHeaders(ctx.marketplaceId, mode);
    const marketplace = await asBrowser(ctx, owner, '/v1/marketplace', { headers, csrf: false });
    expect(marketplace.status).toBe(200);
    expect(marketplace.body).toMatchObject({ object: 'marketplace', id: ctx.marketplaceId, livemode: mode === 'live' });
    const created = await asBrowser(ctx, owner, '/v1/sellers', { headers, body: seller() });
    expect(created.status).toBe(201);
    // The object belongs to that mode: its secret key sees it, the other mode's does not.
    expect((await ctx.request(`/v1/sellers/${created.body.id}`, { key: ctx.keys[mode].secret_key })).status).toBe(200);
    const other = mode === 'test' ? 'live' : 'test';
    expect((await ctx.request(`/v1/sellers/${created.body.id}`, { key: ctx.keys[other].secret_key })).status).toBe(404);
  });

  it('refuses a change without the CSRF token (403 csrf_token_invalid)', async () => {
    const headers = dashboardHeaders(ctx.marketplaceId, 'test');
    expectError(await asBrowser(ctx, owner, '/v1/sellers', { headers, body: seller(), csrf: false }), 403, 'csrf_token_invalid', 'X-CSRF-Token');
  });

  it('runs test helpers in test mode only', async () => {
    const advanced = await asBrowser(ctx, developer, '/v1/test_helpers/clock/advance', {
      headers: dashboardHeaders(ctx.marketplaceId, 'test'),
      body: { seconds: 60 },
    });
    expect(advanced.status).toBe(200);
    const live = await asBrowser(ctx, developer, '/v1/test_helpers/clock/advance', {
      headers: dashboardHeaders(ctx.marketplaceId, 'live'),
      body: { seconds: 60 },
    });
    expectError(live, 403, 'test_mode_only');
  });

  it('lets a viewer read, and refuses every change with 403 permission_denied naming the role', async () => {
    const headers = dashboardHeaders(ctx.marketplaceId, 'test');
    expect((await asBrowser(ctx, viewer, '/v1/sellers', { headers })).status).toBe(200);
    expect((await asBrowser(ctx, viewer, '/v1/events', { headers })).status).toBe(200);
    const refused = await asBrowser(ctx, viewer, '/v1/sellers', { headers, body: seller() });
    expectError(refused, 403, 'permission_denied');
    expect(refused.body.error.message).toContain('viewer');
    // A developer may.
    expect((await asBrowser(ctx, developer, '/v1/sellers', { headers, body: seller() })).status).toBe(201);
  });

  it("bounds the management API by the member's role too", async () => {
    const url = `/manage/v1/marketplaces/${ctx.marketplaceId}/modes/test/settings`;
    expect((await asBrowser(ctx, viewer, url)).status).toBe(200);
    expectError(await asBrowser(ctx, viewer, url, { method: 'PATCH', body: { rate_limit_per_second: 10000 } }), 403, 'permission_denied');
  });

  it('stops at once when the member is removed from the workspace', async () => {
    const token = await ownerToken(ctx);
    const leaving = await memberToken(ctx, token, 'developer');
    const session = await logIn(ctx, { email: leaving.email, password: PASSWORD });
    const headers = dashboardHeaders(ctx.marketplaceId, 'test');
    expect((await asBrowser(ctx, session, '/v1/marketplace', { headers })).status).toBe(200);
    expect((await ctx.request(`/manage/v1/members/${leaving.userId}`, { key: token, method: 'DELETE' })).status).toBe(200);
    expectError(await asBrowser(ctx, session, '/v1/marketplace', { headers }), 404, 'resource_missing', 'Dashboard-Marketplace');
  });

  it('answers a marketplace of another workspace as missing', async () => {
    const stranger = { email: uniqueEmail('stranger'), password: PASSWORD };
    expect((await ctx.request('/manage/v1/signup', { key: null, body: { ...stranger, workspace_name: 'Elsewhere' } })).status).toBe(201);
    const session = await logIn(ctx, stranger);
    const res = await asBrowser(ctx, session, '/v1/marketplace', { headers: dashboardHeaders(ctx.marketplaceId, 'test') });
    expectError(res, 404, 'resource_missing', 'Dashboard-Marketplace');
    const unknown = await asBrowser(ctx, owner, '/v1/marketplace', { headers: dashboardHeaders('mkt_nope', 'test') });
    expectError(unknown, 404, 'resource_missing', 'Dashboard-Marketplace');
  });

  it('needs the marketplace and a mode named; without the cookie it is a request without a key', async () => {
    expectError(await asBrowser(ctx, owner, '/v1/marketplace', { headers: { 'dashboard-mode': 'test' } }), 400, 'invalid_request', 'Dashboard-Marketplace');
    const badMode = await asBrowser(ctx, owner, '/v1/marketplace', { headers: { 'dashboard-marketplace': ctx.marketplaceId, 'dashboard-mode': 'prod' } });
    expectError(badMode, 400, 'invalid_request', 'Dashboard-Mode');
    expectError(await ctx.request('/v1/marketplace', { key: null, headers: dashboardHeaders(ctx.marketplaceId, 'test') }), 401, 'api_key_missing');
    const ended = await ctx.request('/v1/marketplace', { key: null, headers: { ...dashboardHeaders(ctx.marketplaceId, 'test'), cookie: 'mb_session=mbs_' + 'a'.repeat(40) } });
    expectError(ended, 401, 'authentication_required');
  });

  it('uses the Authorization header when there is one: a key decides, not the cookie', async () => {
    const res = await ctx.request('/v1/marketplace', {
      key: ctx.keys.live.secret_key,
      headers: { cookie: owner.cookie, ...dashboardHeaders(ctx.marketplaceId, 'test') },
    });
    expect(res.status).toBe(200);
    expect(res.body.livemode).toBe(true);
  });

  it('honours Idempotency-Key, kept per marketplace and mode', async () => {
    const headers = { ...dashboardHeaders(ctx.marketplaceId, 'test'), 'idempotency-key': 'dashboard-seller-1' };
    const body = seller();
    const first = await asBrowser(ctx, owner, '/v1/sellers', { headers, body });
    const again = await asBrowser(ctx, developer, '/v1/sellers', { headers, body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    // The same key sent with the mode's secret key is the same key.
    const withKey = await ctx.request('/v1/sellers', { headers: { 'idempotency-key': 'dashboard-seller-1' }, body });
    expect(withKey.body.id).toBe(first.body.id);
  });

  it("rate-limits the mode's dashboard requests in a bucket of their own", async () => {
    await ctx.db.query(
      `UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '1') WHERE marketplace_id = $1 AND mode = 'live'`,
      [ctx.marketplaceId],
    );
    ctx.services.apiKeys.invalidate();
    const headers = dashboardHeaders(ctx.marketplaceId, 'live');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await asBrowser(ctx, owner, '/v1/marketplace', { headers }));
    expect(answers.map((res) => res.status)).toContain(429);
    expect(answers.find((res) => res.status === 429)!.headers['retry-after']).toBeDefined();
    // The live secret key keeps its own bucket.
    expect((await ctx.request('/v1/marketplace', { key: ctx.keys.live.secret_key })).status).toBe(200);
    await ctx.db.query(
      `UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '10000') WHERE marketplace_id = $1 AND mode = 'live'`,
      [ctx.marketplaceId],
    );
    ctx.services.apiKeys.invalidate();
  });

  it('keeps the billing read-only rules of keys', async () => {
    await ctx.db.query(`UPDATE workspaces SET billing_state = 'payment_missed' WHERE id = $1`, [ctx.workspaceId]);
    try {
      const live = dashboardHeaders(ctx.marketplaceId, 'live');
      expectError(await asBrowser(ctx, owner, '/v1/sellers', { headers: live, body: seller() }), 403, 'marketplace_read_only');
      expect((await asBrowser(ctx, owner, '/v1/sellers', { headers: live })).status).toBe(200);
      expect((await asBrowser(ctx, owner, '/v1/sellers', { headers: dashboardHeaders(ctx.marketplaceId, 'test'), body: seller() })).status).toBe(201);
    } finally {
      await ctx.db.query(`UPDATE workspaces SET billing_state = 'active' WHERE id = $1`, [ctx.workspaceId]);
    }
  });

  it('does not let other origins send the dashboard headers', async () => {
    const listing = await ctx.request('/v1/listings', { body: { seller: (await ctx.request('/v1/sellers', { body: seller() })).body.id, title: 'Desk', price: { amount: 100, currency: 'USD' } } });
    expect(listing.status).toBe(201);
    const preflight = await ctx.request(`/v1/listings/${listing.body.id}`, { method: 'OPTIONS', key: null });
    expect(preflight.status).toBe(204);
    expect(String(preflight.headers['access-control-allow-headers'])).not.toMatch(/dashboard|csrf/i);
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('finds the session cookie among other cookies, read where it authenticates (no cookie hook runs on /v1)', async () => {
    const headers = dashboardHeaders(ctx.marketplaceId, 'test');
    const mixed = { ...owner, cookie: `theme=dark; ${owner.cookie} ; other=%E2%9C%93` };
    const res = await asBrowser(ctx, mixed, '/v1/marketplace', { headers, csrf: false });
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    // With a key and a cookie, the key decides, and /v1 never writes a cookie.
    const keyed = await ctx.request('/v1/marketplace', { headers: { cookie: owner.cookie } });
    expect(keyed.status).toBe(200);
    expect(keyed.headers['set-cookie']).toBeUndefined();
    // A cookie of another name is no session: the request has no credential.
    expectError(await asBrowser(ctx, { ...owner, cookie: 'mb_session_old=x' }, '/v1/marketplace', { headers, csrf: false }), 401, 'api_key_missing');
  });
});
