// Fair delivery between tenants (docs/webhooks.md), as a hostile tenant would try it: 8 endpoints
// at a receiver that accepts every request and never answers, 80 events (640 attempts hanging
// until their 10 s deadline), and meanwhile another tenant's delivery to a healthy receiver must
// arrive within 2 s (a generous bound: it takes tens of milliseconds on an idle service; both
// figures are printed). Before per-tenant caps the hostile tenant took all 512 slots of the process
// and the other tenant's delivery waited for the deadline (about 10 s).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { createMarketplace } from '../../../src/modules/marketplaces/operations.js';
import { createDeliveryDispatcher } from '../../../src/modules/webhooks/dispatcher.js';
import * as queries from '../../../src/modules/webhooks/queries.js';
import { createSeller } from '../../helpers/factories.js';
import { startTestApp, usingPostgres, type TestContext } from '../../helpers/harness.js';
import { waitFor } from '../../workers/helpers.js';
import { startReceiver, type Receiver } from './helpers.js';

let ctx: TestContext;
let quietReceiver: Receiver;
let hangingReceiver: Receiver;
/** Requests the hanging receiver holds open right now, and the most it held at once. */
let open = 0;
let mostOpen = 0;
let hostile: { id: string; key: string; tenant: string };

beforeAll(async () => {
  ctx = await startTestApp();
  quietReceiver = await startReceiver();
  hangingReceiver = await startReceiver();
  for (let i = 0; i < 8; i++) {
    hangingReceiver.on(`/hang/${i}`, (_req, res) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      res.on('close', () => open--);
    });
  }
  hostile = await otherTenant('Hostile');
}, 180_000);
afterAll(async () => {
  await quietReceiver.close();
  await hangingReceiver.close();
  await ctx.close();
});

/** Another marketplace of the service (its test mode is the tenant), with a key and a high request rate. */
async function otherTenant(name: string): Promise<{ id: string; key: string; tenant: string }> {
  const { marketplace, api_keys } = await createMarketplace(ctx.db, systemClock, { workspaceId: ctx.workspaceId, name, currency: 'USD', testProcessor: 'simulated' });
  await ctx.db.query(`UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '10000') WHERE marketplace_id = $1`, [
    marketplace.id,
  ]);
  return { id: marketplace.id, key: api_keys.test.secret_key, tenant: `${marketplace.id}/test` };
}

async function endpointOf(key: string, url: string): Promise<string> {
  const res = await ctx.request('/v1/webhook_endpoints', { method: 'POST', key, body: { url, enabled_events: ['seller.created'] } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** Makes one seller in the quiet tenant and answers how long its delivery took to arrive (ms). */
async function quietDelivery(): Promise<number> {
  const before = quietReceiver.received.length;
  const started = Date.now();
  await createSeller(ctx);
  await waitFor(() => quietReceiver.received.length > before, 30_000);
  return quietReceiver.received[before]!.at - started;
}

describe('fair delivery between tenants', () => {
  it("keeps another tenant's delivery under 2 s while a tenant's 8 endpoints hang with 80 events in flight", { timeout: 90_000 }, async () => {
    const quiet = await ctx.request('/v1/webhook_endpoints', {
      method: 'POST',
      body: { url: quietReceiver.url('/quiet'), enabled_events: ['seller.created'] },
    });
    expect(quiet.status, quiet.text).toBe(201);
    // The production defaults (512 shared slots, 64 per endpoint, the per-tenant caps).
    const dispatcher = createDeliveryDispatcher(ctx.services);
    dispatcher.start();
    try {
      await quietDelivery(); // warms the path (first connection, compiled code)
      const idleMs = await quietDelivery();

      // The hostile tenant's request sequence: 8 endpoints at the receiver that never answers,
      // then 80 events, each fanned out to all 8.
      for (let i = 0; i < 8; i++) {
        const res = await ctx.request('/v1/webhook_endpoints', {
          method: 'POST',
          key: hostile.key,
          body: { url: hangingReceiver.url(`/hang/${i}`), enabled_events: ['seller.created'] },
        });
        expect(res.status, res.text).toBe(201);
      }
      for (let i = 0; i < 80; i++) await createSeller(ctx, {}, hostile.key);
      // Until the hostile tenant holds every slot it can get: at least its cap of 128 (all 512 of
      // the process before the per-tenant caps), and no new hanging request for 500 ms.
      let seen = -1;
      let stableSince = Date.now();
      await waitFor(() => {
        if (hangingReceiver.received.length !== seen) {
          seen = hangingReceiver.received.length;
          stableSince = Date.now();
        }
        return open >= 128 && Date.now() - stableSince >= 500;
      }, 60_000);
      const hanging = open;

      const busyMs = await quietDelivery();
      console.log(
        `fairness (${usingPostgres ? 'postgres' : 'pglite'}): quiet tenant's delivery ${idleMs} ms idle, ${busyMs} ms while ${hanging} attempts of the hostile tenant hang`,
      );
      expect(hanging).toBeGreaterThanOrEqual(128);
      expect(busyMs).toBeLessThan(2_000);
      // The hostile tenant's own deliveries are all still waiting (its cost, not the others').
      const stuck = await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE marketplace_id <> $1 AND status = 'pending'`,
        [ctx.marketplaceId],
      );
      expect(Number(stuck[0]!.n)).toBe(640);
    } finally {
      // Hanging requests are cut (the receiver closes their sockets) so the dispatcher stops at once.
      await hangingReceiver.close();
      await dispatcher.stop();
      // Its endpoints and their backlog go, so the tests below start from a quiet service.
      await ctx.db.query('DELETE FROM webhook_deliveries WHERE marketplace_id = $1', [hostile.id]);
      await ctx.db.query('DELETE FROM webhook_endpoints WHERE marketplace_id = $1', [hostile.id]);
    }
  });

  it("takes the tenants' rows in turns: thousands of one tenant's due rows neither crowd out nor hold back another's", { timeout: 60_000 }, async () => {
    const flood = await otherTenant('Flood');
    const single = await otherTenant('Single');
    await endpointOf(flood.key, 'http://127.0.0.1:9/flood');
    await endpointOf(single.key, 'http://127.0.0.1:9/single');
    await createSeller(ctx, {}, flood.key);
    for (let i = 0; i < 2; i++) await createSeller(ctx, {}, single.key);
    // 3,000 more due rows of the flood tenant, all due an hour before the other tenant's (each of an
    // event of its own: one pending delivery per endpoint and event; the claim reads no body of a missing event).
    await ctx.db.query(
      `INSERT INTO webhook_deliveries (marketplace_id, mode, id, endpoint_id, event_id, event_type, object_id, status, next_attempt_at, created_at)
       SELECT marketplace_id, mode, id || 'f' || g, endpoint_id, event_id || 'f' || g, event_type, object_id, status, next_attempt_at - interval '1 hour', created_at
         FROM webhook_deliveries, generate_series(1, 3000) AS g WHERE marketplace_id = $1`,
      [flood.id],
    );
    const claim = (over: Partial<queries.ClaimRequest>) =>
      queries.claimDueDeliveries(ctx.db, {
        realNow: new Date(),
        limit: 16,
        scan: 16,
        fullEndpoints: [],
        partialEndpoints: [],
        partialSlots: [],
        perEndpoint: 64,
        fullTenants: [],
        partialTenants: [],
        tenantSlots: [],
        perTenant: 128,
        lockedBy: 'fairness#1',
        leaseMs: 30_000,
        horizonMs: 200,
        only: null,
        ...over,
      });
    const tenantsOf = (rows: queries.ClaimedRow[]) => rows.map((row) => row.marketplace_id);
    try {
      // Older rows do not win the batch: each tenant's first turn comes before anyone's second.
      const first = await claim({});
      expect(first).toHaveLength(16);
      expect(tenantsOf(first).filter((id) => id === single.id)).toHaveLength(2);
      // A tenant's slots left in this process bound what it gives.
      const second = await claim({ partialTenants: [flood.tenant], tenantSlots: [3], lockedBy: 'fairness#2' });
      expect(tenantsOf(second).filter((id) => id === flood.id)).toHaveLength(3);
      // A tenant at its cap is passed over, and the claim goes on for the others.
      await createSeller(ctx, {}, single.key);
      const third = await claim({ fullTenants: [flood.tenant], lockedBy: 'fairness#3' });
      expect(tenantsOf(third)).toContain(single.id);
      expect(tenantsOf(third)).not.toContain(flood.id);
    } finally {
      await ctx.db.query('DELETE FROM webhook_deliveries WHERE marketplace_id = ANY($1::text[])', [[flood.id, single.id]]);
    }
  });

  it('keeps the per-endpoint and per-tenant caps in each of several worker processes', { timeout: 90_000 }, async () => {
    const receiver = await startReceiver();
    const openByPath = new Map<string, number>();
    const mostByPath = new Map<string, number>();
    let openNow = 0;
    let mostNow = 0;
    for (let i = 0; i < 4; i++) {
      receiver.on(`/hang/${i}`, (req, res) => {
        const path = req.url!;
        openByPath.set(path, (openByPath.get(path) ?? 0) + 1);
        mostByPath.set(path, Math.max(mostByPath.get(path) ?? 0, openByPath.get(path)!));
        mostNow = Math.max(mostNow, ++openNow);
        res.on('close', () => {
          openByPath.set(path, openByPath.get(path)! - 1);
          openNow--;
        });
      });
    }
    const second = await otherTenant('Hostile, twice');
    for (let i = 0; i < 4; i++) await endpointOf(second.key, receiver.url(`/hang/${i}`));
    for (let i = 0; i < 20; i++) await createSeller(ctx, {}, second.key);
    // Two workers (two dispatchers, as two processes would run them), with small caps.
    const caps = { maxInFlight: 16, perEndpoint: 2, perTenant: 5, reserve: 4, reservedPerTenant: 1, maxPollMs: 20 };
    const workers = [createDeliveryDispatcher(ctx.services, caps), createDeliveryDispatcher(ctx.services, caps)];
    for (const worker of workers) worker.start();
    try {
      await waitFor(() => openNow >= 10, 30_000);
      const busyMs = await quietDelivery();
      // Each process kept the hostile tenant to its 5 slots and each endpoint to 2: 10 and 4 in all.
      expect(mostNow).toBe(10);
      expect(Math.max(...mostByPath.values())).toBeLessThanOrEqual(4);
      expect(busyMs).toBeLessThan(2_000);
    } finally {
      await receiver.close();
      for (const worker of workers) await worker.stop();
    }
  });
});
