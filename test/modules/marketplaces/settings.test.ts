import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { expectError, memberToken, ownerToken } from '../accounts/manage-helpers.js';

let ctx: TestContext;
let owner: string;
let path: (mode: string) => string;
beforeAll(async () => {
  ctx = await startTestApp();
  owner = await ownerToken(ctx);
  path = (mode) => `/manage/v1/marketplaces/${ctx.marketplaceId}/modes/${mode}/settings`;
});
afterAll(() => ctx.close());

describe('GET /manage/v1/marketplaces/{id}/modes/{mode}/settings', () => {
  it('answers the mode\'s settings', async () => {
    const res = await ctx.request(path('live'), { key: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'settings',
      marketplace: ctx.marketplaceId,
      mode: 'live',
      payments_enabled: false,
      platform_fee: { percent_bps: 0, fixed_amount: 0 },
      claim_window_seconds: 7 * 86400,
    });
    expectError(await ctx.request(path('staging'), { key: owner }), 400, 'invalid_request', 'mode');
    expectError(await ctx.request('/manage/v1/marketplaces/mkt_01jd0000000000000000000000/modes/test/settings', { key: owner }), 404, 'resource_missing', 'id');
  });
});

describe('PATCH /manage/v1/marketplaces/{id}/modes/{mode}/settings', () => {
  it('merges the fields sent, replaces platform_fee whole, and shows at once on /v1', async () => {
    const first = await ctx.request(path('test'), {
      method: 'PATCH',
      key: owner,
      body: { payments_enabled: true, platform_fee: { percent_bps: 250, fixed_amount: 30 }, prohibited_words: ['replica'] },
    });
    expect(first.status).toBe(200);
    const second = await ctx.request(path('test'), { method: 'PATCH', key: owner, body: { platform_fee: { percent_bps: 100, fixed_amount: 0 } } });
    expect(second.body).toMatchObject({ payments_enabled: true, platform_fee: { percent_bps: 100, fixed_amount: 0 }, prohibited_words: ['replica'] });
    const viaApi = await ctx.request('/v1/marketplace');
    expect(viaApi.body.settings).toMatchObject({ payments_enabled: true, platform_fee: { percent_bps: 100, fixed_amount: 0 } });
    const live = await ctx.request(path('live'), { key: owner });
    expect(live.body.payments_enabled).toBe(false);
  });

  it.each([
    [{ platform_fee: { percent_bps: 10_001, fixed_amount: 0 } }, 'platform_fee.percent_bps'],
    [{ platform_fee: { percent_bps: 100 } }, 'platform_fee.fixed_amount'],
    [{ payment_window_seconds: -1 }, 'payment_window_seconds'],
    [{ rate_limit_per_second: 0 }, 'rate_limit_per_second'],
    [{ payments_enabled: 'true' }, 'payments_enabled'],
    [{ prohibited_words: ['ok', ''] }, 'prohibited_words[1]'],
    [{ checkout_success_url: 'javascript:alert(1)' }, 'checkout_success_url'],
    [{ colour: 'blue' }, 'colour'],
  ])('answers 400 for %j', async (body, param) => {
    expectError(await ctx.request(path('test'), { method: 'PATCH', key: owner, body }), 400, 'invalid_request', param);
  });

  it('lets developers change settings and viewers only read them', async () => {
    const developer = await memberToken(ctx, owner, 'developer');
    const viewer = await memberToken(ctx, owner, 'viewer');
    const body = { checkout_success_url: 'https://shop.example.com/thanks' };
    expect((await ctx.request(path('test'), { method: 'PATCH', key: developer.token, body })).status).toBe(200);
    expect((await ctx.request(path('test'), { key: viewer.token })).body.checkout_success_url).toBe(body.checkout_success_url);
    expectError(await ctx.request(path('test'), { method: 'PATCH', key: viewer.token, body }), 403, 'permission_denied');
  });
});
