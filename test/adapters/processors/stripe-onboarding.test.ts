// Seller onboarding in a mode connected to Stripe, through the API: the service (STRIPE_API_URL
// pointing the real SDK at the fake Stripe server) opens the seller's account once and answers
// Stripe's hosted onboarding link.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSeller, storedEvents } from '../../helpers/factories.js';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { ownerToken } from '../../modules/accounts/manage-helpers.js';

let fake: FakeStripe;
let ctx: TestContext;
let live: string;
beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await startTestApp({ env: { STRIPE_API_URL: fake.url } });
  live = ctx.keys.live.secret_key;
  const put = await ctx.request(`/manage/v1/marketplaces/${ctx.marketplaceId}/modes/live/processor`, {
    method: 'PUT',
    key: await ownerToken(ctx),
    body: { provider: 'stripe', secret_key: 'sk_live_51OnboardingTestKey000000000', webhook_secret: 'whsec_OnboardingTestSecret000000' },
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  expect(fake.violations).toEqual([]);
});

const urls = { return_url: 'https://platform.example/done', refresh_url: 'https://platform.example/retry' };

describe('onboarding with Stripe', () => {
  it("answers Stripe's account link and records the new account; a second link reuses the account", async () => {
    const seller = await createSeller(ctx, {}, live);
    const res = await ctx.request(`/v1/sellers/${seller.id}/onboarding_links`, { body: urls, key: live });
    expect(res.status, res.text).toBe(201);
    const account = fake.requestsOf('accounts').at(-1)!;
    expect(account.idempotencyKey).toBe(`seller-account-${seller.id}`);
    expect(account.params.metadata).toEqual({ seller: seller.id });
    const accountId = [...fake.objects.values()].find((o) => o.object === 'account' && (o.metadata as Record<string, string>).seller === seller.id)!.id;
    expect(res.body.url).toMatch(new RegExp(`^${fake.url}/setup/e/${accountId}/`));
    expect(fake.requestsOf('account_links').at(-1)).toMatchObject({
      idempotencyKey: `onboarding-link-${res.body.id}`,
      params: { account: accountId, type: 'account_onboarding', ...urls },
    });
    const after = await ctx.request(`/v1/sellers/${seller.id}`, { key: live });
    expect(after.body.payouts).toEqual({ status: 'pending', processor_account: accountId });
    const accounts = fake.count('accounts');

    const second = await ctx.request(`/v1/sellers/${seller.id}/onboarding_links`, { body: urls, key: live });
    expect(second.status).toBe(201);
    expect(second.body.url).not.toBe(res.body.url);
    expect(fake.count('accounts')).toBe(accounts);
    expect(fake.requestsOf('account_links').at(-1)!.params.account).toBe(accountId);
    const events = await storedEvents(ctx, seller.id);
    expect(events.map((e) => e.type)).toEqual(['seller.created', 'seller.payouts_updated']);
  });

  it('answers 502 processor_error with what Stripe said when it refuses, and records nothing', async () => {
    const seller = await createSeller(ctx, {}, live);
    fake.failNext('accounts', { status: 400, code: 'platform_not_enabled', message: 'Your platform is not enabled for Connect.' });
    const refused = await ctx.request(`/v1/sellers/${seller.id}/onboarding_links`, { body: urls, key: live });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('processor_error');
    expect(refused.body.error.message).toContain('not enabled for Connect');
    expect((await ctx.request(`/v1/sellers/${seller.id}`, { key: live })).body.payouts.status).toBe('not_started');
    fake.failNext('accounts', { drop: true, times: 2 });
    const unreachable = await ctx.request(`/v1/sellers/${seller.id}/onboarding_links`, { body: urls, key: live });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.error.message).toContain('could not be reached');
    const retried = await ctx.request(`/v1/sellers/${seller.id}/onboarding_links`, { body: urls, key: live });
    expect(retried.status, retried.text).toBe(201);
  });
});
