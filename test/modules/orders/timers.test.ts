// The order windows and the dispute decision on the test clock: each timer fires its row of the
// table when its time comes (not a second before), and a window left behind by a move is dropped.
// The processor's move (pay) is taken the way the payments module will take it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../../src/modules/marketplaces/mode-settings.js';
import { commitPaidOrder } from '../../../src/modules/orders/operations.js';
import { storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { DAY, orderHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = orderHelpers(() => ctx);
const scope = () => ({ marketplaceId: ctx.marketplaceId, mode: 'test' as const });

async function unpaidOrder() {
  await h.setSettings({ payments_enabled: true });
  try {
    return await h.order({ quantity: 2 });
  } finally {
    await h.setSettings({ payments_enabled: false });
  }
}

describe('payment window', () => {
  it('expires an order still awaiting payment after payment_window_seconds; its units go back', async () => {
    const { order, listing } = await unpaidOrder();
    await h.advance(1799);
    expect((await h.getOrder(order.id)).state).toBe('awaiting_payment');
    await h.advance(1);
    const expired = await h.getOrder(order.id);
    expect(expired).toMatchObject({ state: 'expired', deadline: null });
    expect(expired.expired_at).not.toBeNull();
    expect((await h.getListing(listing.id)).quantity_available).toBe(5);
    expect((await h.transitions(order.id)).at(-1)).toMatchObject({ from: 'awaiting_payment', to: 'expired', transition: 'expire_unpaid', actor: null });
    expect((await storedEvents(ctx, order.id)).map((e) => e.type)).toEqual(['order.created', 'order.expired']);
  });

  it('is cancelled by the payment succeeding (pay, by the processor), which starts the claim window', async () => {
    const { order } = await unpaidOrder();
    const paid = await ctx.db.transaction(async (tx) => {
      const now = new Date(Date.parse((await ctx.request('/v1/test_helpers/clock')).body.now));
      return commitPaidOrder(tx, scope(), order.id, await loadSettings(tx, scope()), now);
    });
    expect(paid.state).toBe('committed');
    expect(Date.parse(paid.deadline!) - Date.parse(paid.updated_at)).toBe(7 * DAY * 1000);
    expect((await storedEvents(ctx, order.id)).map((e) => e.type)).toEqual(['order.created', 'order.committed']);
    await h.advance(1801);
    expect((await h.getOrder(order.id)).state).toBe('committed');
    expect((await h.transitions(order.id)).at(-1)).toMatchObject({ transition: 'pay', actor: null });
  });
});

describe('claim window', () => {
  it('expires a committed order the seller did not claim; units back', async () => {
    const { order, listing } = await h.order({ quantity: 2 });
    await h.advance(7 * DAY - 1);
    expect((await h.getOrder(order.id)).state).toBe('committed');
    await h.advance(1);
    expect((await h.getOrder(order.id)).state).toBe('expired');
    expect((await h.getListing(listing.id)).quantity_available).toBe(5);
    expect((await h.transitions(order.id)).at(-1)).toMatchObject({ transition: 'expire_unclaimed' });
  });

  it('is dropped by the claim: the confirm window runs from the claim instead', async () => {
    const { order, seller } = await h.order();
    await h.advance(6 * DAY);
    const claimed = (await h.post(`/v1/orders/${order.id}/claim`, { actor: seller.id })).body;
    expect(Date.parse(claimed.deadline) - Date.parse(claimed.claimed_at)).toBe(3 * DAY * 1000);
    await h.advance(2 * DAY);
    expect((await h.getOrder(order.id)).state).toBe('claimed');
  });
});

describe('confirm window', () => {
  it('completes a claimed order the buyer did not confirm, as confirm does', async () => {
    const { order, seller, listing } = await h.order({ quantity: 2 });
    await h.post(`/v1/orders/${order.id}/claim`, { actor: seller.id });
    await h.advance(3 * DAY - 1);
    expect((await h.getOrder(order.id)).state).toBe('claimed');
    await h.advance(1);
    const completed = await h.getOrder(order.id);
    expect(completed.state).toBe('completed');
    expect(completed.completed_at).not.toBeNull();
    expect((await h.getListing(listing.id)).quantity_available).toBe(3);
    expect((await h.transitions(order.id)).at(-1)).toMatchObject({ from: 'claimed', to: 'completed', transition: 'confirm', actor: null });
    const reputation = await ctx.request(`/v1/reputation_events?subject=${seller.id}`);
    expect(reputation.body.data).toEqual([expect.objectContaining({ kind: 'order_completed', order: order.id, voided: false })]);
  });
});

describe('dispute decision', () => {
  it('emits dispute.decision_overdue once when decision_due_at passes undecided; the dispute stays open', async () => {
    const { order, buyer } = await h.order();
    const disputed = (await h.post(`/v1/orders/${order.id}/dispute`, { actor: buyer.id, reason: 'not_received', description: 'Nothing came.' })).body;
    await h.advance(7 * DAY - 1);
    expect((await storedEvents(ctx, disputed.dispute)).map((e) => e.type)).toEqual(['dispute.created']);
    await h.advance(1);
    await h.advance(7 * DAY);
    expect((await storedEvents(ctx, disputed.dispute)).map((e) => e.type)).toEqual(['dispute.created', 'dispute.decision_overdue']);
    expect((await ctx.request(`/v1/disputes/${disputed.dispute}`)).body.status).toBe('open');
    expect((await h.getOrder(order.id)).state).toBe('disputed');
  });
});
