// Orders that book time (issue 37): POST /v1/orders with a booking for each unit type, the amount
// fixed at booking, seats, every refusal (invalid_booking with its param, outside_availability,
// time_unavailable) and their place after contract 9's, and the time freed when an order is
// cancelled or expires (its timer, on the test clock). Base clock 2026-10-01T00:00:00Z.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createSeller, createPublishedListing, storedEvents } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { bookingHelpers, newClock } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ clock: newClock() });
});
afterAll(() => ctx.close());
const h = bookingHelpers(() => ctx);
const ALL_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

function refused(res: { status: number; text: string; body: { error: { code: string; param?: string } } }, status: number, code: string, param?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

/** A time listing (60-minute slots, 09:00–17:00 UTC every day) with the given fields and availability. */
async function timeListing(fields: Record<string, unknown> = {}, availability: Record<string, unknown> = {}) {
  const listing = await h.listing('time', fields);
  await h.setAvailability(listing.id, { time_zone: 'UTC', rules: [{ days: ALL_DAYS, start: '09:00', end: '17:00' }], ...availability });
  return listing;
}

describe('booking', () => {
  it('books consecutive slots of a time listing: total = price × slots × seats, fixed at booking, the order answers its booking', async () => {
    const listing = await timeListing({ price: { amount: 2500, currency: 'USD' }, seats: 4 });
    const buyer = await h.buyer();
    const res = await h.book(buyer, listing.id, { start: '2026-10-05T10:00:00Z', end: '2026-10-05T13:00:00Z', seats: 2 });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      object: 'order',
      state: 'committed',
      quantity: 6,
      unit_amount: 2500,
      subtotal: 15_000,
      total: 15_000,
      booking: { start: '2026-10-05T10:00:00.000Z', end: '2026-10-05T13:00:00.000Z', seats: 2, time_zone: 'UTC' },
    });
    expect((await storedEvents(ctx, res.body.id)).map((e) => [e.type, e.data.object.booking])).toEqual([
      ['order.created', res.body.booking],
      ['order.committed', res.body.booking],
    ]);
    // A later price change leaves the order as it was; the listing's units are untouched.
    await ctx.request(`/v1/listings/${listing.id}`, { method: 'PATCH', body: { price: { amount: 9900, currency: 'USD' } } });
    expect((await ctx.request(`/v1/orders/${res.body.id}`)).body).toMatchObject({ total: 15_000, booking: res.body.booking });
    expect((await ctx.request(`/v1/listings/${listing.id}`)).body.quantity_available).toBe(1);
    const slots = await h.slots(listing.id, { start: '2026-10-05T09:00:00Z', end: '2026-10-05T14:00:00Z' });
    expect(slots.map((s) => [s.start.slice(11, 16), s.seats_available])).toEqual([['09:00', 4], ['10:00', 2], ['11:00', 2], ['12:00', 2], ['13:00', 4]]);
  });

  it("books nights of a day listing by dates, end exclusive, in the listing's time zone", async () => {
    const listing = await h.listing('day', { price: { amount: 12_000, currency: 'USD' } });
    await h.setAvailability(listing.id, { time_zone: 'Europe/Berlin', rules: [{ days: ALL_DAYS }] });
    const res = await h.book(await h.buyer(), listing.id, { start: '2026-10-09', end: '2026-10-12' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ quantity: 3, total: 36_000, booking: { start: '2026-10-08T22:00:00.000Z', end: '2026-10-11T22:00:00.000Z', seats: 1, time_zone: 'Europe/Berlin' } });
    // The same nights given as the instants of their local midnights are the same booking: taken now.
    refused(await h.book(await h.buyer(), listing.id, { start: '2026-10-10T00:00:00+02:00', end: '2026-10-11T00:00:00+02:00' }), 409, 'time_unavailable', 'booking');
    // The check-out day is free for the next guest.
    expect((await h.book(await h.buyer(), listing.id, { start: '2026-10-12', end: '2026-10-13' })).status).toBe(201);
  });

  it('lets as many bookings overlap as the listing has seats, then answers time_unavailable', async () => {
    const listing = await timeListing({ seats: 3 });
    const at = { start: '2026-10-06T09:00:00Z', end: '2026-10-06T10:00:00Z' };
    expect((await h.book(await h.buyer(), listing.id, { ...at, seats: 2 })).status).toBe(201);
    refused(await h.book(await h.buyer(), listing.id, { ...at, seats: 2 }), 409, 'time_unavailable', 'booking');
    expect((await h.book(await h.buyer(), listing.id, at)).status).toBe(201);
    refused(await h.book(await h.buyer(), listing.id, at), 409, 'time_unavailable', 'booking');
    // A booking that only overlaps the full slot in part is refused too.
    refused(await h.book(await h.buyer(), listing.id, { start: '2026-10-06T08:00:00Z', end: '2026-10-06T10:00:00Z' }), 409, 'outside_availability');
    refused(await h.book(await h.buyer(), listing.id, { start: '2026-10-06T09:00:00Z', end: '2026-10-06T11:00:00Z' }), 409, 'time_unavailable');
  });
});

describe('refusals', () => {
  it('answers outside_availability for time not offered: off the rules, off the slot grid, closed, within the notice, past the horizon, no availability', async () => {
    const listing = await timeListing({}, {
      exceptions: [{ start: '2026-10-07T00:00:00Z', end: '2026-10-08T00:00:00Z', available: false }],
      min_notice_minutes: 7 * 24 * 60,
      max_advance_days: 30,
    });
    const buyer = await h.buyer();
    const outside = async (start: string, end: string) => refused(await h.book(buyer, listing.id, { start, end }), 409, 'outside_availability', 'booking');
    await outside('2026-10-09T07:00:00Z', '2026-10-09T08:00:00Z'); // before 09:00
    await outside('2026-10-09T09:30:00Z', '2026-10-09T10:30:00Z'); // off the hourly grid
    await outside('2026-10-09T09:00:00Z', '2026-10-09T09:30:00Z'); // ends inside a slot
    await outside('2026-10-09T16:00:00Z', '2026-10-09T18:00:00Z'); // runs past 17:00
    await outside('2026-10-07T10:00:00Z', '2026-10-07T11:00:00Z'); // closed by the exception
    await outside('2026-10-05T10:00:00Z', '2026-10-05T11:00:00Z'); // within the 7 days' notice
    await outside('2026-11-02T10:00:00Z', '2026-11-02T11:00:00Z'); // past the 30 days' horizon
    expect((await h.book(buyer, listing.id, { start: '2026-10-09T09:00:00Z', end: '2026-10-09T11:00:00Z' })).status).toBe(201);
    const bare = await h.listing('time');
    refused(await h.book(buyer, bare.id, { start: '2026-10-09T09:00:00Z', end: '2026-10-09T10:00:00Z' }), 409, 'outside_availability', 'booking');
  });

  it('answers invalid_booking naming the field for a booking that cannot be one', async () => {
    const listing = await timeListing({ seats: 2 });
    const buyer = await h.buyer();
    const book = (booking: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) =>
      h.post('/v1/orders', { buyer, listing: listing.id, ...(booking ? { booking } : {}), ...extra });
    refused(await book(undefined), 400, 'invalid_booking', 'booking');
    refused(await book({ start: '2026-10-09T09:00:00Z', end: '2026-10-09T10:00:00Z' }, { quantity: 2 }), 400, 'invalid_booking', 'quantity');
    refused(await book({ start: 'next monday', end: '2026-10-09T10:00:00Z' }), 400, 'invalid_booking', 'booking.start');
    refused(await book({ start: '2026-10-09', end: '2026-10-10' }), 400, 'invalid_booking', 'booking.start'); // a time listing takes timestamps
    refused(await book({ start: '2026-10-09T09:00:00Z', end: '2026-10-09 10:00' }), 400, 'invalid_booking', 'booking.end');
    refused(await book({ start: '2026-10-09T10:00:00Z', end: '2026-10-09T10:00:00Z' }), 400, 'invalid_booking', 'booking.end');
    refused(await book({ start: '2026-10-09T10:00:00Z', end: '2027-10-11T10:00:00Z' }), 400, 'invalid_booking', 'booking.end');
    refused(await book({ start: '2026-10-09T09:00:00Z', end: '2026-10-09T10:00:00Z', seats: 3 }), 400, 'invalid_booking', 'booking.seats');
    refused(await book({ start: '2026-10-09T09:00:00Z', end: '2026-10-09T10:00:00Z', colour: 'red' }), 400, 'invalid_request');
    const seller = await createSeller(ctx);
    const item = await createPublishedListing(ctx, { seller: seller.id });
    refused(await h.post('/v1/orders', { buyer, listing: item.id, booking: { start: '2026-10-09T09:00:00Z', end: '2026-10-09T10:00:00Z' } }), 400, 'invalid_booking', 'booking');
    // An item listing still takes its orders as before.
    expect((await h.post('/v1/orders', { buyer, listing: item.id })).status).toBe(201);
  });

  it("come after contract 9's: an unknown listing, a listing not published, a self order answer first", async () => {
    const listing = await timeListing();
    const buyer = await h.buyer();
    const bad = { start: 'x', end: 'y' };
    refused(await h.post('/v1/orders', { buyer, listing: 'lst_missing', booking: bad }), 404, 'resource_missing', 'listing');
    await h.post(`/v1/listings/${listing.id}/unpublish`);
    refused(await h.post('/v1/orders', { buyer, listing: listing.id, booking: bad }), 409, 'invalid_state', 'listing');
    await h.post(`/v1/listings/${listing.id}/publish`);
    const seller = (await ctx.request(`/v1/sellers/${listing.seller}`)).body;
    const self = await createBuyer(ctx, { external_id: seller.external_id });
    refused(await h.post('/v1/orders', { buyer: self.id, listing: listing.id, booking: bad }), 403, 'self_order');
    // invalid_booking before outside_availability before time_unavailable.
    const taken = { start: '2026-10-09T09:00:00Z', end: '2026-10-09T10:00:00Z' };
    expect((await h.book(buyer, listing.id, taken)).status).toBe(201);
    refused(await h.book(buyer, listing.id, { ...taken, seats: 2 }), 400, 'invalid_booking', 'booking.seats');
    refused(await h.book(buyer, listing.id, { start: '2026-10-09T08:00:00Z', end: '2026-10-09T10:00:00Z' }), 409, 'outside_availability');
    refused(await h.book(buyer, listing.id, taken), 409, 'time_unavailable');
  });

  it('refuses a listing that sells time in a checkout (booked through POST /v1/orders)', async () => {
    const listing = await timeListing();
    refused(await h.post('/v1/checkouts', { buyer: await h.buyer(), items: [{ listing: listing.id }] }), 400, 'invalid_request', 'items[0].listing');
  });
});

describe('an ended order frees its time', () => {
  it('when it is cancelled, at once', async () => {
    const listing = await timeListing();
    const at = { start: '2026-10-09T09:00:00Z', end: '2026-10-09T10:00:00Z' };
    const order = (await h.book(await h.buyer(), listing.id, at)).body;
    refused(await h.book(await h.buyer(), listing.id, at), 409, 'time_unavailable');
    const cancelled = await h.post(`/v1/orders/${order.id}/cancel`, { reason: 'Platform decision.' });
    expect(cancelled.body).toMatchObject({ state: 'cancelled', booking: order.booking });
    expect((await h.book(await h.buyer(), listing.id, at)).status).toBe(201);
  });

  it('when it expires unclaimed, by its timer on the test clock; a claimed and completed one keeps it', async () => {
    const listing = await timeListing();
    const first = { start: '2026-10-20T09:00:00Z', end: '2026-10-20T10:00:00Z' };
    const second = { start: '2026-10-20T10:00:00Z', end: '2026-10-20T11:00:00Z' };
    const buyer = await h.buyer();
    const expiring = (await h.book(buyer, listing.id, first)).body;
    const kept = (await h.book(buyer, listing.id, second)).body;
    expect((await h.post(`/v1/orders/${kept.id}/claim`, { actor: listing.seller })).status).toBe(200);
    expect((await h.post(`/v1/orders/${kept.id}/confirm`, { actor: buyer })).body.state).toBe('completed');
    expect((await h.post('/v1/test_helpers/clock/advance', { seconds: 8 * 86_400 })).status).toBe(200);
    expect((await ctx.request(`/v1/orders/${expiring.id}`)).body.state).toBe('expired');
    const slots = await h.slots(listing.id, { start: '2026-10-20T09:00:00Z', end: '2026-10-20T11:00:00Z' });
    expect(slots.map((s) => s.start.slice(11, 16))).toEqual(['09:00']);
    expect((await h.book(buyer, listing.id, first)).status).toBe(201);
    refused(await h.book(buyer, listing.id, second), 409, 'time_unavailable');
  });
});

describe('keys', () => {
  it('replays a booking under its Idempotency-Key without holding the time twice', async () => {
    const listing = await timeListing({ seats: 2 });
    const buyer = await h.buyer();
    const body = { buyer, listing: listing.id, booking: { start: '2026-10-09T09:00:00Z', end: '2026-10-09T10:00:00Z' } };
    const headers = { 'idempotency-key': `book-${listing.id}` };
    const first = await ctx.request('/v1/orders', { method: 'POST', body, headers });
    expect(first.status, first.text).toBe(201);
    const again = await ctx.request('/v1/orders', { method: 'POST', body, headers });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const slots = await h.slots(listing.id, { start: '2026-10-09T09:00:00Z', end: '2026-10-09T10:00:00Z' });
    expect(slots.map((s) => s.seats_available)).toEqual([1]);
  });

  it('lets a publishable key read the availability and time slots of a published listing only', async () => {
    const listing = await timeListing();
    const pk = ctx.keys.test.publishable_key;
    expect((await ctx.request(`/v1/listings/${listing.id}/timeslots?start=2026-10-09&end=2026-10-10`, { key: pk })).body.data).toHaveLength(8);
    expect((await ctx.request(`/v1/listings/${listing.id}/availability`, { key: pk })).body.time_zone).toBe('UTC');
    refused(await ctx.request(`/v1/listings/${listing.id}/availability`, { method: 'PUT', key: pk, body: { time_zone: 'UTC', rules: [] } }), 403, 'secret_key_required');
    await h.post(`/v1/listings/${listing.id}/unpublish`);
    refused(await ctx.request(`/v1/listings/${listing.id}/timeslots?start=2026-10-09&end=2026-10-10`, { key: pk }), 404, 'resource_missing');
    refused(await ctx.request(`/v1/listings/${listing.id}/availability`, { key: pk }), 404, 'resource_missing');
  });
});

describe('the booking reminder', () => {
  it("emits order.booking_starting once, booking_reminder_seconds before the start, on the test clock; not for a cancelled order", async () => {
    // A long claim window, so the orders stay committed until their time.
    await ctx.db.query(`UPDATE marketplace_modes SET settings = settings || '{"claim_window_seconds": 8640000}'::jsonb WHERE marketplace_id = $1 AND mode = 'test'`, [ctx.marketplaceId]);
    const listing = await timeListing();
    const buyer = await h.buyer();
    const kept = (await h.book(buyer, listing.id, { start: '2026-11-20T09:00:00Z', end: '2026-11-20T10:00:00Z' })).body;
    const dropped = (await h.book(buyer, listing.id, { start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' })).body;
    expect((await h.post(`/v1/orders/${dropped.id}/cancel`, {})).status).toBe(200);
    const reminders = async (id: string) => (await storedEvents(ctx, id)).filter((e) => e.type === 'order.booking_starting');
    const now = Date.parse((await ctx.request('/v1/test_helpers/clock')).body.now);
    // To one minute before the reminder (a day before 09:00 on 20 November): nothing yet.
    const before = (Date.parse('2026-11-19T09:00:00Z') - now) / 1000 - 60;
    expect((await h.post('/v1/test_helpers/clock/advance', { seconds: before })).status).toBe(200);
    expect(await reminders(kept.id)).toEqual([]);
    expect((await h.post('/v1/test_helpers/clock/advance', { seconds: 120 })).status).toBe(200);
    const sent = await reminders(kept.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data.object).toMatchObject({ id: kept.id, state: 'committed', booking: kept.booking });
    expect(await reminders(dropped.id)).toEqual([]);
    expect((await h.post('/v1/test_helpers/clock/advance', { seconds: 3600 })).status).toBe(200);
    expect(await reminders(kept.id)).toHaveLength(1);
  });
});
