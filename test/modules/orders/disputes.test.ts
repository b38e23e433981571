// Disputes (contract 12): opened by the buyer's dispute of an order, evidence from either party,
// decided by the platform for the buyer or the seller (which moves the order and records
// dispute_lost), the dispute window of a completed order, list and retrieve.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { DAY, orderHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = orderHelpers(() => ctx);

async function disputed(options: { claim?: boolean; quantity?: number } = {}) {
  const made = await h.order({ quantity: options.quantity ?? 1 });
  if (options.claim) await h.post(`/v1/orders/${made.order.id}/claim`, { actor: made.seller.id });
  const res = await h.post(`/v1/orders/${made.order.id}/dispute`, { actor: made.buyer.id, reason: 'not_as_described', description: 'Wrong colour.' });
  expect(res.status, res.text).toBe(200);
  return { ...made, order: res.body, disputeId: res.body.dispute as string };
}

describe('opening', () => {
  it('creates the dispute with order.disputed and dispute.created; the windows stop', async () => {
    const { order, buyer, disputeId } = await disputed();
    expect(order).toMatchObject({ state: 'disputed', deadline: null });
    const dispute = (await ctx.request(`/v1/disputes/${disputeId}`)).body;
    expect(dispute).toMatchObject({
      object: 'dispute',
      order: order.id,
      opened_by: buyer.id,
      reason: 'not_as_described',
      description: 'Wrong colour.',
      status: 'open',
      outcome: null,
      evidence: [],
      decided_at: null,
    });
    expect(Date.parse(dispute.decision_due_at) - Date.parse(dispute.created_at)).toBe(7 * DAY * 1000);
    expect((await storedEvents(ctx, order.id)).map((e) => e.type)).toContain('order.disputed');
    expect((await storedEvents(ctx, disputeId)).map((e) => e.type)).toEqual(['dispute.created']);
    expect((await h.transitions(order.id)).at(-1)).toMatchObject({ transition: 'dispute', actor: buyer.id, reason: 'not_as_described' });
  });

  it('validates the body, and an order is disputed once', async () => {
    const { order, buyer } = await h.order();
    const bad = await h.post(`/v1/orders/${order.id}/dispute`, { actor: buyer.id, reason: 'bored', description: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('reason');
    await h.post(`/v1/orders/${order.id}/dispute`, { actor: buyer.id, reason: 'other', description: 'x' });
    const decided = (await h.post(`/v1/disputes/${(await h.getOrder(order.id)).dispute}/decide`, { outcome: 'seller' })).body;
    expect(decided.status).toBe('decided');
    const again = await h.post(`/v1/orders/${order.id}/dispute`, { actor: buyer.id, reason: 'other', description: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
  });

  it('a completed order within dispute_window_seconds of completion; 409 dispute_window_closed after', async () => {
    const early = await h.order();
    const late = await h.order();
    for (const { order, seller, buyer } of [early, late]) {
      await h.post(`/v1/orders/${order.id}/claim`, { actor: seller.id });
      await h.post(`/v1/orders/${order.id}/confirm`, { actor: buyer.id });
    }
    await h.advance(14 * DAY - 1);
    const inTime = await h.post(`/v1/orders/${early.order.id}/dispute`, { actor: early.buyer.id, reason: 'not_as_described', description: 'Broken.' });
    expect(inTime.status, inTime.text).toBe(200);
    await h.advance(1);
    const closed = await h.post(`/v1/orders/${late.order.id}/dispute`, { actor: late.buyer.id, reason: 'not_as_described', description: 'Broken.' });
    expect(closed.status).toBe(409);
    expect(closed.body.error.code).toBe('dispute_window_closed');
    expect((await h.getOrder(late.order.id)).state).toBe('completed');
  });
});

describe('evidence', () => {
  it('either party adds text while open; a stranger cannot; none once decided', async () => {
    const { buyer, seller, disputeId } = await disputed();
    const first = await h.post(`/v1/disputes/${disputeId}/evidence`, { actor: seller.id, text: 'Shipped, tracking 123.' });
    expect(first.status, first.text).toBe(200);
    const second = await h.post(`/v1/disputes/${disputeId}/evidence`, { actor: buyer.id, text: 'Photo attached.' });
    expect(second.body.evidence).toEqual([
      expect.objectContaining({ actor: seller.id, text: 'Shipped, tracking 123.' }),
      expect.objectContaining({ actor: buyer.id, text: 'Photo attached.' }),
    ]);
    const stranger = await createBuyer(ctx);
    const refused = await h.post(`/v1/disputes/${disputeId}/evidence`, { actor: stranger.id, text: 'Me too.' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('actor_not_party');
    await h.post(`/v1/disputes/${disputeId}/decide`, { outcome: 'buyer' });
    const late = await h.post(`/v1/disputes/${disputeId}/evidence`, { actor: buyer.id, text: 'More.' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('invalid_state');
    expect((await storedEvents(ctx, disputeId)).map((e) => e.type)).toEqual([
      'dispute.created',
      'dispute.evidence_added',
      'dispute.evidence_added',
      'dispute.updated',
      'dispute.decided',
    ]);
  });
});

describe('decision', () => {
  it('for the seller: the order completes (units sold), the buyer gets dispute_lost', async () => {
    const { order, buyer, seller, listing, disputeId } = await disputed({ quantity: 2 });
    const res = await h.post(`/v1/disputes/${disputeId}/decide`, { outcome: 'seller', note: 'Delivered.' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'decided', outcome: 'seller', decision_note: 'Delivered.' });
    expect(res.body.decided_at).not.toBeNull();
    expect((await h.getOrder(order.id)).state).toBe('completed');
    expect((await h.getListing(listing.id)).quantity_available).toBe(3);
    expect((await h.transitions(order.id)).at(-1)).toMatchObject({ from: 'disputed', to: 'completed', transition: 'decide_for_seller', actor: null });
    const lost = (await ctx.request(`/v1/reputation_events?subject=${buyer.id}`)).body.data;
    expect(lost).toEqual([expect.objectContaining({ kind: 'dispute_lost', order: order.id })]);
    const completed = (await ctx.request(`/v1/reputation_events?subject=${seller.id}`)).body.data;
    expect(completed).toEqual([expect.objectContaining({ kind: 'order_completed' })]);
    const twice = await h.post(`/v1/disputes/${disputeId}/decide`, { outcome: 'buyer' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('invalid_state');
  });

  it('for the buyer: the order is cancelled, units back if never claimed (sold if claimed); the seller gets dispute_lost', async () => {
    const open = await disputed({ quantity: 2 });
    await h.post(`/v1/disputes/${open.disputeId}/decide`, { outcome: 'buyer' });
    expect((await h.getOrder(open.order.id)).state).toBe('cancelled');
    expect((await h.getListing(open.listing.id)).quantity_available).toBe(5);
    const lost = (await ctx.request(`/v1/reputation_events?subject=${open.seller.id}`)).body.data;
    expect(lost).toEqual([expect.objectContaining({ kind: 'dispute_lost' })]);

    const shipped = await disputed({ quantity: 2, claim: true });
    await h.post(`/v1/disputes/${shipped.disputeId}/decide`, { outcome: 'buyer' });
    expect((await h.getListing(shipped.listing.id)).quantity_available).toBe(3);
  });
});

describe('read', () => {
  it('lists by order and status, retrieves, 404s unknown ids', async () => {
    const a = await disputed();
    const b = await disputed();
    await h.post(`/v1/disputes/${b.disputeId}/decide`, { outcome: 'seller' });
    const byOrder = (await ctx.request(`/v1/disputes?order=${a.order.id}`)).body.data;
    expect(byOrder.map((d: { id: string }) => d.id)).toEqual([a.disputeId]);
    const decided = (await ctx.request('/v1/disputes?status=decided')).body.data.map((d: { id: string }) => d.id);
    expect(decided).toContain(b.disputeId);
    expect(decided).not.toContain(a.disputeId);
    for (const res of [await ctx.request('/v1/disputes/dsp_nope'), await h.post('/v1/disputes/dsp_nope/decide', { outcome: 'buyer' })]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_missing');
    }
  });
});
