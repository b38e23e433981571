// Checkouts sharing listings, at once (PostgreSQL only): 40 checkouts of 3 items each over 5
// shared listings with too few units for all, their items in random orders, on a pool wide enough
// for all 40 transactions to run together. No deadlock (the listings are locked in id order
// whatever the items' order), no unit sold twice, each checkout made whole or refused whole, and
// every listing's reserved units equal to its orders'.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { createDb } from '../../../src/db/db.js';
import { postgresDriver } from '../../../src/db/drivers.js';
import type { App, Services } from '../../../src/contracts/wiring.js';
import { buildWiring } from '../../../src/app/wiring.js';
import { closeServices, createApp, createServices } from '../../../src/app/runtime.js';
import { createBuyer, createPublishedListing, createSeller, type Json } from '../../helpers/factories.js';
import { startTestApp, usingPostgres, type TestContext } from '../../helpers/harness.js';

const CHECKOUTS = 40;

describe.skipIf(!usingPostgres)('40 checkouts at once over 5 shared listings', () => {
  let ctx: TestContext;
  let services: Services;
  let app: App;

  beforeAll(async () => {
    ctx = await startTestApp();
    // A second app on the same database whose pool holds every checkout's transaction at once.
    const db = createDb(postgresDriver(ctx.databaseUrl!, CHECKOUTS + 5));
    services = await createServices(ctx.config, { clock: systemClock, db, wiring: buildWiring(ctx.config) });
    app = await createApp(services, { logger: false });
    await app.ready();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    if (services) await closeServices(services);
    await ctx?.close();
  });

  it('no deadlock, no oversell, all or nothing per checkout, counters equal to the orders', async () => {
    const listings: Json[] = [];
    for (let i = 0; i < 5; i++) {
      const seller = await createSeller(ctx);
      listings.push(await createPublishedListing(ctx, { seller: seller.id, quantity: 8 }));
    }
    const buyers = await Promise.all(Array.from({ length: 8 }, () => createBuyer(ctx)));
    const random = (n: number) => Math.floor(Math.random() * n);
    const bodies = Array.from({ length: CHECKOUTS }, (_, i) => ({
      buyer: buyers[i % buyers.length]!.id,
      // Three items over the five listings, in a random order (a listing may come twice).
      items: Array.from({ length: 3 }, () => ({ listing: listings[random(5)]!.id, quantity: 1 + random(2) })),
    }));
    const answers = await Promise.all(
      bodies.map(async (body) => {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/checkouts',
          headers: { authorization: `Bearer ${ctx.keys.test.secret_key}`, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        return { status: res.statusCode, body: JSON.parse(res.body) };
      }),
    );

    for (const answer of answers) {
      if (answer.status !== 201) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(409);
        expect(answer.body.error.code).toBe('quantity_unavailable');
      }
    }
    const made = answers.filter((a) => a.status === 201).map((a) => a.body);
    expect(made.length).toBeGreaterThan(0);
    expect(made.length).toBeLessThan(CHECKOUTS);

    // Whole or nothing: every checkout made has its three orders, every refused one none.
    const orders = await ctx.db.query<{ checkout_id: string; listing_id: string; quantity: number; state: string }>(
      'SELECT checkout_id, listing_id, quantity, state FROM orders WHERE marketplace_id = $1',
      [ctx.marketplaceId],
    );
    expect(orders.length).toBe(made.length * 3);
    for (const checkout of made) {
      expect(orders.filter((o) => o.checkout_id === checkout.id).length).toBe(3);
      expect(checkout.status).toBe('completed');
    }
    expect((await ctx.db.query('SELECT id FROM checkouts WHERE marketplace_id = $1', [ctx.marketplaceId])).length).toBe(made.length);

    // No unit sold twice: each listing's reserved units are exactly its orders', within its quantity.
    for (const listing of listings) {
      const [row] = await ctx.db.query<{ quantity: number; quantity_reserved: number; quantity_sold: number }>(
        'SELECT quantity, quantity_reserved, quantity_sold FROM listings WHERE marketplace_id = $1 AND id = $2',
        [ctx.marketplaceId, listing.id],
      );
      const ordered = orders.filter((o) => o.listing_id === listing.id).reduce((sum, o) => sum + o.quantity, 0);
      expect(row!.quantity_reserved).toBe(ordered);
      expect(row!.quantity_sold).toBe(0);
      expect(ordered).toBeLessThanOrEqual(row!.quantity);
    }
  }, 120_000);
});
