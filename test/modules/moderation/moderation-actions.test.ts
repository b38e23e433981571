// Moderation actions: applied directly (POST /v1/moderation_actions), listed and retrieved as the
// platform's audit log; a listing left published in a category that became prohibited is taken
// down this way. The log keeps its reasons after the target's seller is erased.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_TARGET_TYPE } from '../../../src/contracts/moderation.js';
import { createCategory, createPublishedListing, createSeller, storedEvents, suspendSeller, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { orderHelpers } from '../orders/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const orders = orderHelpers(() => ctx);
const act = (body: Record<string, unknown>) => ctx.request('/v1/moderation_actions', { body });
/** A target the action can be taken on now (a seller to unsuspend is suspended first). */
async function agreeingTarget(action: string): Promise<{ action: string; target: string }> {
  if (action === 'remove_listing') return { action, target: (await createPublishedListing(ctx)).id };
  const seller = await createSeller(ctx);
  if (action === 'suspend_seller') return { action, target: seller.id };
  if (action === 'unsuspend_seller') return { action, target: (await suspendSeller(ctx, seller.id)).id };
  // remove_review: a review by the buyer of a completed order.
  const o = await orders.order();
  await orders.post(`/v1/orders/${o.order.id}/claim`, { actor: o.seller.id });
  await orders.post(`/v1/orders/${o.order.id}/confirm`, { actor: o.buyer.id });
  const review = await orders.post(`/v1/orders/${o.order.id}/reviews`, { actor: o.buyer.id, rating: 2 });
  expect(review.status, review.text).toBe(201);
  return { action, target: review.body.id };
}

const eventTypes = async (id: string) => (await storedEvents(ctx, id)).map((e) => e.type);

describe('POST /v1/moderation_actions', () => {
  it('takes down a listing left published in a category that became prohibited', async () => {
    const category = await createCategory(ctx);
    const listing = await createPublishedListing(ctx, { category: category.id });
    const patched = await ctx.request(`/v1/categories/${category.id}`, { method: 'PATCH', body: { prohibited: true } });
    expect(patched.status, patched.text).toBe(200);
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe('published');

    const res = await act({ action: 'remove_listing', target: listing.id, reason: 'The category is now prohibited.' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      object: 'moderation_action',
      id: expect.stringMatching(/^mda_/),
      action: 'remove_listing',
      target_type: 'listing',
      target: listing.id,
      reason: 'The category is now prohibited.',
      flag: null,
      created_at: expect.any(String),
    });
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body).toMatchObject({
      status: 'removed',
      removed_reason: 'The category is now prohibited.',
    });
    expect((await eventTypes(listing.id)).at(-1)).toBe('listing.removed');
    const events = await storedEvents(ctx, res.body.id);
    expect(events.map((e) => e.type)).toEqual(['moderation_action.created']);
    expect(events[0]!.data.object).toEqual(res.body);
    expect((await ctx.request(`/v1/moderation_actions/${res.body.id}`)).body).toEqual(res.body);
    // It stays down: publishing is refused, by state (and by the prohibited category).
    const republish = await ctx.request(`/v1/listings/${listing.id}/publish`, { method: 'POST' });
    expect(republish.status).toBe(409);
  });

  it("resolves the target's open flags with the action; a dismissed flag stays as it was", async () => {
    const listing = await createPublishedListing(ctx);
    const dismissed = (await ctx.request('/v1/flags', { body: { target_type: 'listing', target: listing.id, reason: 'spam' } })).body;
    await ctx.request(`/v1/flags/${dismissed.id}/resolve`, { body: { action: 'dismiss' } });
    const open = (await ctx.request('/v1/flags', { body: { target_type: 'listing', target: listing.id, reason: 'fraud' } })).body;
    const res = await act({ action: 'remove_listing', target: listing.id, reason: 'Confirmed fraud.' });
    expect(res.status, res.text).toBe(201);
    expect((await ctx.request(`/v1/flags/${open.id}`)).body).toMatchObject({
      status: 'resolved',
      resolution: { action: 'remove_listing', note: null, moderation_action: res.body.id },
    });
    expect(await eventTypes(open.id)).toEqual(['flag.created', 'flag.resolved']);
    expect((await ctx.request(`/v1/flags/${dismissed.id}`)).body.resolution).toMatchObject({ action: 'dismiss', moderation_action: null });
  });

  it('suspends and unsuspends a seller: the existing suspension, each recorded; unsuspending resolves no flag', async () => {
    const seller = await createSeller(ctx);
    const suspend = await act({ action: 'suspend_seller', target: seller.id, reason: 'Chargebacks.' });
    expect(suspend.status, suspend.text).toBe(201);
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body).toMatchObject({ status: 'suspended', suspended_reason: 'Chargebacks.' });
    const flagged = (await ctx.request('/v1/flags', { body: { target_type: 'seller', target: seller.id, reason: 'fraud' } })).body;
    const unsuspend = await act({ action: 'unsuspend_seller', target: seller.id, reason: 'Appeal accepted.' });
    expect(unsuspend.status, unsuspend.text).toBe(201);
    expect(unsuspend.body).toMatchObject({ action: 'unsuspend_seller', target_type: 'seller', flag: null });
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body).toMatchObject({ status: 'active', suspended_reason: null });
    expect((await eventTypes(seller.id)).slice(-2)).toEqual(['seller.suspended', 'seller.unsuspended']);
    expect((await ctx.request(`/v1/flags/${flagged.id}`)).body.status).toBe('open');
  });

  it('answers 409 invalid_state when the target cannot make the change, and records nothing', async () => {
    const seller = await createSeller(ctx);
    const unsuspend = await act({ action: 'unsuspend_seller', target: seller.id, reason: 'Nothing to lift.' });
    expect(unsuspend.status).toBe(409);
    expect(unsuspend.body.error.code).toBe('invalid_state');
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    const erased = await act({ action: 'suspend_seller', target: seller.id, reason: 'Too late.' });
    expect(erased.status).toBe(409);
    expect((await ctx.request(`/v1/moderation_actions?target=${seller.id}`)).body.data).toEqual([]);
  });

  it('answers 404 naming target for a target of another type or scope', async () => {
    const seller = await createSeller(ctx);
    const listing = await createPublishedListing(ctx);
    const cases = [
      { action: 'remove_listing', target: seller.id },
      { action: 'suspend_seller', target: listing.id },
      { action: 'remove_listing', target: 'lst_01jd2b7v8k0000000000000000' },
      { action: 'remove_review', target: 'rev_01jd2b7v8k0000000000000000' },
    ];
    for (const body of cases) {
      const res = await act({ ...body, reason: 'Checked.' });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'target' });
    }
    const live = await createSeller(ctx, {}, ctx.keys.live.secret_key);
    expect((await act({ action: 'suspend_seller', target: live.id, reason: 'Checked.' })).status).toBe(404);
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe('published');
  });

  it('takes target_type when it agrees with the action (the one table of actions), answering the same object', async () => {
    for (const [action, type] of Object.entries(ACTION_TARGET_TYPE)) {
      const body = await agreeingTarget(action);
      const res = await act({ ...body, target_type: type, reason: 'Typed.' });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ action, target_type: type, target: body.target });
    }
  });

  it('refuses a target_type that disagrees with the action, or is no target type, with 400 naming target_type, and changes nothing', async () => {
    const listing = await createPublishedListing(ctx);
    const seller = await createSeller(ctx);
    for (const body of [
      { action: 'remove_listing', target_type: 'seller', target: listing.id },
      { action: 'remove_listing', target_type: 'review', target: listing.id },
      { action: 'suspend_seller', target_type: 'buyer', target: seller.id },
      { action: 'suspend_seller', target_type: 'order', target: seller.id },
    ]) {
      const res = await act({ ...body, reason: 'Mistyped.' });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'target_type' });
    }
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe('published');
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.status).toBe('active');
    for (const target of [listing.id, seller.id]) {
      expect((await ctx.request(`/v1/moderation_actions?target=${target}`)).body.data).toEqual([]);
    }
  });

  it('refuses an unknown action, a missing or blank reason with 400 naming the field', async () => {
    const seller = await createSeller(ctx);
    for (const [body, param] of [
      [{ action: 'delete_seller', target: seller.id, reason: 'x' }, 'action'],
      [{ action: 'suspend_seller', target: seller.id }, 'reason'],
      [{ action: 'suspend_seller', target: seller.id, reason: '   ' }, 'reason'],
    ] as const) {
      const res = await act(body);
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe(param);
    }
  });
});

describe('GET /v1/moderation_actions', () => {
  it('lists the log newest first, by target, the suspend route and flag resolutions included, and pages', async () => {
    const seller = await createSeller(ctx);
    await suspendSeller(ctx, seller.id, 'First strike.');
    const lifted = (await act({ action: 'unsuspend_seller', target: seller.id, reason: 'Appeal.' })).body;
    const flagged = (await ctx.request('/v1/flags', { body: { target_type: 'seller', target: seller.id, reason: 'fraud' } })).body;
    const resolved = (await ctx.request(`/v1/flags/${flagged.id}/resolve`, { body: { action: 'suspend_seller', note: 'Second strike.' } })).body;

    const log = (await ctx.request(`/v1/moderation_actions?target=${seller.id}`)).body;
    expect(log.data.map((a: Json) => [a.action, a.reason, a.flag])).toEqual([
      ['suspend_seller', 'Second strike.', flagged.id],
      ['unsuspend_seller', 'Appeal.', null],
      ['suspend_seller', 'First strike.', null],
    ]);
    expect(log.data[0].id).toBe(resolved.resolution.moderation_action);
    expect(log.data[1].id).toBe(lifted.id);

    const page = (await ctx.request(`/v1/moderation_actions?target=${seller.id}&limit=2`)).body;
    expect(page.has_more).toBe(true);
    const rest = (await ctx.request(`/v1/moderation_actions?target=${seller.id}&limit=2&starting_after=${page.next_cursor}`)).body;
    expect(rest.data.map((a: Json) => a.reason)).toEqual(['First strike.']);
    const all = (await ctx.request('/v1/moderation_actions?limit=100')).body;
    expect(all.data.length).toBeGreaterThanOrEqual(3);
  });

  it('keeps every reason after the seller is erased, in the records and in their events', async () => {
    const seller = await createSeller(ctx);
    await suspendSeller(ctx, seller.id, 'Counterfeit goods, case 7.');
    await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' });
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.suspended_reason).toBeNull();
    const log = (await ctx.request(`/v1/moderation_actions?target=${seller.id}`)).body.data;
    expect(log.map((a: Json) => a.reason)).toEqual(['Counterfeit goods, case 7.']);
    expect((await storedEvents(ctx, log[0].id))[0]!.data.object.reason).toBe('Counterfeit goods, case 7.');
  });

  it('answers 404 for an unknown action and 400 for a cursor of another kind', async () => {
    expect((await ctx.request('/v1/moderation_actions/mda_01jd2b7v8k0000000000000000')).status).toBe(404);
    const bad = await ctx.request('/v1/moderation_actions?starting_after=flg_01jd2b7v8k0000000000000000');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('starting_after');
  });
});
