// Reviews and reputation (interface.md 3.9, 4.12; contract 11): double-blind reviews both ways,
// visibility when both reviewed or when the window closes (test clock), the refusals, removal
// voiding reputation, the seller profile's reputation, and erasure of review text everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeReviewInTx } from '../../../src/modules/reviews/operations.js';
import { createBuyer, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { DAY, orderHelpers } from '../orders/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = orderHelpers(() => ctx);

async function completed() {
  const o = await h.order();
  await h.post(`/v1/orders/${o.order.id}/claim`, { actor: o.seller.id });
  await h.post(`/v1/orders/${o.order.id}/confirm`, { actor: o.buyer.id });
  return o;
}

const review = (orderId: string, body: Record<string, unknown>) => h.post(`/v1/orders/${orderId}/reviews`, body);

describe('double-blind', () => {
  it('hides the first review until the other party reviews; then both are visible and counted', async () => {
    const { order, buyer, seller } = await completed();
    const first = await review(order.id, { actor: buyer.id, rating: 4, body: 'Good seller.' });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      object: 'review',
      order: order.id,
      author_role: 'buyer',
      author: buyer.id,
      subject: seller.id,
      visible: false,
      rating: null,
      body: null,
      removed: false,
    });
    expect((await ctx.request(`/v1/reviews/${first.body.id}`)).body).toMatchObject({ visible: false, rating: null, body: null });
    expect((await ctx.request(`/v1/reviews?subject=${seller.id}`)).body.data).toEqual([]);
    expect((await ctx.request(`/v1/sellers/${seller.id}/profile`)).body.reputation).toEqual({ rating_average: null, rating_count: 0, completed_orders: 1 });

    const second = await review(order.id, { actor: seller.id, rating: 5 });
    expect(second.body).toMatchObject({ author_role: 'seller', subject: buyer.id, visible: true, rating: 5, body: null });
    expect((await ctx.request(`/v1/reviews/${first.body.id}`)).body).toMatchObject({ visible: true, rating: 4, body: 'Good seller.' });
    expect((await ctx.request(`/v1/reviews?subject=${seller.id}`)).body.data.map((r: { id: string }) => r.id)).toEqual([first.body.id]);
    expect((await ctx.request(`/v1/reviews?subject=${buyer.id}`)).body.data.map((r: { id: string }) => r.id)).toEqual([second.body.id]);
    expect((await ctx.request(`/v1/sellers/${seller.id}/profile`)).body.reputation).toEqual({ rating_average: 4, rating_count: 1, completed_orders: 1 });
    expect((await storedEvents(ctx, first.body.id)).map((e) => e.type)).toEqual(['review.created', 'review.visible']);
    const events = (await ctx.request(`/v1/reputation_events?subject=${buyer.id}`)).body.data;
    expect(events).toEqual([expect.objectContaining({ object: 'reputation_event', kind: 'review', review: second.body.id, rating: 5, voided: false })]);
  });

  it('shows a lone review when the review window closes (test clock)', async () => {
    const { order, buyer, seller } = await completed();
    await h.advance(DAY);
    const lone = (await review(order.id, { actor: seller.id, rating: 2, body: 'Slow to pay.' })).body;
    await h.advance(13 * DAY - 1);
    expect((await ctx.request(`/v1/reviews/${lone.id}`)).body.visible).toBe(false);
    await h.advance(1);
    expect((await ctx.request(`/v1/reviews/${lone.id}`)).body).toMatchObject({ visible: true, rating: 2, body: 'Slow to pay.' });
    expect((await ctx.request(`/v1/reviews?subject=${buyer.id}`)).body.data.map((r: { id: string }) => r.id)).toEqual([lone.id]);
    const late = await review(order.id, { actor: buyer.id, rating: 1 });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('review_window_closed');
  });
});

describe('refusals', () => {
  it('invalid_state before completion, actor_not_party, already_reviewed, bad ratings', async () => {
    const { order, buyer, seller } = await h.order();
    const early = await review(order.id, { actor: buyer.id, rating: 5 });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('invalid_state');
    expect(early.body.error.message).toContain('committed');
    await h.post(`/v1/orders/${order.id}/claim`, { actor: seller.id });
    await h.post(`/v1/orders/${order.id}/confirm`, { actor: buyer.id });
    const stranger = await createBuyer(ctx);
    const notParty = await review(order.id, { actor: stranger.id, rating: 5 });
    expect(notParty.status).toBe(403);
    expect(notParty.body.error.code).toBe('actor_not_party');
    for (const rating of [0, 6, 4.5]) {
      const bad = await review(order.id, { actor: buyer.id, rating });
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe('rating');
    }
    expect((await review(order.id, { actor: buyer.id, rating: 5 })).status).toBe(201);
    const twice = await review(order.id, { actor: buyer.id, rating: 1 });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('already_reviewed');
    expect((await ctx.request('/v1/reviews/rev_nope')).status).toBe(404);
    expect((await ctx.request('/v1/reviews')).status).toBe(400);
    expect((await review('ord_nope', { actor: buyer.id, rating: 5 })).status).toBe(404);
  });
});

describe('removal', () => {
  it('removes a review from lists, voids its reputation event, and lowers the reputation', async () => {
    const seller = await completed();
    const { order, buyer } = seller;
    const r1 = (await review(order.id, { actor: buyer.id, rating: 1, body: 'Awful.' })).body;
    await review(order.id, { actor: seller.seller.id, rating: 5 });
    // A second order with the same seller, rated 5.
    const buyer2 = await createBuyer(ctx);
    const o2 = (await h.post('/v1/orders', { buyer: buyer2.id, listing: seller.listing.id })).body;
    await h.post(`/v1/orders/${o2.id}/claim`, { actor: seller.seller.id });
    await h.post(`/v1/orders/${o2.id}/confirm`, { actor: buyer2.id });
    await review(o2.id, { actor: buyer2.id, rating: 5 });
    await review(o2.id, { actor: seller.seller.id, rating: 5 });
    const profile = async () => (await ctx.request(`/v1/sellers/${seller.seller.id}/profile`)).body.reputation;
    expect(await profile()).toEqual({ rating_average: 3, rating_count: 2, completed_orders: 2 });

    const removed = await h.post(`/v1/reviews/${r1.id}/remove`, { reason: 'Abusive.' });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.removed).toBe(true);
    expect(await profile()).toEqual({ rating_average: 5, rating_count: 1, completed_orders: 2 });
    expect((await ctx.request(`/v1/reviews?subject=${seller.seller.id}`)).body.data.map((r: { id: string }) => r.id)).not.toContain(r1.id);
    const events = (await ctx.request(`/v1/reputation_events?subject=${seller.seller.id}`)).body.data;
    expect(events.find((e: { review: string | null }) => e.review === r1.id)).toMatchObject({ voided: true });
    expect((await storedEvents(ctx, r1.id)).map((e) => e.type)).toEqual(['review.created', 'review.visible', 'review.removed']);
    const voided = await ctx.db.query<{ type: string }>("SELECT type FROM events WHERE type = 'reputation_event.voided' AND data->'object'->>'review' = $1", [r1.id]);
    expect(voided).toHaveLength(1);
    const again = await h.post(`/v1/reviews/${r1.id}/remove`, { reason: 'Again.' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
  });
});

describe('removal inside another transaction (moderation)', () => {
  it('removeReviewInTx removes the review and voids its event in the caller\'s transaction', async () => {
    const { order, buyer, seller } = await completed();
    const written = (await review(order.id, { actor: buyer.id, rating: 2 })).body;
    await review(order.id, { actor: seller.id, rating: 5 });
    const scope = { marketplaceId: ctx.marketplaceId, mode: 'test' as const };
    const removed = await ctx.db.transaction((tx) => removeReviewInTx(tx, scope, written.id, 'Moderated.', new Date()));
    expect(removed).toMatchObject({ id: written.id, removed: true });
    const events = (await ctx.request(`/v1/reputation_events?subject=${seller.id}`)).body.data;
    expect(events.find((e: { review: string | null }) => e.review === written.id)).toMatchObject({ voided: true });
    await expect(ctx.db.transaction((tx) => removeReviewInTx(tx, scope, 'rev_nope', 'x', new Date()))).rejects.toMatchObject({ code: 'resource_missing' });
  });
});

describe('erasure', () => {
  it('removes the text of reviews an erased party wrote, stored events included; rating and reputation stay', async () => {
    const { order, buyer, seller } = await completed();
    const written = (await review(order.id, { actor: buyer.id, rating: 4, body: 'Call me on 555-0100.' })).body;
    await review(order.id, { actor: seller.id, rating: 5, body: 'Lovely buyer.' });
    expect((await ctx.request(`/v1/buyers/${buyer.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await ctx.request(`/v1/reviews/${written.id}`)).body).toMatchObject({ visible: true, rating: 4, body: null });
    const stored = JSON.stringify(await storedEvents(ctx, written.id));
    expect(stored).not.toContain('555-0100');
    const everywhere = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE data::text LIKE '%555-0100%'");
    expect(everywhere[0]!.n).toBe(0);
    // The seller's review of the erased buyer is the seller's text: it stays.
    expect((await ctx.request(`/v1/reviews?subject=${buyer.id}`)).body.data[0]).toMatchObject({ body: 'Lovely buyer.' });
    expect((await h.getOrder(order.id)).buyer).toBe(buyer.id);
    expect((await ctx.request(`/v1/sellers/${seller.id}/profile`)).body.reputation).toEqual({ rating_average: 4, rating_count: 1, completed_orders: 1 });
    // The same for a seller: the text of what the seller wrote goes, the buyer's review stays.
    expect((await ctx.request(`/v1/sellers/${seller.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await ctx.request(`/v1/reviews?subject=${buyer.id}`)).body.data[0]).toMatchObject({ rating: 5, body: null });
    const sellerText = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE data::text LIKE '%Lovely buyer%'");
    expect(sellerText[0]!.n).toBe(0);
    expect((await ctx.request(`/v1/sellers/${seller.id}/profile`)).body.reputation).toEqual({ rating_average: 4, rating_count: 1, completed_orders: 1 });
  });
});
