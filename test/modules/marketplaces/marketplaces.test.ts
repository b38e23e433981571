import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { emailedToken, expectError, memberToken, ownerToken, PASSWORD, uniqueEmail } from '../accounts/manage-helpers.js';

let ctx: TestContext;
let owner: string;
beforeAll(async () => {
  ctx = await startTestApp();
  owner = await ownerToken(ctx);
});
afterAll(() => ctx.close());

describe('POST /manage/v1/marketplaces', () => {
  it('creates a marketplace whose four keys work on /v1, test mode on the simulated processor', async () => {
    const res = await ctx.request('/manage/v1/marketplaces', { key: owner, body: { name: 'Vintage Finds', currency: 'eur' } });
    expect(res.status).toBe(201);
    expect(res.body.marketplace).toMatchObject({ object: 'marketplace', name: 'Vintage Finds', currency: 'EUR', workspace: ctx.workspaceId });
    const { test, live } = res.body.api_keys;
    expect(test.secret_key).toMatch(/^sk_test_/);
    expect(test.publishable_key).toMatch(/^pk_test_/);
    expect(live.secret_key).toMatch(/^sk_live_/);
    expect(live.publishable_key).toMatch(/^pk_live_/);
    const viaLive = await ctx.request('/v1/marketplace', { key: live.secret_key });
    expect(viaLive.body).toMatchObject({ id: res.body.marketplace.id, currency: 'EUR', livemode: true });
    const processor = await ctx.request(`/manage/v1/marketplaces/${res.body.marketplace.id}/modes/test/processor`, { key: owner });
    expect(processor.body.provider).toBe('simulated');
    expectError(await ctx.request(`/manage/v1/marketplaces/${res.body.marketplace.id}/modes/live/processor`, { key: owner }), 404, 'resource_missing');
  });

  it.each([
    [{ name: 'A', currency: 'XYZ' }, 'currency'],
    [{ name: 'A', currency: 'US' }, 'currency'],
    [{ name: 'x'.repeat(121), currency: 'USD' }, 'name'],
    [{ name: '   ', currency: 'USD' }, 'name'],
    [{ currency: 'USD' }, 'name'],
    [{ name: 'A', currency: 'USD', live: true }, 'live'],
  ])('answers 400 for %j', async (body, param) => {
    expectError(await ctx.request('/manage/v1/marketplaces', { key: owner, body }), 400, 'invalid_request', param);
  });

  it('needs the owner or admin role', async () => {
    const developer = await memberToken(ctx, owner, 'developer');
    const admin = await memberToken(ctx, owner, 'admin');
    expectError(await ctx.request('/manage/v1/marketplaces', { key: developer.token, body: { name: 'D', currency: 'USD' } }), 403, 'permission_denied');
    expect((await ctx.request('/manage/v1/marketplaces', { key: admin.token, body: { name: 'A', currency: 'USD' } })).status).toBe(201);
  });
});

describe('GET /manage/v1/marketplaces', () => {
  it('lists the workspace marketplaces newest first, page by page', async () => {
    const first = await ctx.request('/manage/v1/marketplaces?limit=1', { key: owner });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    expect(first.body.data).toHaveLength(1);
    const all = await ctx.request('/manage/v1/marketplaces', { key: owner });
    expect(all.body.data.map((m: { id: string }) => m.id)).toContain(ctx.marketplaceId);
    expect(all.body.data[0].id).toBe(first.body.data[0].id);
    const second = await ctx.request(`/manage/v1/marketplaces?limit=1&starting_after=${first.body.next_cursor}`, { key: owner });
    expect(second.body.data[0].id).toBe(all.body.data[1].id);
    expectError(await ctx.request('/manage/v1/marketplaces?starting_after=usr_x', { key: owner }), 400, 'invalid_request', 'starting_after');
  });

  it('retrieves one, and answers 404 for another workspace\'s marketplace', async () => {
    const mine = await ctx.request(`/manage/v1/marketplaces/${ctx.marketplaceId}`, { key: owner });
    expect(mine.body).toMatchObject({ object: 'marketplace', id: ctx.marketplaceId, currency: 'USD' });
    const stranger = await ctx.request('/manage/v1/signup', { key: null, body: { email: uniqueEmail('stranger'), password: PASSWORD, workspace_name: 'Other' } });
    expectError(await ctx.request(`/manage/v1/marketplaces/${ctx.marketplaceId}`, { key: stranger.body.token }), 404, 'resource_missing', 'id');
    const theirs = await ctx.request('/manage/v1/marketplaces', { key: stranger.body.token });
    expect(theirs.body.data).toEqual([]);
  });
});

describe('choosing a workspace', () => {
  it('asks a member of several workspaces to name one, and refuses workspaces they are not in', async () => {
    const other = await ctx.request('/manage/v1/signup', { key: null, body: { email: uniqueEmail('multi'), password: PASSWORD, workspace_name: 'Second' } });
    const added = await ctx.request('/manage/v1/members', { key: owner, body: { email: other.body.user.email, role: 'admin' } });
    expect(added.status).toBe(201);
    const token = other.body.token;
    const joined = await ctx.request('/manage/v1/invitations/join', { key: token, body: { token: await emailedToken(ctx, other.body.user.email) } });
    expect(joined.status).toBe(200);
    expectError(await ctx.request('/manage/v1/marketplaces', { key: token }), 400, 'invalid_request', 'workspace');
    const named = await ctx.request(`/manage/v1/marketplaces?workspace=${ctx.workspaceId}`, { key: token });
    expect(named.body.data.map((m: { id: string }) => m.id)).toContain(ctx.marketplaceId);
    const own = await ctx.request(`/manage/v1/marketplaces?workspace=${other.body.workspace.id}`, { key: token });
    expect(own.body.data).toEqual([]);
    expectError(await ctx.request('/manage/v1/marketplaces?workspace=wsp_01jd0000000000000000000000', { key: token }), 404, 'resource_missing', 'workspace');
    const created = await ctx.request(`/manage/v1/marketplaces?workspace=${other.body.workspace.id}`, { key: token, body: { name: 'Mine', currency: 'GBP' } });
    expect(created.body.marketplace.workspace).toBe(other.body.workspace.id);
  });
});
