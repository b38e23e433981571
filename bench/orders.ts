// Order creation against PostgreSQL at concurrency 50, beside two ceilings measured in the same
// run with pgbench (-M prepared -c 8 -j 2) on the same listings:
//   minimal: the minimal order transaction (reserve one unit by a conditional UPDATE … RETURNING,
//            INSERT the order, INSERT its event);
//   same:    the very statements one order of the API issues, captured from the API process
//            (DB_STATEMENT_LOG) and replayed with fresh values per transaction, with the same
//            transaction boundaries and socket writes (bench/orders-replay.ts).
// For each, the database's execution time per order, from pg_stat_statements reset for the bench
// database before each phase. Two cases:
//   (a) orders spread over 10,000 listings: ≥ 85 % of the same-statement pgbench's rate; database
//       time per order ≤ 1.3 × the minimal transaction's; then a paced phase at half the median
//       orders/s: p99 < 25 ms
//   (b) all on one listing of 1,000,000 units: no errors, ≥ 100 % of the minimal pgbench's rate
//
//   npm run bench:orders                 # DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres
//   BENCH_SECONDS=5 npm run bench:orders # shorter
//   BENCH_ROUNDS=5 npm run bench:orders  # more rounds (default 3)
//
// Each case runs BENCH_ROUNDS rounds, each both pgbench scripts then the API (after a warm-up), so
// all see the same drift of a shared machine; the goals are checked on the medians (of the rates,
// of the rounds' ratios, of the p99s, of the database times). It exits non-zero when one is missed.
//
// The API runs as its own process (`src/main.ts --role api`, as deployed), so the load generator
// (autocannon, here) does not share its event loop. A fresh database is created for the run and
// dropped after. See bench/README.md.
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Agent, request } from 'undici';
import { systemClock } from '../src/clock.js';
import { createDb, type Db } from '../src/db/db.js';
import { postgresDriver } from '../src/db/drivers.js';
import { createWorkspaceWithOwner } from '../src/modules/accounts/operations.js';
import { createMarketplace } from '../src/modules/marketplaces/operations.js';
import { enableStatements, measureDb, pgbench, pgbenchPaced, printCost, replayScript, type Captured, type DbCost, type ReplayShape } from './orders-replay.js';
import { ADMIN_URL, admin, databaseUrl, startService } from './postgres.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const LISTINGS = 10_000;
const BUYERS = 20;
const HOT_UNITS = 1_000_000;
const GOALS = { sameRatio: 0.85, dbTimeRatio: 1.3, pacedP99Ms: 25, hotRatio: 1.0 };

interface Measured {
  perSecond: number;
  p50: number;
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
  return { perSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

/**
 * Open-loop paced load: one `POST /v1/orders` every 1/rate s over up to CONNECTIONS keep-alive
 * connections, each answer timed from its send. Not autocannon's overallRate: that gives each
 * connection a quota per second and sends it back to back at the start of every second (a burst of
 * the whole second's requests), and its coordinated-omission correction then records synthetic
 * samples at a 1 ms interval; neither is a steady half load.
 */
async function pacedOrders(base: string, key: string, body: () => string, seconds: number, rate: number): Promise<Measured> {
  const agent = new Agent({ connections: CONNECTIONS });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const send = async (): Promise<void> => {
    const sent = performance.now();
    try {
      const answer = await request(`${base}/v1/orders`, { method: 'POST', headers, body: body(), dispatcher: agent });
      await answer.body.dump();
      if (answer.statusCode < 200 || answer.statusCode > 299) non2xx++;
      latencies.push(performance.now() - sent);
    } catch {
      errors++;
    }
  };
  const total = Math.round(seconds * rate);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send());
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  await agent.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN);
  return { perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), non2xx, errors };
}

/** pgbench's minimal order transaction on the same tables. */
function minimalScript(shape: ReplayShape): string {
  return [
    ...shape.setLines,
    'BEGIN;',
    `UPDATE listings SET quantity_reserved = quantity_reserved + 1 WHERE marketplace_id = :mkt AND mode = 'test' AND id = ${shape.listingSql} AND quantity - quantity_reserved - quantity_sold >= 1 RETURNING seller_id;`,
    `INSERT INTO orders (marketplace_id, mode, id, buyer_id, seller_id, listing_id, quantity, unit_amount, subtotal, fee_amount, total, currency, state, units, payment_method, metadata, created_at, updated_at) VALUES (:mkt, 'test', 'ord_pgb_' || gen_random_uuid(), ${shape.buyerSql}, :seller, ${shape.listingSql}, 1, 1000, 1000, 0, 1000, 'USD', 'committed', 'reserved', 'checkout_session', '{}', now(), now());`,
    `INSERT INTO events (marketplace_id, mode, id, type, object_id, data, created_at) VALUES (:mkt, 'test', 'evt_pgb_' || gen_random_uuid(), 'order.created', 'ord_pgb', '{"object": {"id": "ord_pgb"}}', now());`,
    'END;',
    '',
  ].join('\n');
}

/**
 * The statements of one order, from an API process started for the capture with DB_STATEMENT_LOG:
 * three orders one after the other, the last one's statements kept (the first warms the key cache).
 */
async function captureOrder(url: string, dir: string, key: string, body: string): Promise<Captured[]> {
  const log = join(dir, 'statements.jsonl');
  const api = await startService(url, 'api', { DB_STATEMENT_LOG: log });
  const read = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
  try {
    let from = 0;
    for (let i = 0; i < 3; i++) {
      from = read().length;
      const res = await fetch(`${api.base}/v1/orders`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      if (res.status !== 201) throw new Error(`capture: POST /v1/orders ${res.status} ${await res.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const entries = read().slice(from).map((line) => JSON.parse(line) as Captured);
    if (!entries.some((e) => e.sql === 'BEGIN') || !entries.some((e) => e.sql === 'COMMIT')) throw new Error('capture: no transaction among the order\'s statements');
    return entries;
  } finally {
    await stop(api.child);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

interface Round {
  minimal: { tps: number; cost: DbCost };
  same: { tps: number; cost: DbCost };
  api: { m: Measured; cost: DbCost };
}

async function main() {
  const name = `mkt_bench_orders_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = databaseUrl(name);
  const dir = mkdtempSync(join(tmpdir(), 'bench-orders-'));
  let api: { child: ChildProcess; base: string } | null = null;
  const db: Db = createDb(postgresDriver(url, 2));
  try {
    api = await startService(url, 'api'); // migrates the new database on start
    await enableStatements(db);
    const { workspace } = await createWorkspaceWithOwner(db, systemClock, { email: 'bench@example.com', password: randomBytes(12).toString('hex'), workspaceName: 'Bench' });
    const { marketplace, api_keys } = await createMarketplace(db, systemClock, { workspaceId: workspace.id, name: 'Bench', currency: 'USD' });
    await db.query(`UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '1000000') WHERE marketplace_id = $1`, [marketplace.id]);
    const key = api_keys.test.secret_key;
    const res = await fetch(`${api.base}/v1/sellers`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ external_id: 'bench-seller', name: 'Bench seller' }) });
    if (res.status !== 201) throw new Error(`POST /v1/sellers: ${res.status} ${await res.text()}`);
    const seller = (await res.json()) as { id: string };
    // Buyers and listings written directly (as the API leaves them), with ids pgbench can make:
    // 20 buyers; 10,000 published listings of 1,000 units for (a), one of 1,000,000 for (b).
    await db.query(
      `INSERT INTO buyers (marketplace_id, mode, id, external_id, created_at, updated_at)
       SELECT $1, 'test', 'byr_bench_' || g, 'bench-buyer-' || g, now(), now() FROM generate_series(1, ${BUYERS}) g`,
      [marketplace.id],
    );
    await db.query(
      `INSERT INTO listings (marketplace_id, mode, id, seller_id, title, price_amount, currency, quantity, status, published_at, created_at, updated_at)
       SELECT $1, 'test', 'lst_bench_' || g, $2, 'Bench listing ' || g, 1000, 'USD', 1000, 'published', now(), now(), now()
         FROM generate_series(1, ${LISTINGS}) g
       UNION ALL
       SELECT $1, 'test', 'lst_bench_hot', $2, 'Hot listing', 1000, 'USD', ${HOT_UNITS}, 'published', now(), now(), now()`,
      [marketplace.id, seller.id],
    );
    await db.exec('ANALYZE');

    const buyerSql = `'byr_bench_' || :b`;
    const randomBuyer = () => `byr_bench_${1 + Math.floor(Math.random() * BUYERS)}`;
    // The captured order is made by byr_bench_1 on lst_bench_1: those values become the case's expressions.
    const existing = [marketplace.id, seller.id];
    const shapes = {
      spread: { existing, listing: 'lst_bench_1', listingSql: `'lst_bench_' || :l`, buyer: 'byr_bench_1', buyerSql, setLines: [`\\set l random(1, ${LISTINGS})`, `\\set b random(1, ${BUYERS})`] },
      hot: { existing, listing: 'lst_bench_1', listingSql: `'lst_bench_hot'`, buyer: 'byr_bench_1', buyerSql, setLines: [`\\set b random(1, ${BUYERS})`] },
    } satisfies Record<string, ReplayShape>;
    const captured = await captureOrder(url, dir, key, JSON.stringify({ buyer: 'byr_bench_1', listing: 'lst_bench_1' }));
    const minimalVars = { mkt: marketplace.id, seller: seller.id };
    const cases = [
      {
        label: '(a) 10,000 listings',
        shape: shapes.spread,
        body: () => JSON.stringify({ buyer: randomBuyer(), listing: `lst_bench_${1 + Math.floor(Math.random() * LISTINGS)}` }),
      },
      {
        label: '(b) one listing, 1,000,000 units',
        shape: shapes.hot,
        body: () => JSON.stringify({ buyer: randomBuyer(), listing: 'lst_bench_hot' }),
      },
    ];
    console.log(`PostgreSQL ${ADMIN_URL.replace(/\/\/[^@]*@/, '//')} · database ${name} · API concurrency ${CONNECTIONS} · ${ROUNDS} rounds of ${SECONDS} s each (warm-up ${WARMUP_SECONDS} s) · load average ${load()}`);
    console.log(`One order's statements, captured from the API (DB_STATEMENT_LOG): ${captured.length}, in ${new Set(captured.map((e) => e.write)).size} socket writes`);
    for (const e of captured) console.log(`  write ${String(e.write).padStart(3)} ${e.tx === null ? 'outside' : 'in tx  '} ${e.sql.replace(/\s+/g, ' ').slice(0, 100)}`);
    console.log(`Goals: (a) ≥ ${pct(GOALS.sameRatio)} of the same-statement pgbench; database time per order ≤ ${GOALS.dbTimeRatio} × the minimal transaction's; p99 < ${GOALS.pacedP99Ms} ms paced at half the median orders/s. (b) no errors, ≥ ${pct(GOALS.hotRatio)} of the minimal pgbench.\n`);
    let failed = false;
    for (const c of cases) {
      console.log(c.label);
      const same = replayScript(captured, c.shape);
      const rounds: Round[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const minimal = await measureDb(db, async () => pgbench(dir, url, 'minimal', minimalScript(c.shape), minimalVars, SECONDS));
        const replayed = await measureDb(db, async () => pgbench(dir, url, 'same', same.script, same.vars, SECONDS));
        await loadOrders(api.base, key, c.body, WARMUP_SECONDS);
        const measured = await measureDb(db, () => loadOrders(api!.base, key, c.body, SECONDS));
        const r: Round = {
          minimal: { tps: minimal.result.tps, cost: minimal.cost },
          same: { tps: replayed.result.tps, cost: replayed.cost },
          api: { m: measured.result, cost: measured.cost },
        };
        rounds.push(r);
        const m = r.api.m;
        console.log(
          `  round ${round}: pgbench minimal ${r.minimal.tps.toFixed(0)} tx/s · same statements ${r.same.tps.toFixed(0)} tx/s · POST /v1/orders ${m.perSecond.toFixed(0)} orders/s, p99 ${m.p99} ms, non-2xx ${m.non2xx}, errors ${m.errors} · ${pct(m.perSecond / r.same.tps)} of same, ${pct(m.perSecond / r.minimal.tps)} of minimal · load ${load()}`,
        );
        printCost('minimal pgbench', r.minimal.cost);
        printCost('same-statement pgbench', r.same.cost);
        printCost('POST /v1/orders', r.api.cost);
      }
      const perSecond = median(rounds.map((r) => r.api.m.perSecond));
      const p99 = median(rounds.map((r) => r.api.m.p99));
      const ofSame = median(rounds.map((r) => r.api.m.perSecond / r.same.tps));
      const ofMinimal = median(rounds.map((r) => r.api.m.perSecond / r.minimal.tps));
      const msMinimal = median(rounds.map((r) => r.minimal.cost.msPerOrder));
      const msSame = median(rounds.map((r) => r.same.cost.msPerOrder));
      const msApi = median(rounds.map((r) => r.api.cost.msPerOrder));
      const failures = rounds.reduce((sum, r) => sum + r.api.m.non2xx + r.api.m.errors, 0);
      console.log(
        `  median: pgbench minimal ${median(rounds.map((r) => r.minimal.tps)).toFixed(0)} tx/s, same statements ${median(rounds.map((r) => r.same.tps)).toFixed(0)} tx/s · POST /v1/orders ${perSecond.toFixed(0)} orders/s, p99 ${p99} ms · non-2xx and errors ${failures}`,
      );
      console.log(`  median database execution per order: minimal ${msMinimal.toFixed(3)} ms · same statements ${msSame.toFixed(3)} ms · API ${msApi.toFixed(3)} ms (${(msApi / msMinimal).toFixed(2)} × minimal)`);
      const wal = (pick: (r: Round) => DbCost) => median(rounds.map((r) => pick(r).walBytesPerOrder)).toFixed(0);
      const buffers = (pick: (r: Round) => DbCost) => median(rounds.map((r) => pick(r).buffersPerOrder)).toFixed(1);
      console.log(`  median per order, buffers and WAL bytes: minimal ${buffers((r) => r.minimal.cost)}, ${wal((r) => r.minimal.cost)} · same statements ${buffers((r) => r.same.cost)}, ${wal((r) => r.same.cost)} · API ${buffers((r) => r.api.cost)}, ${wal((r) => r.api.cost)}`);
      if (c.shape === shapes.spread) {
        const rate = Math.max(1, Math.round(perSecond / 2));
        const paced = await pacedOrders(api.base, key, c.body, SECONDS, rate);
        const pacedSame = pgbenchPaced(dir, url, 'same-paced', same.script, same.vars, SECONDS, rate);
        console.log(`  reference: the same-statement pgbench paced at ${rate} tx/s: p50 ${pacedSame.p50Ms.toFixed(1)} ms, p99 ${pacedSame.p99Ms.toFixed(1)} ms (the database alone at this rate)`);
        const goals = [
          { what: `${pct(ofSame)} of the same-statement pgbench (goal ≥ ${pct(GOALS.sameRatio)})`, met: ofSame >= GOALS.sameRatio },
          { what: `database time per order ${(msApi / msMinimal).toFixed(2)} × the minimal transaction's (goal ≤ ${GOALS.dbTimeRatio})`, met: msApi <= GOALS.dbTimeRatio * msMinimal },
          { what: `paced at ${rate} orders/s (half the median): ${paced.perSecond.toFixed(0)} orders/s, p50 ${paced.p50} ms, p99 ${paced.p99} ms (goal < ${GOALS.pacedP99Ms} ms), non-2xx ${paced.non2xx}, errors ${paced.errors}`, met: paced.p99 < GOALS.pacedP99Ms && paced.non2xx + paced.errors === 0 },
          { what: `no failed order in any round (${failures})`, met: failures === 0 },
        ];
        for (const g of goals) console.log(`  ${g.what}: ${verdict(g.met)}`);
        if (goals.some((g) => !g.met)) failed = true;
      } else {
        const met = ofMinimal >= GOALS.hotRatio && failures === 0;
        console.log(`  ${pct(ofMinimal)} of the minimal pgbench (goal ≥ ${pct(GOALS.hotRatio)}, no errors; ${pct(ofSame)} of the same-statement one): ${verdict(met)}`);
        if (!met) failed = true;
      }
      console.log('');
    }
    console.log(`load average at the end ${load()}`);
    if (failed) process.exitCode = 1;
  } finally {
    if (api) {
      // autocannon leaves its last requests unanswered when its time is up: let them finish first.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await stop(api.child);
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
