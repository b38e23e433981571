// Payout test steps over HTTP on the simulated processor and the test clock: a seller on a schedule,
// a completed order of theirs, moving the clock to a time of day, and the seller's payouts.
import { expect } from 'vitest';
import type { Json } from '../../helpers/factories.js';
import type { TestContext } from '../../helpers/harness.js';
import { paymentHelpers } from '../payments/helpers.js';

export const DAY_MS = 86_400_000;

export function payoutHelpers(ctx: () => TestContext) {
  const h = paymentHelpers(ctx);

  async function put(url: string, body: unknown, status = 200): Promise<Json> {
    const res = await ctx().request(url, { method: 'PUT', body });
    expect(res.status, `${url}: ${res.text}`).toBe(status);
    return res.body;
  }

  /** Moves the test clock to `target` (ms), which must be ahead. */
  async function advanceTo(target: number) {
    const now = await h.testNow();
    expect(target, 'the clock only moves forward').toBeGreaterThan(now);
    await h.advance(Math.ceil((target - now) / 1000));
  }

  /** The clock to the next 00:00 UTC, then `hours` on. */
  async function toHourOfNextDay(hours: number) {
    const now = await h.testNow();
    await advanceTo(Math.floor(now / DAY_MS) * DAY_MS + DAY_MS + hours * 3_600_000);
  }

  /** An onboarded seller with their own schedule, a buyer and a listing (50 units at 1000 unless `listing` says otherwise). */
  async function scheduledParties(schedule: Record<string, unknown>, listing: Record<string, unknown> = {}) {
    const parties = await h.parties({ price: { amount: 1000, currency: 'USD' }, quantity: 50, ...listing });
    await put(`/v1/sellers/${parties.seller.id}/payout_schedule`, { method: 'scheduled', ...schedule });
    return parties;
  }

  /** A paid, then completed order of the seller; its payment. */
  async function completedOrder(parties: { seller: { id: string }; buyer: { id: string }; listing: { id: string } }) {
    const res = await h.post('/v1/orders', { buyer: parties.buyer.id, listing: parties.listing.id });
    expect(res.status, res.text).toBe(201);
    const order = res.body;
    await h.ok(`/v1/test_helpers/payments/${order.payment}/succeed`);
    await h.complete({ order, seller: parties.seller, buyer: parties.buyer });
    return { order, payment: await h.payment(order.payment) };
  }

  const balance = (sellerId: string) => h.get(`/v1/sellers/${sellerId}/balance`);
  const payoutsOf = async (sellerId: string): Promise<Json[]> => (await h.get(`/v1/payouts?seller=${sellerId}&limit=100`)).data;
  const lines = async (payoutId: string): Promise<Json[]> => (await h.get(`/v1/payouts/${payoutId}/lines?limit=100`)).data;

  return { ...h, put, advanceTo, toHourOfNextDay, scheduledParties, completedOrder, balance, payoutsOf, lines };
}
