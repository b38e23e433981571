// Booking test helpers over HTTP: listings that sell time, their availability and slots, and
// orders that book them. The app runs on a pinned base clock (2026-10-01T00:00:00Z, before the
// October 2026 clock changes) so that the times booked lie ahead.
import { expect } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createBuyer, createPublishedListing, createSeller, type Json } from '../../helpers/factories.js';
import type { TestContext, TestResponse } from '../../helpers/harness.js';

export const BASE_NOW = Date.parse('2026-10-01T00:00:00.000Z');

export function newClock(): ManualClock {
  return new ManualClock(BASE_NOW);
}

export function bookingHelpers(ctx: () => TestContext) {
  const post = (url: string, body?: unknown): Promise<TestResponse> => ctx().request(url, { method: 'POST', ...(body === undefined ? {} : { body }) });
  const put = (url: string, body: unknown): Promise<TestResponse> => ctx().request(url, { method: 'PUT', body });

  /** A published listing of a new seller; `unit` day or time (time: slot_minutes 60 unless given). */
  async function listing(unit: 'day' | 'time', fields: Record<string, unknown> = {}): Promise<Json> {
    const seller = await createSeller(ctx());
    return createPublishedListing(ctx(), { seller: seller.id, unit_type: unit, ...(unit === 'time' ? { slot_minutes: 60 } : {}), price: { amount: 1000, currency: 'USD' }, ...fields });
  }

  async function setAvailability(listingId: string, body: Record<string, unknown>): Promise<Json> {
    const res = await put(`/v1/listings/${listingId}/availability`, body);
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  async function slots(listingId: string, query: Record<string, string | number>): Promise<Json[]> {
    const qs = new URLSearchParams(Object.entries({ limit: 100, ...query }).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const res = await ctx().request(`/v1/listings/${listingId}/timeslots?${qs}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }

  function book(buyer: string, listingId: string, booking: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<TestResponse> {
    return post('/v1/orders', { buyer, listing: listingId, booking, ...extra });
  }

  async function buyer(): Promise<string> {
    return (await createBuyer(ctx())).id;
  }

  return { post, put, listing, setAvailability, slots, book, buyer };
}
