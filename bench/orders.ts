// Order creation against PostgreSQL at concurrency 50, beside the database's own ceiling measured
// in the same run: pgbench (-M prepared -c 8 -j 2) running the minimal order transaction (reserve
// one unit by a conditional UPDATE … RETURNING, INSERT the order, INSERT its event) on the same
// listings. Two cases:
//   (a) orders spread over 10,000 listings   goal: ≥ 60 % of pgbench's rate, p99 < 50 ms
//   (b) all on one listing of 1,000,000 units goal: no errors, ≥ 50 % of pgbench's rate
//
//   npm run bench:orders                 # DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres
//   BENCH_SECONDS=5 npm run bench:orders # shorter
//   BENCH_ROUNDS=5 npm run bench:orders  # more rounds (default 3)
//
// Each case runs BENCH_ROUNDS rounds, each pgbench then the API (after a warm-up), so both see the
// same drift of a shared machine; the goals are checked on the medians (of the rates, of the
// rounds' ratios, of the p99s).
//
// The API runs as its own process (`src/main.ts --role api`, as deployed), so the load generator
// (autocannon, here) does not share its event loop. A fresh database is created for the run and
// dropped after. See bench/README.md.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
const LISTINGS = 10_000;
const HOT_UNITS = 1_000_000;
interface Measured {
  perSecond: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function loadOrders(base: string, key: string, body: () => string, seconds: number): Promise<Measured> {
  const result = await autocannon({
    url: `${base}/v1/orders`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: body() }) }],
  });
  return { perSecond: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

/** pgbench's rate for the minimal order transaction; `listing` is a pgbench expression for the listing id. */
function pgbench(dir: string, name: string, vars: Record<string, string>, listingSql: string, setLine: string, seconds: number): { tps: number; latencyMs: number } {
  const script = join(dir, `${name}.sql`);
  writeFileSync(
    script,
    [
      setLine,
      'BEGIN;',
      `UPDATE listings SET quantity_reserved = quantity_reserved + 1 WHERE marketplace_id = :mkt AND mode = 'test' AND id = ${listingSql} AND quantity - quantity_reserved - quantity_sold >= 1 RETURNING seller_id;`,
      `INSERT INTO orders (marketplace_id, mode, id, buyer_id, seller_id, listing_id, quantity, unit_amount, subtotal, fee_amount, total, currency, state, units, payment_method, metadata, created_at, updated_at) VALUES (:mkt, 'test', 'ord_pgb_' || gen_random_uuid(), :buyer, :seller, ${listingSql}, 1, 1000, 1000, 0, 1000, 'USD', 'committed', 'reserved', 'checkout_session', '{}', now(), now());`,
      `INSERT INTO events (marketplace_id, mode, id, type, object_id, data, created_at) VALUES (:mkt, 'test', 'evt_pgb_' || gen_random_uuid(), 'order.created', 'ord_pgb', '{"object": {"id": "ord_pgb"}}', now());`,
      'END;',
      '',
    ].join('\n'),
  );
  const url = new URL(databaseUrl(vars.db!));
  const args = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres'), '-n', '-M', 'prepared', '-c', '8', '-j', '2', '-T', String(seconds), '-f', script];
  for (const [k, v] of Object.entries(vars)) if (k !== 'db') args.push('-D', `${k}=${v}`);
  args.push(vars.db!);
  const out = execFileSync('pgbench', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
  if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${out}`);
  return { tps, latencyMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main() {
  const name = `mkt_bench_orders_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const dir = mkdtempSync(join(tmpdir(), 'bench-orders-'));
  let api: { child: ChildProcess; base: string } | null = null;
  const db = createDb(postgresDriver(databaseUrl(name), 2));
  try {
    api = await startApi(databaseUrl(name)); // migrates the new database on start
    const { workspace } = await createWorkspaceWithOwner(db, systemClock, { email: 'bench@example.com', password: randomBytes(12).toString('hex'), workspaceName: 'Bench' });
    const { marketplace, api_keys } = await createMarketplace(db, systemClock, { workspaceId: workspace.id, name: 'Bench', currency: 'USD' });
    await db.query(`UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '1000000') WHERE marketplace_id = $1`, [marketplace.id]);
    const key = api_keys.test.secret_key;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${api!.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    const seller = await post('/v1/sellers', { external_id: 'bench-seller', name: 'Bench seller' });
    const buyers = await Promise.all(Array.from({ length: 20 }, (_, i) => post('/v1/buyers', { external_id: `bench-buyer-${i}` })));
    // Listings written directly (published, as the publish operation leaves them): 10,000 of 1,000
    // units for (a), one of 1,000,000 for (b).
    await db.query(
      `INSERT INTO listings (marketplace_id, mode, id, seller_id, title, price_amount, currency, quantity, status, published_at, created_at, updated_at)
       SELECT $1, 'test', 'lst_bench_' || g, $2, 'Bench listing ' || g, 1000, 'USD', 1000, 'published', now(), now(), now()
         FROM generate_series(1, ${LISTINGS}) g
       UNION ALL
       SELECT $1, 'test', 'lst_bench_hot', $2, 'Hot listing', 1000, 'USD', ${HOT_UNITS}, 'published', now(), now(), now()`,
      [marketplace.id, seller.id],
    );
    await db.query('ANALYZE');

    const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
    const vars = { db: name, mkt: marketplace.id, buyer: buyers[0]!.id, seller: seller.id };
    const cases = [
      {
        label: '(a) 10,000 listings',
        body: () => JSON.stringify({ buyer: pick(buyers).id, listing: `lst_bench_${1 + Math.floor(Math.random() * LISTINGS)}` }),
        ceiling: () => pgbench(dir, 'spread', vars, `'lst_bench_' || :l`, `\\set l random(1, ${LISTINGS})`, SECONDS),
        goal: 0.6,
        p99Goal: 50,
      },
      {
        label: '(b) one listing, 1,000,000 units',
        body: () => JSON.stringify({ buyer: pick(buyers).id, listing: 'lst_bench_hot' }),
        ceiling: () => pgbench(dir, 'hot', vars, `'lst_bench_hot'`, '\\set l 0', SECONDS),
        goal: 0.5,
        p99Goal: Infinity,
      },
    ];
    console.log(`PostgreSQL ${ADMIN_URL.replace(/\/\/[^@]*@/, '//')} · database ${name} · API concurrency ${CONNECTIONS} · ${ROUNDS} rounds of ${SECONDS} s each (warm-up ${WARMUP_SECONDS} s)\n`);
    let failed = false;
    for (const c of cases) {
      console.log(c.label);
      const rounds: Array<{ tps: number; m: Measured; ratio: number }> = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const ceiling = c.ceiling();
        await loadOrders(api.base, key, c.body, WARMUP_SECONDS);
        const m = await loadOrders(api.base, key, c.body, SECONDS);
        const ratio = m.perSecond / ceiling.tps;
        rounds.push({ tps: ceiling.tps, m, ratio });
        console.log(
          `  round ${round}: pgbench ${ceiling.tps.toFixed(0).padStart(6)} tx/s (avg ${ceiling.latencyMs.toFixed(2)} ms) · POST /v1/orders ${m.perSecond.toFixed(0).padStart(6)} orders/s, p99 ${m.p99} ms, non-2xx ${m.non2xx}, errors ${m.errors} · ${(ratio * 100).toFixed(1)} %`,
        );
      }
      const tps = median(rounds.map((r) => r.tps));
      const perSecond = median(rounds.map((r) => r.m.perSecond));
      const p99 = median(rounds.map((r) => r.m.p99));
      const ratio = median(rounds.map((r) => r.ratio));
      const failures = rounds.reduce((sum, r) => sum + r.m.non2xx + r.m.errors, 0);
      const met = ratio >= c.goal && p99 < c.p99Goal && failures === 0;
      console.log(`  median: pgbench (-M prepared -c 8 -j 2) ${tps.toFixed(0)} tx/s · POST /v1/orders (c = ${CONNECTIONS}) ${perSecond.toFixed(0)} orders/s, p99 ${p99} ms · non-2xx and errors ${failures}`);
      console.log(`  median ratio ${(ratio * 100).toFixed(1)} % (goal ≥ ${c.goal * 100} %${Number.isFinite(c.p99Goal) ? `, p99 < ${c.p99Goal} ms` : ', no errors'}) ${met ? 'met' : 'NOT met'}\n`);
      if (!met) failed = true;
    }
    if (failed) process.exitCode = 1;
  } finally {
    if (api) {
      // autocannon leaves its last requests unanswered when its time is up: let them finish first.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const exited = new Promise((resolve) => api!.child.once('exit', resolve));
      api.child.kill('SIGTERM');
      await exited;
    }
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
