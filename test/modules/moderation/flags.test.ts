// Flags: raised against a listing, review, seller or buyer; listed, retrieved and resolved by
// dismissing them or by the moderation action that fits their target. Review flags run once the
// reviews module registers its target in src/contracts/moderation.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createListing, createPublishedListing, createSeller, storedEvents, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { orderHelpers } from '../orders/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const flag = (body: Record<string, unknown>) => ctx.request('/v1/flags', { body });
const resolve = (id: string, body: Record<string, unknown>) => ctx.request(`/v1/flags/${id}/resolve`, { body });
const eventTypes = async (id: string) => (await storedEvents(ctx, id)).map((e) => e.type);

describe('POST /v1/flags', () => {
  it('creates an open flag on a listing with a reporter and emits flag.created', async () => {
    const listing = await createListing(ctx);
    const buyer = await createBuyer(ctx);
    const res = await flag({ target_type: 'listing', target: listing.id, reporter: buyer.id, reason: 'prohibited_item', description: 'Replica watches.' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      object: 'flag',
      id: expect.stringMatching(/^flg_/),
      target_type: 'listing',
      target: listing.id,
      reporter: buyer.id,
      reason: 'prohibited_item',
      description: 'Replica watches.',
      status: 'open',
      resolution: null,
      created_at: expect.any(String),
      resolved_at: null,
    });
    const events = await storedEvents(ctx, res.body.id);
    expect(events.map((e) => e.type)).toEqual(['flag.created']);
    expect(events[0]!.data.object).toEqual(res.body);
    expect((await ctx.request(`/v1/flags/${res.body.id}`)).body).toEqual(res.body);
  });

  it('takes every reason, any of the registered target types, and no reporter (the platform)', async () => {
    const seller = await createSeller(ctx);
    const buyer = await createBuyer(ctx);
    for (const reason of ['prohibited_item', 'fraud', 'offensive', 'spam', 'other']) {
      const res = await flag({ target_type: 'seller', target: seller.id, reason });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ reason, reporter: null, description: null });
    }
    const onBuyer = await flag({ target_type: 'buyer', target: buyer.id, reporter: seller.id, reason: 'fraud' });
    expect(onBuyer.status, onBuyer.text).toBe(201);
    expect(onBuyer.body).toMatchObject({ target_type: 'buyer', reporter: seller.id });
  });

  it('answers 404 naming target for a target that is not of its type or not in this scope, review ids included', async () => {
    const seller = await createSeller(ctx);
    const cases = [
      { target_type: 'listing', target: seller.id },
      { target_type: 'seller', target: 'sel_01jd2b7v8k0000000000000000' },
      { target_type: 'buyer', target: seller.id },
      { target_type: 'review', target: 'rev_01jd2b7v8k0000000000000000' },
    ];
    for (const body of cases) {
      const res = await flag({ ...body, reason: 'spam' });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'target' });
    }
    const otherMode = await createSeller(ctx, {}, ctx.keys.live.secret_key);
    const res = await flag({ target_type: 'seller', target: otherMode.id, reason: 'spam' });
    expect(res.status).toBe(404);
  });

  it('answers 404 naming reporter for an unknown reporter and 409 invalid_state for an erased one', async () => {
    const seller = await createSeller(ctx);
    for (const reporter of ['byr_01jd2b7v8k0000000000000000', 'sel_01jd2b7v8k0000000000000000', 'lst_01jd2b7v8k0000000000000000']) {
      const res = await flag({ target_type: 'seller', target: seller.id, reporter, reason: 'spam' });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'reporter' });
    }
    const buyer = await createBuyer(ctx);
    await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'DELETE' });
    const erased = await flag({ target_type: 'seller', target: seller.id, reporter: buyer.id, reason: 'spam' });
    expect(erased.status).toBe(409);
    expect(erased.body.error).toMatchObject({ code: 'invalid_state', param: 'reporter' });
  });

  it('refuses an unknown target type or reason with 400 naming the field', async () => {
    const seller = await createSeller(ctx);
    const badType = await flag({ target_type: 'order', target: seller.id, reason: 'spam' });
    expect(badType.status).toBe(400);
    expect(badType.body.error.param).toBe('target_type');
    const badReason = await flag({ target_type: 'seller', target: seller.id, reason: 'ugly' });
    expect(badReason.status).toBe(400);
    expect(badReason.body.error.param).toBe('reason');
  });
});

describe('erasure of the reporter', () => {
  it("nulls the description of the flags it reported, in the row and in every stored event; the flag and its reporter id stay", async () => {
    const listing = await createPublishedListing(ctx);
    const reporter = await createBuyer(ctx);
    const reported = (await flag({ target_type: 'listing', target: listing.id, reporter: reporter.id, reason: 'fraud', description: 'Seen by me, Q~r.' })).body;
    await resolve(reported.id, { action: 'dismiss', note: 'Not fraud.' });
    const byOther = (await flag({ target_type: 'buyer', target: reporter.id, reason: 'other', description: 'About them, Q~s.' })).body;
    expect((await ctx.request(`/v1/buyers/${reporter.id}`, { method: 'DELETE' })).status).toBe(200);

    const after = (await ctx.request(`/v1/flags/${reported.id}`)).body;
    expect(after).toMatchObject({ reporter: reporter.id, description: null, status: 'resolved', resolution: { note: 'Not fraud.' } });
    for (const event of await storedEvents(ctx, reported.id)) expect(event.data.object.description).toBeNull();
    // A flag about the erased party, written by someone else, is not the party's words.
    expect((await ctx.request(`/v1/flags/${byOther.id}`)).body.description).toBe('About them, Q~s.');
  });
});

describe('GET /v1/flags', () => {
  it('lists newest first, filtered by status, target and target_type, and pages', async () => {
    const listing = await createListing(ctx);
    const seller = await createSeller(ctx);
    const a = (await flag({ target_type: 'listing', target: listing.id, reason: 'spam' })).body;
    const b = (await flag({ target_type: 'listing', target: listing.id, reason: 'fraud' })).body;
    const c = (await flag({ target_type: 'seller', target: seller.id, reason: 'other' })).body;
    await resolve(a.id, { action: 'dismiss' });

    const ofListing = (await ctx.request(`/v1/flags?target=${listing.id}`)).body;
    expect(ofListing.data.map((f: Json) => f.id)).toEqual([b.id, a.id]);
    const open = (await ctx.request(`/v1/flags?target=${listing.id}&status=open`)).body;
    expect(open.data.map((f: Json) => f.id)).toEqual([b.id]);
    const sellers = (await ctx.request(`/v1/flags?target_type=seller&limit=100`)).body;
    expect(sellers.data.every((f: Json) => f.target_type === 'seller')).toBe(true);
    expect(sellers.data.map((f: Json) => f.id)).toContain(c.id);

    const first = (await ctx.request(`/v1/flags?target=${listing.id}&limit=1`)).body;
    expect(first).toMatchObject({ has_more: true, next_cursor: b.id });
    const second = (await ctx.request(`/v1/flags?target=${listing.id}&limit=1&starting_after=${first.next_cursor}`)).body;
    expect(second.data.map((f: Json) => f.id)).toEqual([a.id]);
    expect(second.has_more).toBe(false);
  });

  it('refuses a bad status filter with 400 and answers 404 for an unknown flag', async () => {
    const bad = await ctx.request('/v1/flags?status=closed');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('status');
    const missing = await ctx.request('/v1/flags/flg_01jd2b7v8k0000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('resource_missing');
    const liveSeller = await createSeller(ctx, {}, ctx.keys.live.secret_key);
    const live = await ctx.request('/v1/flags', { body: { target_type: 'seller', target: liveSeller.id, reason: 'spam' }, key: ctx.keys.live.secret_key });
    expect(live.status, live.text).toBe(201);
    expect((await ctx.request(`/v1/flags/${live.body.id}`)).status).toBe(404);
    expect((await resolve(live.body.id, { action: 'dismiss' })).status).toBe(404);
    expect((await ctx.request(`/v1/flags?target=${liveSeller.id}`)).body.data).toEqual([]);
  });
});

describe('POST /v1/flags/{id}/resolve', () => {
  it('dismisses one flag alone: no moderation action, the other open flags of the target stay open', async () => {
    const listing = await createPublishedListing(ctx);
    const one = (await flag({ target_type: 'listing', target: listing.id, reason: 'spam' })).body;
    const two = (await flag({ target_type: 'listing', target: listing.id, reason: 'spam' })).body;
    const res = await resolve(one.id, { action: 'dismiss', note: 'Not spam.' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: 'resolved',
      resolution: { action: 'dismiss', note: 'Not spam.', moderation_action: null },
      resolved_at: expect.any(String),
    });
    expect(await eventTypes(one.id)).toEqual(['flag.created', 'flag.resolved']);
    expect((await ctx.request(`/v1/flags/${two.id}`)).body.status).toBe('open');
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe('published');
    expect((await ctx.request(`/v1/moderation_actions?target=${listing.id}`)).body.data).toEqual([]);
  });

  it('remove_listing removes the listing with the note as reason and resolves every open flag of it with one moderation action', async () => {
    const listing = await createPublishedListing(ctx);
    const reporter = await createBuyer(ctx);
    const flags: Json[] = [];
    for (const reason of ['prohibited_item', 'fraud', 'spam']) {
      flags.push((await flag({ target_type: 'listing', target: listing.id, reporter: reporter.id, reason })).body);
    }
    const otherListing = await createPublishedListing(ctx);
    const elsewhere = (await flag({ target_type: 'listing', target: otherListing.id, reason: 'spam' })).body;

    const res = await resolve(flags[1].id, { action: 'remove_listing', note: 'Counterfeit goods.' });
    expect(res.status, res.text).toBe(200);
    const actionId = res.body.resolution.moderation_action;
    expect(actionId).toMatch(/^mda_/);
    expect(res.body).toMatchObject({ id: flags[1].id, status: 'resolved', resolution: { action: 'remove_listing', note: 'Counterfeit goods.' } });

    for (const one of flags) {
      const now = (await ctx.request(`/v1/flags/${one.id}`)).body;
      expect(now).toMatchObject({ status: 'resolved', resolution: { action: 'remove_listing', note: 'Counterfeit goods.', moderation_action: actionId } });
      expect(await eventTypes(one.id)).toEqual(['flag.created', 'flag.resolved']);
    }
    expect((await ctx.request(`/v1/flags/${elsewhere.id}`)).body.status).toBe('open');

    const removed = (await ctx.request(`/v1/listings/${listing.id}`)).body;
    expect(removed).toMatchObject({ status: 'removed', removed_reason: 'Counterfeit goods.' });
    expect((await eventTypes(listing.id)).at(-1)).toBe('listing.removed');

    const action = (await ctx.request(`/v1/moderation_actions/${actionId}`)).body;
    expect(action).toEqual({
      object: 'moderation_action',
      id: actionId,
      action: 'remove_listing',
      target_type: 'listing',
      target: listing.id,
      reason: 'Counterfeit goods.',
      flag: flags[1].id,
      created_at: res.body.resolved_at,
    });
    expect(await eventTypes(actionId)).toEqual(['moderation_action.created']);
  });

  it("uses the flag's reason as the removal reason when no note is given", async () => {
    const listing = await createPublishedListing(ctx);
    const one = (await flag({ target_type: 'listing', target: listing.id, reason: 'prohibited_item' })).body;
    const res = await resolve(one.id, { action: 'remove_listing' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.resolution.note).toBeNull();
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.removed_reason).toBe('prohibited_item');
    expect((await ctx.request(`/v1/moderation_actions/${res.body.resolution.moderation_action}`)).body.reason).toBe('prohibited_item');
  });

  it('suspend_seller is the seller suspension: seller.suspended, the reason kept, the seller cannot publish', async () => {
    const seller = await createSeller(ctx);
    const one = (await flag({ target_type: 'seller', target: seller.id, reason: 'fraud' })).body;
    const two = (await flag({ target_type: 'seller', target: seller.id, reason: 'spam' })).body;
    const res = await resolve(two.id, { action: 'suspend_seller', note: 'Fraudulent listings.' });
    expect(res.status, res.text).toBe(200);
    const suspended = (await ctx.request(`/v1/sellers/${seller.id}`)).body;
    expect(suspended).toMatchObject({ status: 'suspended', suspended_reason: 'Fraudulent listings.' });
    expect((await eventTypes(seller.id)).at(-1)).toBe('seller.suspended');
    expect((await ctx.request(`/v1/flags/${one.id}`)).body.resolution.moderation_action).toBe(res.body.resolution.moderation_action);
    const draft = await createListing(ctx, { seller: seller.id });
    const publish = await ctx.request(`/v1/listings/${draft.id}/publish`, { method: 'POST' });
    expect(publish.status).toBe(403);
    expect(publish.body.error.code).toBe('seller_suspended');
  });

  it('refuses an action that does not fit the target with 400 naming action, and changes nothing', async () => {
    const listing = await createPublishedListing(ctx);
    const seller = await createSeller(ctx);
    const buyer = await createBuyer(ctx);
    const onListing = (await flag({ target_type: 'listing', target: listing.id, reason: 'spam' })).body;
    const onSeller = (await flag({ target_type: 'seller', target: seller.id, reason: 'spam' })).body;
    const onBuyer = (await flag({ target_type: 'buyer', target: buyer.id, reason: 'spam' })).body;
    const misfits: Array<[Json, string]> = [
      [onListing, 'suspend_seller'],
      [onListing, 'remove_review'],
      [onSeller, 'remove_listing'],
      [onBuyer, 'remove_listing'],
      [onBuyer, 'suspend_seller'],
    ];
    for (const [target, action] of misfits) {
      const res = await resolve(target.id, { action });
      expect(res.status, `${target.target_type} ${action}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'action' });
      expect((await ctx.request(`/v1/flags/${target.id}`)).body.status).toBe('open');
    }
    const unknown = await resolve(onListing.id, { action: 'unsuspend_seller' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.param).toBe('action');
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe('published');
    expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.status).toBe('active');
    expect((await resolve(onBuyer.id, { action: 'dismiss' })).status).toBe(200);
  });

  it('answers 409 invalid_state when the flag is already resolved, by itself or with its target', async () => {
    const listing = await createPublishedListing(ctx);
    const one = (await flag({ target_type: 'listing', target: listing.id, reason: 'spam' })).body;
    const two = (await flag({ target_type: 'listing', target: listing.id, reason: 'spam' })).body;
    expect((await resolve(one.id, { action: 'remove_listing' })).status).toBe(200);
    for (const [id, action] of [
      [one.id, 'dismiss'],
      [two.id, 'remove_listing'],
      [two.id, 'dismiss'],
    ] as const) {
      const again = await resolve(id, { action });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('invalid_state');
      expect(again.body.error.message).toContain('resolved');
    }
    expect(await eventTypes(two.id)).toEqual(['flag.created', 'flag.resolved']);
  });

  it('answers 409 invalid_state when the target cannot make the change, and resolves nothing', async () => {
    const listing = await createPublishedListing(ctx);
    await ctx.request(`/v1/listings/${listing.id}/remove`, { body: { reason: 'Sold elsewhere.' } });
    const late = (await flag({ target_type: 'listing', target: listing.id, reason: 'spam' })).body;
    const res = await resolve(late.id, { action: 'remove_listing' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('invalid_state');
    expect((await ctx.request(`/v1/flags/${late.id}`)).body.status).toBe('open');
    expect((await ctx.request(`/v1/moderation_actions?target=${listing.id}`)).body.data).toEqual([]);
  });

  it('answers 404 for an unknown flag and 400 for a missing action', async () => {
    const missing = await resolve('flg_01jd2b7v8k0000000000000000', { action: 'dismiss' });
    expect(missing.status).toBe(404);
    const listing = await createListing(ctx);
    const one = (await flag({ target_type: 'listing', target: listing.id, reason: 'spam' })).body;
    const noAction = await resolve(one.id, {});
    expect(noAction.status).toBe(400);
    expect(noAction.body.error.param).toBe('action');
  });
});

describe('flags on reviews', () => {
  const h = orderHelpers(() => ctx);

  /** A visible review of the seller by the buyer, after a completed order reviewed both ways. */
  async function reviewOfSeller(): Promise<{ id: string; subject: string }> {
    const o = await h.order();
    await h.post(`/v1/orders/${o.order.id}/claim`, { actor: o.seller.id });
    await h.post(`/v1/orders/${o.order.id}/confirm`, { actor: o.buyer.id });
    const review = await h.post(`/v1/orders/${o.order.id}/reviews`, { actor: o.buyer.id, rating: 1, body: 'Rude and late.' });
    expect(review.status, review.text).toBe(201);
    await h.post(`/v1/orders/${o.order.id}/reviews`, { actor: o.seller.id, rating: 5 });
    return { id: review.body.id, subject: o.seller.id };
  }

  it('flags a review and resolves it with remove_review: the review removed, one moderation action', async () => {
    const review = await reviewOfSeller();
    const one = (await flag({ target_type: 'review', target: review.id, reason: 'offensive' })).body;
    const two = (await flag({ target_type: 'review', target: review.id, reason: 'spam' })).body;
    const res = await resolve(one.id, { action: 'remove_review', note: 'Abusive language.' });
    expect(res.status, res.text).toBe(200);
    expect((await ctx.request(`/v1/flags/${two.id}`)).body.resolution.moderation_action).toBe(res.body.resolution.moderation_action);
    expect((await ctx.request(`/v1/reviews/${review.id}`)).body.removed).toBe(true);
    expect(await eventTypes(review.id)).toContain('review.removed');
    // The removed review no longer counts toward reputation: its reputation event is voided.
    const reputation = (await ctx.request(`/v1/reputation_events?subject=${review.subject}&limit=100`)).body.data.filter(
      (e: Json) => e.review === review.id,
    );
    expect(reputation.length).toBe(1);
    expect(reputation.every((e: Json) => e.voided === true)).toBe(true);
    expect((await ctx.request(`/v1/sellers/${review.subject}/profile`)).body.reputation.rating_count).toBe(0);
    const misfit = await resolve((await flag({ target_type: 'review', target: review.id, reason: 'spam' })).body.id, { action: 'remove_listing' });
    expect(misfit.status).toBe(400);
    expect(misfit.body.error.param).toBe('action');
  });

  it('removes a review by a direct moderation action; a second removal answers 409 invalid_state', async () => {
    const review = await reviewOfSeller();
    const action = await ctx.request('/v1/moderation_actions', {
      body: { action: 'remove_review', target: review.id, reason: 'Harassment.' },
    });
    expect(action.status, action.text).toBe(201);
    expect((await ctx.request(`/v1/reviews/${review.id}`)).body.removed).toBe(true);
    const again = await ctx.request('/v1/moderation_actions', {
      body: { action: 'remove_review', target: review.id, reason: 'Harassment.' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
  });
});
