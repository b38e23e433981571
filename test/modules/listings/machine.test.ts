// The listing table walked over HTTP, every state × operation, from the table itself: what the
// table allows succeeds, moves to its to-state, emits its events and sets or cancels its timer;
// anything else answers 409 invalid_state naming the state, and changes nothing. The expiry timer
// is walked the same way. A new state or operation does not compile until it is walked here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidState, rowOf, timerMove } from '../../../src/domain/state-machine.js';
import { LISTING_EXPIRE_TIMER, LISTING_MACHINE, type ListingOperation, type ListingStatus } from '../../../src/modules/listings/status.js';
import type { Listing } from '../../../src/modules/listings/schemas.js';
import { scheduleTimer } from '../../../src/workers/timers.js';
import { createListing, createPublishedListing, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const DAY_MS = 24 * 3600 * 1000;
const post = (url: string, body?: unknown) => ctx.request(url, { method: 'POST', ...(body === undefined ? {} : { body }) });

async function testNow(): Promise<number> {
  return Date.parse((await ctx.request('/v1/test_helpers/clock')).body.now);
}

async function advance(seconds: number) {
  const res = await post('/v1/test_helpers/clock/advance', { seconds });
  expect(res.status, res.text).toBe(200);
}

const inADay = async () => new Date((await testNow()) + DAY_MS).toISOString();

/** A listing in each state, with an expires_at a day ahead (so publishing sets the expiry timer). */
const IN_STATE: Record<ListingStatus, () => Promise<Listing>> = {
  draft: async () => createListing(ctx, { expires_at: await inADay() }),
  published: async () => createPublishedListing(ctx, { expires_at: await inADay() }),
  // Orders sell listings; here the state is set the way they will set it.
  sold: async () => {
    const listing = await createPublishedListing(ctx, { expires_at: await inADay() });
    await ctx.db.query("UPDATE listings SET status = 'sold', quantity_sold = quantity WHERE id = $1", [listing.id]);
    return { ...listing, status: 'sold' };
  },
  expired: async () => {
    const listing = await createPublishedListing(ctx, { expires_at: new Date((await testNow()) + 60_000).toISOString() });
    await advance(61);
    // A later expires_at, so publishing it again is up to the table alone.
    const res = await ctx.request(`/v1/listings/${listing.id}`, { method: 'PATCH', body: { expires_at: await inADay() } });
    expect(res.body.status).toBe('expired');
    return res.body;
  },
  removed: async () => (await post(`/v1/listings/${(await createListing(ctx, { expires_at: await inADay() })).id}/remove`, { reason: 'Gone.' })).body,
};

/** How each operation is taken over HTTP; `timer` and `orders` operations are walked elsewhere. */
const TAKE: Record<ListingOperation, ((id: string) => Promise<TestResponse>) | 'timer' | 'orders'> = {
  update: (id) => ctx.request(`/v1/listings/${id}`, { method: 'PATCH', body: { title: 'Changed title' } }),
  publish: (id) => post(`/v1/listings/${id}/publish`),
  unpublish: (id) => post(`/v1/listings/${id}/unpublish`),
  remove: (id) => post(`/v1/listings/${id}/remove`, { reason: 'Walked.' }),
  expire: 'timer',
  sell: 'orders',
};

async function expiryTimer(id: string): Promise<string | null> {
  const rows = await ctx.db.query<{ run_at: Date }>('SELECT run_at FROM timers WHERE kind = $1 AND subject_id = $2', [LISTING_EXPIRE_TIMER, id]);
  return rows[0] ? rows[0].run_at.toISOString() : null;
}

const pairs = LISTING_MACHINE.states.flatMap((state) =>
  (Object.keys(TAKE) as ListingOperation[]).filter((operation) => typeof TAKE[operation] === 'function').map((operation) => ({ state, operation })),
);

describe('every state × operation of the listing table', () => {
  it('covers every state and every operation taken over HTTP', () => {
    expect(pairs).toHaveLength(LISTING_MACHINE.states.length * 4);
  });

  it.each(pairs)('$operation from $state', async ({ state, operation }) => {
    const listing = await IN_STATE[state]();
    expect(listing.status).toBe(state);
    const eventsBefore = (await storedEvents(ctx, listing.id)).map((e) => e.type);
    const timerBefore = await expiryTimer(listing.id);
    const take = TAKE[operation] as (id: string) => Promise<TestResponse>;
    const res = await take(listing.id);
    const eventsAfter = (await storedEvents(ctx, listing.id)).map((e) => e.type);
    const row = rowOf(LISTING_MACHINE, state, operation);
    if (row) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe(row.to);
      expect(eventsAfter.slice(eventsBefore.length)).toEqual(row.emits);
      const timer = await expiryTimer(listing.id);
      if (row.sets?.includes(LISTING_EXPIRE_TIMER)) expect(timer).toBe(res.body.expires_at);
      else if (row.cancels?.includes(LISTING_EXPIRE_TIMER)) expect(timer).toBeNull();
      else expect(timer).toBe(timerBefore);
    } else {
      expect(res.status, res.text).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'invalid_state', message: invalidState(LISTING_MACHINE, state, operation).message });
      expect(res.body.error.message).toMatch(new RegExp(`^The listing is ${state}; it cannot `));
      expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe(state);
      expect(eventsAfter).toEqual(eventsBefore);
      expect(await expiryTimer(listing.id)).toBe(timerBefore);
    }
  });

  it.each(LISTING_MACHINE.states.map((state) => ({ state })))('the expiry timer firing on a $state listing', async ({ state }) => {
    const listing = await IN_STATE[state]();
    const now = await testNow();
    await ctx.db.query('UPDATE listings SET expires_at = $2 WHERE id = $1', [listing.id, new Date(now - 1000)]);
    await ctx.db.transaction((tx) => scheduleTimer(tx, { marketplaceId: ctx.marketplaceId, mode: 'test' }, LISTING_EXPIRE_TIMER, listing.id, new Date(now)));
    const eventsBefore = (await storedEvents(ctx, listing.id)).map((e) => e.type);
    await advance(1);
    const row = timerMove(LISTING_MACHINE, state, LISTING_EXPIRE_TIMER);
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.status).toBe(row ? row.to : state);
    expect((await storedEvents(ctx, listing.id)).map((e) => e.type).slice(eventsBefore.length)).toEqual(row ? row.emits : []);
    // Taken or dropped, the timer is gone.
    expect(await expiryTimer(listing.id)).toBeNull();
  });
});
