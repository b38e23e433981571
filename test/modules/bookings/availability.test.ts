// Listings that sell time (issue 37): their unit fields, their availability (PUT and GET
// /v1/listings/{id}/availability) and their time slots (GET /v1/listings/{id}/timeslots): rules,
// exceptions, buffer, notice, horizon, seats, paging, and the daylight-saving changes of
// Europe/Berlin (2026-10-25) and America/New_York (2026-11-01). The base clock is pinned at
// 2026-10-01T00:00:00Z (helpers.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { bookingHelpers, newClock } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ clock: newClock() });
});
afterAll(() => ctx.close());
const h = bookingHelpers(() => ctx);
const ALL_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

async function refused(res: { status: number; text: string; body: { error: { code: string; param?: string } } }, status: number, code: string, param?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}

describe("a listing's unit", () => {
  it('is item by default (seats 1, no slot); day and time listings take seats and slot_minutes as their unit wants', async () => {
    const seller = await createSeller(ctx);
    const base = { seller: seller.id, title: 'Flat', price: { amount: 9000, currency: 'USD' } };
    const item = await h.post('/v1/listings', base);
    expect(item.body).toMatchObject({ unit_type: 'item', seats: 1, slot_minutes: null });
    const day = await h.post('/v1/listings', { ...base, unit_type: 'day', seats: 2 });
    expect(day.body).toMatchObject({ unit_type: 'day', seats: 2, slot_minutes: null });
    const time = await h.post('/v1/listings', { ...base, unit_type: 'time', seats: 12, slot_minutes: 45 });
    expect(time.body).toMatchObject({ unit_type: 'time', seats: 12, slot_minutes: 45 });
    await refused(await h.post('/v1/listings', { ...base, unit_type: 'time' }), 400, 'invalid_request', 'slot_minutes');
    await refused(await h.post('/v1/listings', { ...base, unit_type: 'day', slot_minutes: 60 }), 400, 'invalid_request', 'slot_minutes');
    await refused(await h.post('/v1/listings', { ...base, unit_type: 'day', quantity: 3 }), 400, 'invalid_request', 'quantity');
    await refused(await h.post('/v1/listings', { ...base, seats: 2 }), 400, 'invalid_request', 'seats');
    await refused(await h.post('/v1/listings', { ...base, slot_minutes: 30 }), 400, 'invalid_request', 'slot_minutes');
    await refused(await h.post('/v1/listings', { ...base, unit_type: 'hour' }), 400, 'invalid_request', 'unit_type');
    // seats and slot_minutes change later; unit_type is fixed at creation.
    const changed = await ctx.request(`/v1/listings/${time.body.id}`, { method: 'PATCH', body: { seats: 10, slot_minutes: 30 } });
    expect(changed.body).toMatchObject({ seats: 10, slot_minutes: 30 });
    await refused(await ctx.request(`/v1/listings/${item.body.id}`, { method: 'PATCH', body: { seats: 2 } }), 400, 'invalid_request', 'seats');
    await refused(await ctx.request(`/v1/listings/${day.body.id}`, { method: 'PATCH', body: { slot_minutes: 30 } }), 400, 'invalid_request', 'slot_minutes');
    await refused(await ctx.request(`/v1/listings/${day.body.id}`, { method: 'PATCH', body: { quantity: 2 } }), 400, 'invalid_request', 'quantity');
    await refused(await ctx.request(`/v1/listings/${day.body.id}`, { method: 'PATCH', body: { unit_type: 'time' } }), 400, 'invalid_request');
  });
});

describe('availability', () => {
  it('answers nothing offered before it is set, then the rules, and the exceptions in UTC and local time', async () => {
    const listing = await h.listing('day', { seats: 2 });
    const before = await ctx.request(`/v1/listings/${listing.id}/availability`);
    expect(before.body).toEqual({ object: 'availability', listing: listing.id, time_zone: 'UTC', rules: [], exceptions: [], buffer_minutes: 0, min_notice_minutes: 0, max_advance_days: 365, updated_at: null });
    const set = await h.setAvailability(listing.id, {
      time_zone: 'Europe/Berlin',
      rules: [{ days: ['friday', 'saturday', 'sunday'] }, { days: ['monday'], seats: 1 }],
      exceptions: [{ start: '2026-10-25', end: '2026-10-26', available: false, reason: 'Painting' }],
      buffer_minutes: 0,
      min_notice_minutes: 60,
      max_advance_days: 120,
    });
    expect(set).toMatchObject({
      object: 'availability',
      time_zone: 'Europe/Berlin',
      rules: [{ days: ['friday', 'saturday', 'sunday'], start: null, end: null, seats: 2 }, { days: ['monday'], start: null, end: null, seats: 1 }],
      // The local day of the clock change lasts 25 hours: 00:00 CEST to 00:00 CET.
      exceptions: [{ start: '2026-10-24T22:00:00.000Z', end: '2026-10-25T23:00:00.000Z', start_local: '2026-10-25T00:00:00+02:00', end_local: '2026-10-26T00:00:00+01:00', available: false, seats: null, reason: 'Painting' }],
      min_notice_minutes: 60,
      max_advance_days: 120,
      updated_at: '2026-10-01T00:00:00.000Z',
    });
    expect((await ctx.request(`/v1/listings/${listing.id}/availability`)).body).toEqual(set);
  });

  it('refuses an item listing (409), an unknown one (404), and each malformed field (400 naming it)', async () => {
    const seller = await createSeller(ctx);
    const item = (await h.post('/v1/listings', { seller: seller.id, title: 'Shoes', price: { amount: 100, currency: 'USD' } })).body;
    await refused(await h.put(`/v1/listings/${item.id}/availability`, { time_zone: 'UTC', rules: [] }), 409, 'invalid_state');
    await refused(await ctx.request(`/v1/listings/${item.id}/availability`), 409, 'invalid_state');
    await refused(await h.put('/v1/listings/lst_missing/availability', { time_zone: 'UTC', rules: [] }), 404, 'resource_missing');
    const time = await h.listing('time', { seats: 3 });
    const put = (body: Record<string, unknown>) => h.put(`/v1/listings/${time.id}/availability`, { time_zone: 'UTC', rules: [], ...body });
    await refused(await put({ time_zone: 'Mars/Olympus' }), 400, 'invalid_request', 'time_zone');
    await refused(await put({ time_zone: '+01:00' }), 400, 'invalid_request', 'time_zone');
    await refused(await put({ rules: [{ days: ['monday'], end: '10:00' }] }), 400, 'invalid_request', 'rules[0].start');
    await refused(await put({ rules: [{ days: ['monday'], start: '09:00' }] }), 400, 'invalid_request', 'rules[0].end');
    await refused(await put({ rules: [{ days: ['monday'], start: '10:00', end: '09:00' }] }), 400, 'invalid_request', 'rules[0].end');
    await refused(await put({ rules: [{ days: ['monday'], start: '09:00', end: '10:00', seats: 4 }] }), 400, 'invalid_request', 'rules[0].seats');
    await refused(await put({ rules: [{ days: ['someday'], start: '09:00', end: '10:00' }] }), 400, 'invalid_request');
    await refused(await put({ exceptions: [{ start: 'soon', end: '2026-10-02', available: false }] }), 400, 'invalid_request', 'exceptions[0].start');
    await refused(await put({ exceptions: [{ start: '2026-10-02', end: '2026-10-02', available: false }] }), 400, 'invalid_request', 'exceptions[0].end');
    await refused(await put({ exceptions: [{ start: '2026-10-02', end: '2026-10-03', available: false, seats: 1 }] }), 400, 'invalid_request', 'exceptions[0].seats');
    const day = await h.listing('day');
    await refused(await h.put(`/v1/listings/${day.id}/availability`, { time_zone: 'UTC', rules: [{ days: ['monday'], start: '09:00', end: '17:00' }] }), 400, 'invalid_request', 'rules[0].start');
  });
});

describe('time slots', () => {
  it('keep a 09:00–17:00 rule at 09:00–17:00 local across the Berlin change, and step a slot across it in real hours', async () => {
    const listing = await h.listing('time');
    await h.setAvailability(listing.id, { time_zone: 'Europe/Berlin', rules: [{ days: ['saturday', 'monday'], start: '09:00', end: '17:00' }, { days: ['sunday'], start: '01:00', end: '04:00' }] });
    const slots = await h.slots(listing.id, { start: '2026-10-24', end: '2026-10-27' });
    const saturday = slots.filter((s) => s.start_local.startsWith('2026-10-24'));
    const monday = slots.filter((s) => s.start_local.startsWith('2026-10-26'));
    expect(saturday.map((s) => s.start_local.slice(11, 16))).toEqual(['09', '10', '11', '12', '13', '14', '15', '16'].map((x) => `${x}:00`));
    expect(saturday[0]).toEqual({ object: 'timeslot', start: '2026-10-24T07:00:00.000Z', end: '2026-10-24T08:00:00.000Z', start_local: '2026-10-24T09:00:00+02:00', end_local: '2026-10-24T10:00:00+02:00', seats_available: 1 });
    expect(monday[0]).toMatchObject({ start: '2026-10-26T08:00:00.000Z', start_local: '2026-10-26T09:00:00+01:00' });
    expect(monday.at(-1)).toMatchObject({ end: '2026-10-26T16:00:00.000Z', end_local: '2026-10-26T17:00:00+01:00' });
    // 01:00 CEST to 04:00 CET is four real hours: the slot from 02:00 CEST ends at 02:00 CET.
    const night = slots.filter((s) => s.start_local.startsWith('2026-10-25T0'));
    expect(night.map((s) => [s.start, s.start_local, s.end_local])).toEqual([
      ['2026-10-24T23:00:00.000Z', '2026-10-25T01:00:00+02:00', '2026-10-25T02:00:00+02:00'],
      ['2026-10-25T00:00:00.000Z', '2026-10-25T02:00:00+02:00', '2026-10-25T02:00:00+01:00'],
      ['2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00+01:00', '2026-10-25T03:00:00+01:00'],
      ['2026-10-25T02:00:00.000Z', '2026-10-25T03:00:00+01:00', '2026-10-25T04:00:00+01:00'],
    ]);
  });

  it('do the same across the New York change, and a day listing\'s day there lasts 25 hours', async () => {
    const listing = await h.listing('time', { slot_minutes: 90 });
    await h.setAvailability(listing.id, { time_zone: 'America/New_York', rules: [{ days: ['saturday', 'monday'], start: '09:00', end: '12:00' }, { days: ['sunday'], start: '00:00', end: '03:00' }] });
    const slots = await h.slots(listing.id, { start: '2026-10-31', end: '2026-11-03' });
    expect(slots.map((s) => [s.start, s.start_local])).toEqual([
      ['2026-10-31T13:00:00.000Z', '2026-10-31T09:00:00-04:00'],
      ['2026-10-31T14:30:00.000Z', '2026-10-31T10:30:00-04:00'],
      // 00:00 EDT to 03:00 EST is four hours: 90-minute slots from 00:00 and 01:30 EDT (this one ends at 02:00 EST).
      ['2026-11-01T04:00:00.000Z', '2026-11-01T00:00:00-04:00'],
      ['2026-11-01T05:30:00.000Z', '2026-11-01T01:30:00-04:00'],
      ['2026-11-02T14:00:00.000Z', '2026-11-02T09:00:00-05:00'],
      ['2026-11-02T15:30:00.000Z', '2026-11-02T10:30:00-05:00'],
    ]);
    const day = await h.listing('day');
    await h.setAvailability(day.id, { time_zone: 'America/New_York', rules: [{ days: ALL_DAYS }] });
    const days = await h.slots(day.id, { start: '2026-10-31', end: '2026-11-03' });
    expect(days.map((s) => [s.start, s.end, s.start_local])).toEqual([
      ['2026-10-31T04:00:00.000Z', '2026-11-01T04:00:00.000Z', '2026-10-31T00:00:00-04:00'],
      ['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z', '2026-11-01T00:00:00-04:00'],
      ['2026-11-02T05:00:00.000Z', '2026-11-03T05:00:00.000Z', '2026-11-02T00:00:00-05:00'],
    ]);
  });

  it('leave out what a closing exception covers, offer what an opening one opens with its seats', async () => {
    const listing = await h.listing('time', { seats: 4 });
    await h.setAvailability(listing.id, {
      time_zone: 'UTC',
      rules: [{ days: ['monday', 'tuesday'], start: '09:00', end: '12:00', seats: 2 }],
      exceptions: [
        { start: '2026-10-05T10:30:00Z', end: '2026-10-05T11:00:00Z', available: false, reason: 'Dentist' },
        { start: '2026-10-07T14:00:00Z', end: '2026-10-07T16:00:00Z', available: true, seats: 3 },
        { start: '2026-10-06T09:00:00Z', end: '2026-10-06T10:00:00Z', available: true, seats: 4 },
      ],
    });
    const slots = await h.slots(listing.id, { start: '2026-10-05', end: '2026-10-08' });
    expect(slots.map((s) => [s.start.slice(0, 16), s.seats_available])).toEqual([
      ['2026-10-05T09:00', 2],
      ['2026-10-05T11:00', 2],
      ['2026-10-06T09:00', 4], // the opening replaces the rule's slot it overlaps
      ['2026-10-06T10:00', 2],
      ['2026-10-06T11:00', 2],
      ['2026-10-07T14:00', 3], // a Wednesday: no rule, opened by the exception
      ['2026-10-07T15:00', 3],
    ]);
  });

  it('keep the notice and the horizon, answer seats left, and filter by seats', async () => {
    const listing = await h.listing('time', { seats: 3 });
    await h.setAvailability(listing.id, { time_zone: 'UTC', rules: [{ days: ALL_DAYS, start: '00:00', end: '06:00' }], min_notice_minutes: 150, max_advance_days: 10 });
    const first = await h.slots(listing.id, { start: '2026-10-01', end: '2026-10-02' });
    // now is 2026-10-01T00:00Z: the first slot that starts at least 150 minutes ahead is 03:00.
    expect(first.map((s) => s.start.slice(11, 16))).toEqual(['03:00', '04:00', '05:00']);
    const horizon = await h.slots(listing.id, { start: '2026-10-10T00:00:00Z', end: '2026-10-20T00:00:00Z' });
    expect(horizon.map((s) => s.start.slice(0, 13))).toEqual(['2026-10-10T00', '2026-10-10T01', '2026-10-10T02', '2026-10-10T03', '2026-10-10T04', '2026-10-10T05']);
    const buyer = await h.buyer();
    const booked = await h.book(buyer, listing.id, { start: '2026-10-05T01:00:00Z', end: '2026-10-05T02:00:00Z', seats: 2 });
    expect(booked.status, booked.text).toBe(201);
    const after = await h.slots(listing.id, { start: '2026-10-05T00:00:00Z', end: '2026-10-05T03:00:00Z' });
    expect(after.map((s) => [s.start.slice(11, 16), s.seats_available])).toEqual([['00:00', 3], ['01:00', 1], ['02:00', 3]]);
    const two = await h.slots(listing.id, { start: '2026-10-05T00:00:00Z', end: '2026-10-05T03:00:00Z', seats: 2 });
    expect(two.map((s) => s.start.slice(11, 16))).toEqual(['00:00', '02:00']);
  });

  it('keep a buffer free after (and so before) each booking', async () => {
    const listing = await h.listing('time');
    await h.setAvailability(listing.id, { time_zone: 'UTC', rules: [{ days: ALL_DAYS, start: '08:00', end: '13:00' }], buffer_minutes: 30 });
    const booked = await h.book(await h.buyer(), listing.id, { start: '2026-10-05T10:00:00Z', end: '2026-10-05T11:00:00Z' });
    expect(booked.status, booked.text).toBe(201);
    const slots = await h.slots(listing.id, { start: '2026-10-05', end: '2026-10-06' });
    // 09:00–10:00 would leave no 30 minutes before 10:00; 11:00–12:00 starts inside the booking's buffer.
    expect(slots.map((s) => s.start.slice(11, 16))).toEqual(['08:00', '12:00']);
  });

  it('refuse a range beyond 90 days or backwards, and page by start', async () => {
    const listing = await h.listing('time');
    await h.setAvailability(listing.id, { time_zone: 'UTC', rules: [{ days: ALL_DAYS, start: '09:00', end: '17:00' }] });
    const base = `/v1/listings/${listing.id}/timeslots`;
    await refused(await ctx.request(`${base}?start=2026-10-01&end=2027-01-01`), 400, 'invalid_request', 'end');
    await refused(await ctx.request(`${base}?start=2026-10-05&end=2026-10-05`), 400, 'invalid_request', 'end');
    await refused(await ctx.request(`${base}?start=tomorrow&end=2026-10-05`), 400, 'invalid_request', 'start');
    await refused(await ctx.request(`${base}?start=2026-10-05&end=2026-10-06&starting_after=x`), 400, 'invalid_request', 'starting_after');
    expect((await ctx.request(`${base}?start=2026-10-01&end=2026-12-30&limit=1`)).status).toBe(200);
    const page = await ctx.request(`${base}?start=2026-10-05&end=2026-10-06&limit=3`);
    expect(page.body).toMatchObject({ object: 'list', has_more: true, next_cursor: '2026-10-05T11:00:00.000Z' });
    const next = await ctx.request(`${base}?start=2026-10-05&end=2026-10-06&limit=10&starting_after=${page.body.next_cursor}`);
    expect(next.body.data.map((s: { start: string }) => s.start.slice(11, 16))).toEqual(['12:00', '13:00', '14:00', '15:00', '16:00']);
    expect(next.body).toMatchObject({ has_more: false, next_cursor: null });
  });
});
