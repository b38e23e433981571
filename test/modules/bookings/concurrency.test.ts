// No double booking across processes (PostgreSQL only, durability tier): two API processes
// (`src/main.ts --role api`) on one database take 200 bookings at once for 20
// overlapping intervals of one listing with 3 seats. Every answer is 201 or 409 time_unavailable,
// and at no instant do the bookings made hold more than 3 seats. The exclusion constraint of
// booked_seats is shown to refuse an overlap on one seat written below the API.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/ports.js';
import { createBuyer } from '../../helpers/factories.js';
import { startTestApp, TEST_SECRET_KEY, usingPostgres, type TestContext } from '../../helpers/harness.js';
import { bookingHelpers } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HOUR = 3_600_000;

async function startApi(databaseUrl: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'api'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET_KEY, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const giveUpAt = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { child, base };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > giveUpAt) throw new Error(`API process did not start:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!usingPostgres)('200 concurrent bookings for 20 overlapping intervals of a listing with 3 seats', () => {
  let ctx: TestContext;
  const apis: Array<{ child: ChildProcess; base: string }> = [];
  const h = bookingHelpers(() => ctx);

  beforeAll(async () => {
    ctx = await startTestApp();
    apis.push(...(await Promise.all([startApi(ctx.databaseUrl!), startApi(ctx.databaseUrl!)])));
  }, 120_000);

  afterAll(async () => {
    for (const { child } of apis) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await ctx?.close();
  });

  it('each answer is 201 or 409 time_unavailable; never more than 3 seats held at an instant', async () => {
    const listing = await h.listing('time', { seats: 3 });
    await h.setAvailability(listing.id, { time_zone: 'UTC', rules: [{ days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'], start: '00:00', end: '24:00' }] });
    const buyers = await Promise.all(Array.from({ length: 10 }, () => createBuyer(ctx)));
    // A day 30 days ahead (UTC midnight): 20 intervals of 1 to 3 hours starting in its first 10 hours.
    const day = Math.floor((Date.now() + 30 * 24 * HOUR) / (24 * HOUR)) * 24 * HOUR;
    const intervals = Array.from({ length: 20 }, (_, k) => ({ start: day + (k % 10) * HOUR, end: day + (k % 10) * HOUR + (1 + (k % 3)) * HOUR }));
    const targets = apis.map((api) => api.base);

    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const interval = intervals[i % 20]!;
        const seats = i % 7 === 0 ? 2 : 1;
        const res = await fetch(`${targets[i % targets.length]!}/v1/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ctx.keys.test.secret_key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ buyer: buyers[i % 10]!.id, listing: listing.id, booking: { start: new Date(interval.start).toISOString(), end: new Date(interval.end).toISOString(), seats } }),
        });
        return { status: res.status, body: (await res.json()) as { id?: string; booking?: { start: string; end: string; seats: number }; error?: { code: string } } };
      }),
    );
    for (const answer of answers) {
      if (answer.status !== 201) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(409);
        expect(answer.body.error?.code).toBe('time_unavailable');
      }
    }
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThan(0);

    // The orders stored agree with the answers, and at every boundary their seats sum to at most 3.
    const orders = await ctx.db.query<{ id: string; booking_start: Date; booking_end: Date; booking_seats: number }>(
      'SELECT id, booking_start, booking_end, booking_seats FROM orders WHERE marketplace_id = $1 AND listing_id = $2',
      [ctx.marketplaceId, listing.id],
    );
    expect(new Set(orders.map((o) => o.id))).toEqual(new Set(created.map((a) => a.body.id)));
    const instants = [...new Set(orders.flatMap((o) => [new Date(o.booking_start).getTime(), new Date(o.booking_end).getTime()]))];
    let busiest = 0;
    for (const at of instants) {
      const held = orders.filter((o) => new Date(o.booking_start).getTime() <= at && at < new Date(o.booking_end).getTime()).reduce((sum, o) => sum + o.booking_seats, 0);
      busiest = Math.max(busiest, held);
    }
    expect(busiest).toBeLessThanOrEqual(3);
    expect(busiest).toBe(3); // 200 requests for 20 intervals fill the busiest hour
    const seats = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM booked_seats WHERE marketplace_id = $1 AND listing_id = $2', [ctx.marketplaceId, listing.id]);
    expect(seats[0]!.n).toBe(orders.reduce((sum, o) => sum + o.booking_seats, 0));
  }, 120_000);

  it('the exclusion constraint refuses a second hold of one seat at an overlapping time, whatever the code above it does', async () => {
    const listing = await h.listing('time', { seats: 3 });
    await h.setAvailability(listing.id, { time_zone: 'UTC', rules: [{ days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'], start: '00:00', end: '24:00' }] });
    const day = Math.floor((Date.now() + 40 * 24 * HOUR) / (24 * HOUR)) * 24 * HOUR;
    const buyer = await createBuyer(ctx);
    const booked = await h.book(buyer.id, listing.id, { start: new Date(day + HOUR).toISOString(), end: new Date(day + 2 * HOUR).toISOString() });
    expect(booked.status, booked.text).toBe(201);
    const other = await h.book(buyer.id, listing.id, { start: new Date(day + 5 * HOUR).toISOString(), end: new Date(day + 6 * HOUR).toISOString() });
    await ctx.db.query('DELETE FROM booked_seats WHERE marketplace_id = $1 AND order_id = $2', [ctx.marketplaceId, other.body.id]);
    const overlap = ctx.db.query(
      "INSERT INTO booked_seats (marketplace_id, mode, order_id, seat_index, listing_id, during) VALUES ($1, 'test', $2, 0, $3, tstzrange($4::timestamptz, $5::timestamptz))",
      [ctx.marketplaceId, other.body.id, listing.id, new Date(day + HOUR + HOUR / 2), new Date(day + 3 * HOUR)],
    );
    await expect(overlap).rejects.toMatchObject({ code: '23P01' });
  });
});
