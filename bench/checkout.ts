// Checkouts of 5 items from 5 sellers against single-item orders, both at concurrency 50 on
// PostgreSQL, in the same run: checkouts per second, items per second, p99. The single orders are
// the comparison: a checkout does the work of five orders (five orders, five reservations, their
// transitions, timers and events) plus its own row and events, in one transaction and one request.
//   goal: items per second through checkouts ≥ single orders per second, and no request fails
//
//   npm run bench:checkout                 # DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres
//   BENCH_SECONDS=5 npm run bench:checkout # shorter
//   BENCH_ROUNDS=5 npm run bench:checkout  # more rounds (default 3)
//   BENCH_PAYMENTS=1 npm run bench:checkout  # payments on (the simulated processor), both sides
//
// Each round runs the single orders, then the checkouts (each after its own warm-up), so both see
// the same drift of a shared machine; the goal is checked on the median of the rounds' ratios
// (items per second through checkouts ÷ orders per second). Payments are off by default (the
// mode's default): both sides commit their orders at once, so the comparison is the orders' own
// work. With BENCH_PAYMENTS=1 both sides pay through the simulated processor: an order makes its
// payment, a checkout its charge and a share per order, each started before the answer.
//
// The API runs as its own process (`src/main.ts --role api`, as deployed), so the load generator
// (autocannon) does not share its event loop. A fresh database is created for the run and dropped
// after. See bench/README.md.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { systemClock } from '../src/clock.js';
import { createDb } from '../src/db/db.js';
import { postgresDriver } from '../src/db/drivers.js';
import { createWorkspaceWithOwner } from '../src/modules/accounts/operations.js';
import { createMarketplace } from '../src/modules/marketplaces/operations.js';
import { ADMIN_URL, admin, databaseUrl, startApi } from './postgres.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const SELLERS = 5;
const LISTINGS_PER_SELLER = 2_000;
const ITEMS = 5; // one listing of each seller per checkout
const GOAL = 1; // items per second through checkouts ÷ single orders per second
const PAYMENTS = process.env.BENCH_PAYMENTS === '1';
interface Measured {
  perSecond: number;
  p99: number;
  succeeded: number;
  non2xx: number;
  errors: number;
}

async function load(base: string, path: string, key: string, body: () => string, seconds: number): Promise<Measured> {
  const result = await autocannon({
    url: `${base}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: body() }) }],
  });
  return { perSecond: result.requests.average, p99: result.latency.p99, succeeded: result['2xx'], non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

async function main() {
  const name = `mkt_bench_checkout_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  let api: { child: ChildProcess; base: string } | null = null;
  const db = createDb(postgresDriver(databaseUrl(name), 2));
  try {
    api = await startApi(databaseUrl(name)); // migrates the new database on start
    const { workspace } = await createWorkspaceWithOwner(db, systemClock, { email: 'bench@example.com', password: randomBytes(12).toString('hex'), workspaceName: 'Bench' });
    const { marketplace, api_keys } = await createMarketplace(db, systemClock, { workspaceId: workspace.id, name: 'Bench', currency: 'USD', testProcessor: 'simulated' });
    await db.query(
      `UPDATE marketplace_modes SET settings = settings || jsonb_build_object('rate_limit_per_second', 1000000, 'payments_enabled', $2::boolean) WHERE marketplace_id = $1`,
      [marketplace.id, PAYMENTS],
    );
    const key = api_keys.test.secret_key;
    const post = async (path: string, body: unknown, status = 201) => {
      const res = await fetch(`${api!.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== status) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    const sellers = await Promise.all(Array.from({ length: SELLERS }, (_, i) => post('/v1/sellers', { external_id: `bench-seller-${i}`, name: `Bench seller ${i}` })));
    // With payments on, every seller must be able to receive payouts (the simulated processor's helper).
    if (PAYMENTS) for (const seller of sellers) await post(`/v1/test_helpers/sellers/${seller.id}/payouts`, { status: 'enabled' }, 200);
    const buyers = await Promise.all(Array.from({ length: 20 }, (_, i) => post('/v1/buyers', { external_id: `bench-buyer-${i}` })));
    // Listings written directly (published, as the publish operation leaves them): 2,000 of 1,000
    // units per seller, lst_bench_<seller>_<n>; both workloads draw from all of them.
    for (const [s, seller] of sellers.entries()) {
      await db.query(
        `INSERT INTO listings (marketplace_id, mode, id, seller_id, title, price_amount, currency, quantity, status, published_at, created_at, updated_at)
         SELECT $1, 'test', 'lst_bench_${s}_' || g, $2, 'Bench listing ' || g, 1000 + g, 'USD', 1000, 'published', now(), now(), now()
           FROM generate_series(1, ${LISTINGS_PER_SELLER}) g`,
        [marketplace.id, seller.id],
      );
    }
    await db.query('ANALYZE');

    const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
    const listingOf = (seller: number) => `lst_bench_${seller}_${1 + Math.floor(Math.random() * LISTINGS_PER_SELLER)}`;
    const orderBody = () => JSON.stringify({ buyer: pick(buyers).id, listing: listingOf(Math.floor(Math.random() * SELLERS)) });
    // One listing of each seller, the items in a random order (the reservation locks them sorted).
    const checkoutBody = () => JSON.stringify({ buyer: pick(buyers).id, items: shuffled(Array.from({ length: ITEMS }, (_, s) => ({ listing: listingOf(s % SELLERS) }))) });

    console.log(
      `PostgreSQL ${ADMIN_URL.replace(/\/\/[^@]*@/, '//')} · database ${name} · concurrency ${CONNECTIONS} · ${SELLERS} sellers × ${LISTINGS_PER_SELLER} listings · checkouts of ${ITEMS} items · payments ${PAYMENTS ? 'on (simulated processor)' : 'off'} · ${ROUNDS} rounds of ${SECONDS} s each (warm-up ${WARMUP_SECONDS} s)\n`,
    );
    const rounds: Array<{ orders: Measured; checkouts: Measured; ratio: number }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await load(api.base, '/v1/orders', key, orderBody, WARMUP_SECONDS);
      const orders = await load(api.base, '/v1/orders', key, orderBody, SECONDS);
      await load(api.base, '/v1/checkouts', key, checkoutBody, WARMUP_SECONDS);
      const checkouts = await load(api.base, '/v1/checkouts', key, checkoutBody, SECONDS);
      const ratio = (checkouts.perSecond * ITEMS) / orders.perSecond;
      rounds.push({ orders, checkouts, ratio });
      console.log(
        `  round ${round}: POST /v1/orders ${orders.perSecond.toFixed(0).padStart(5)} orders/s, p99 ${orders.p99} ms, non-2xx ${orders.non2xx}, errors ${orders.errors}` +
          ` · POST /v1/checkouts ${checkouts.perSecond.toFixed(0).padStart(5)} checkouts/s = ${(checkouts.perSecond * ITEMS).toFixed(0).padStart(5)} items/s, p99 ${checkouts.p99} ms, non-2xx ${checkouts.non2xx}, errors ${checkouts.errors}` +
          ` · ${(ratio * 100).toFixed(1)} %`,
      );
    }

    // Let autocannon's last unanswered requests finish, then check what was written: every
    // checkout holds five orders, and the listings' reserved units equal the orders' units.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const [written] = (await db.query<{ checkouts: string; in_checkouts: string; alone: string; short: string; reserved: string; units: string }>(
      `SELECT (SELECT count(*) FROM checkouts WHERE marketplace_id = $1)::text AS checkouts,
              (SELECT count(*) FROM orders WHERE marketplace_id = $1 AND checkout_id IS NOT NULL)::text AS in_checkouts,
              (SELECT count(*) FROM orders WHERE marketplace_id = $1 AND checkout_id IS NULL)::text AS alone,
              (SELECT count(*) FROM checkouts WHERE marketplace_id = $1 AND cardinality(order_ids) <> ${ITEMS})::text AS short,
              (SELECT coalesce(sum(quantity_reserved), 0) FROM listings WHERE marketplace_id = $1)::text AS reserved,
              (SELECT coalesce(sum(quantity), 0) FROM orders WHERE marketplace_id = $1)::text AS units`,
      [marketplace.id],
    )) as [{ checkouts: string; in_checkouts: string; alone: string; short: string; reserved: string; units: string }];
    const consistent = Number(written.in_checkouts) === Number(written.checkouts) * ITEMS && written.short === '0' && written.reserved === written.units;
    console.log(
      `\n  written: ${written.checkouts} checkouts holding ${written.in_checkouts} orders, ${written.alone} single orders; units reserved ${written.reserved}, ordered ${written.units} · ${consistent ? 'consistent' : 'INCONSISTENT'}`,
    );

    const ordersPerSecond = median(rounds.map((r) => r.orders.perSecond));
    const checkoutsPerSecond = median(rounds.map((r) => r.checkouts.perSecond));
    const ratio = median(rounds.map((r) => r.ratio));
    const failures = rounds.reduce((sum, r) => sum + r.orders.non2xx + r.orders.errors + r.checkouts.non2xx + r.checkouts.errors, 0);
    const met = ratio >= GOAL && failures === 0 && consistent;
    console.log(
      `  median: POST /v1/orders ${ordersPerSecond.toFixed(0)} orders/s, p99 ${median(rounds.map((r) => r.orders.p99))} ms · POST /v1/checkouts ${checkoutsPerSecond.toFixed(1)} checkouts/s = ${(checkoutsPerSecond * ITEMS).toFixed(0)} items/s, p99 ${median(rounds.map((r) => r.checkouts.p99))} ms · non-2xx and errors ${failures}`,
    );
    console.log(`  median ratio of items/s through checkouts to orders/s ${(ratio * 100).toFixed(1)} % (goal ≥ ${GOAL * 100} %, no errors) ${met ? 'met' : 'NOT met'}`);
    if (!met) process.exitCode = 1;
  } finally {
    if (api) {
      const exited = new Promise((resolve) => api!.child.once('exit', resolve));
      api.child.kill('SIGTERM');
      await exited;
    }
    await db.close();
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
