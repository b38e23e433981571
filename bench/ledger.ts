// The ledger at scale (issue 25, "What it must show"): about 1,000,000 ledger lines, then
//   1. GET /v1/balance_transactions?seller=<the busiest seller>&limit=100: the first page, a deep
//      page (a cursor 50,000 lines in), and with created[gte], type and order: latency median and
//      p95 over BENCH_REQUESTS sequential requests each;                 goal: p95 < 50 ms
//      and the plan each request ran (auto_explain, below):              goal: one index walk, no
//      sort, no seq scan, rows read ≈ the page (at most twice the page)
//   2. GET /v1/sellers/{id}/balance of the busiest seller (it aggregates): latency and plan;
//   3. a month's balance_summary report over ~100,000 lines: POST /v1/reports to succeeded, and the
//      job's own time (from its claim to its outcome);                  goal: < 10 s
//
//   npm run bench:ledger                  # DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres
//   BENCH_REQUESTS=100 npm run bench:ledger
//
// The service runs as its own process (`src/main.ts --role all`: the API and a worker, which builds
// the report) on a fresh database, dropped after. The lines are written by SQL (bench/ledger-seed.ts).
// The plans: after the measurements that service stops and a second one starts whose connections
// load auto_explain (bench/ledger-plans.ts); each case's request runs there after six of the same
// statement (a named prepared statement may take its generic plan from the sixth call on), and the
// plan it ran is read from the PostgreSQL server's log. See bench/README.md and docs/ledger.md.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { systemClock } from '../src/clock.js';
import { createDb } from '../src/db/db.js';
import { postgresDriver } from '../src/db/drivers.js';
import { createWorkspaceWithOwner } from '../src/modules/accounts/operations.js';
import { createMarketplace } from '../src/modules/marketplaces/operations.js';
import { seedLedger } from './ledger-seed.js';
import { AUTO_EXPLAIN_OPTIONS, SERVER_LOG, logSize, planBody, planShape, plansSince } from './ledger-plans.js';
import { ADMIN_URL, admin, databaseUrl, startService } from './postgres.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const SELLERS = 2_000;
const PAGE = 100;
const DEEP_OFFSET = 50_000;
const LIST_P95_GOAL_MS = 50;
const REPORT_GOAL_MS = 10_000;

type Service = { child: ChildProcess; base: string };

interface Case {
  label: string;
  path: string;
  /** Lines the answer must hold (the page unless the filter has fewer). */
  expect: number;
  list: boolean;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function stop(service: Service | null): Promise<void> {
  if (!service || service.child.exitCode !== null) return;
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGTERM');
  await exited;
}

function client(base: string, key: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  return { get: (path: string) => call('GET', path), post: (path: string, body: unknown) => call('POST', path, body) };
}

async function timed(get: (path: string) => Promise<Record<string, unknown>>, c: Case, requests: number): Promise<{ median: number; p95: number }> {
  const check = (body: Record<string, unknown>) => {
    const got = c.list ? (body.data as unknown[]).length : 1;
    if (got !== c.expect) throw new Error(`${c.label}: ${got} lines, expected ${c.expect}`);
  };
  for (let i = 0; i < WARMUP; i++) check(await get(c.path));
  const ms: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    const body = await get(c.path);
    ms.push(performance.now() - start);
    check(body);
  }
  return { median: percentile(ms, 50), p95: percentile(ms, 95) };
}

const load = () => loadavg().map((value) => value.toFixed(1)).join(' ');

async function main() {
  const name = `mkt_bench_ledger_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const url = databaseUrl(name);
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  let service: Service | null = null;
  const db = createDb(postgresDriver(url, 2));
  const sql = new pg.Client({ connectionString: url });
  let failed = false;
  const miss = (what: string) => {
    failed = true;
    console.log(`  NOT met: ${what}`);
  };
  try {
    service = await startService(url, 'all'); // migrates the new database on start
    await sql.connect();
    const { workspace } = await createWorkspaceWithOwner(db, systemClock, { email: 'bench@example.com', password: randomBytes(12).toString('hex'), workspaceName: 'Bench' });
    const { marketplace, api_keys } = await createMarketplace(db, systemClock, { workspaceId: workspace.id, name: 'Bench', currency: 'USD' });
    await db.query(`UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '1000000') WHERE marketplace_id = $1`, [marketplace.id]);
    const key = api_keys.test.secret_key;
    let api = client(service.base, key);

    const sellerIds: string[] = [];
    for (let i = 0; i < SELLERS; i += 10) {
      const made = await Promise.all(Array.from({ length: 10 }, (_, j) => api.post('/v1/sellers', { external_id: `bench-seller-${i + j}`, name: `Seller ${i + j}` })));
      sellerIds.push(...made.map((seller) => seller.id as string));
    }
    const now = new Date();
    let start = performance.now();
    const lines = await seedLedger(sql, marketplace.id, sellerIds, now);
    const seedSeconds = (performance.now() - start) / 1000;

    const [busy] = (await sql.query<{ seller_id: string; n: string }>(`SELECT seller_id, count(*) AS n FROM ledger_lines GROUP BY 1 ORDER BY 2 DESC LIMIT 1`)).rows;
    const seller = busy!.seller_id;
    const [deep] = (await sql.query<{ id: string }>(`SELECT id FROM ledger_lines WHERE seller_id = $1 ORDER BY id DESC OFFSET ${DEEP_OFFSET} LIMIT 1`, [seller])).rows;
    const [order] = (await sql.query<{ order_id: string; n: string }>(
      `SELECT order_id, count(*) AS n FROM ledger_lines WHERE seller_id = $1 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`, [seller])).rows;
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const [month] = (await sql.query<{ n: string }>(`SELECT count(*) AS n FROM ledger_lines WHERE created_at >= $1 AND created_at < $2`, [monthStart, monthEnd])).rows;
    const [refunds] = (await sql.query<{ n: string }>(`SELECT count(*) AS n FROM ledger_lines WHERE seller_id = $1 AND type = 'refund'`, [seller])).rows;
    const gte = Math.floor(monthStart.getTime() / 1000);
    console.log(`PostgreSQL ${ADMIN_URL.replace(/\/\/[^@]*@/, '//')} · database ${name} · load average ${load()}`);
    console.log(`seeded ${lines.toLocaleString('en')} ledger lines in ${seedSeconds.toFixed(1)} s (${SELLERS} sellers, INSERT … SELECT generate_series, then VACUUM ANALYZE)`);
    console.log(`busiest seller ${seller}: ${Number(busy!.n).toLocaleString('en')} lines (${Number(refunds!.n)} refund lines); ${monthStart.toISOString().slice(0, 7)}: ${Number(month!.n).toLocaleString('en')} lines\n`);

    const base = `/v1/balance_transactions?seller=${seller}&limit=${PAGE}`;
    const cases: Case[] = [
      { label: 'seller, first page', path: base, expect: PAGE, list: true },
      { label: `seller, deep page (cursor ${DEEP_OFFSET.toLocaleString('en')} lines in)`, path: `${base}&starting_after=${deep!.id}`, expect: PAGE, list: true },
      { label: 'seller + created[gte] (last month)', path: `${base}&created[gte]=${gte}`, expect: PAGE, list: true },
      { label: 'seller + type=refund', path: `${base}&type=refund`, expect: Math.min(PAGE, Number(refunds!.n)), list: true },
      { label: 'order', path: `/v1/balance_transactions?order=${order!.order_id}&limit=${PAGE}`, expect: Number(order!.n), list: true },
      { label: 'seller + order', path: `${base}&order=${order!.order_id}`, expect: Number(order!.n), list: true },
      { label: 'type=refund (no seller)', path: `/v1/balance_transactions?type=refund&limit=${PAGE}`, expect: PAGE, list: true },
      { label: 'account=platform_fees', path: `/v1/balance_transactions?account=platform_fees&limit=${PAGE}`, expect: PAGE, list: true },
    ];
    const balance: Case = { label: 'GET /v1/sellers/{id}/balance (busiest seller)', path: `/v1/sellers/${seller}/balance`, expect: 1, list: false };

    console.log(`GET /v1/balance_transactions, ${REQUESTS} sequential requests per case after ${WARMUP} warm-up (goal: p95 < ${LIST_P95_GOAL_MS} ms)`);
    const latencies = new Map<string, { median: number; p95: number }>();
    for (const c of [...cases, balance]) {
      const m = await timed(api.get, c, c.list ? REQUESTS : Math.max(20, Math.floor(REQUESTS / 4)));
      latencies.set(c.label, m);
      console.log(`  ${c.label.padEnd(48)} median ${m.median.toFixed(1).padStart(6)} ms · p95 ${m.p95.toFixed(1).padStart(6)} ms`);
      if (c.list && m.p95 >= LIST_P95_GOAL_MS) miss(`${c.label}: p95 ${m.p95.toFixed(1)} ms`);
    }

    console.log(`\nbalance_summary report of ${monthStart.toISOString().slice(0, 7)} (${Number(month!.n).toLocaleString('en')} lines; goal: < ${REPORT_GOAL_MS / 1000} s), load average ${load()}`);
    start = performance.now();
    const report = await api.post('/v1/reports', { type: 'balance_summary', interval_start: gte, interval_end: Math.floor(monthEnd.getTime() / 1000) });
    let claimedAt: Date | null = null;
    let done: Record<string, unknown>;
    for (;;) {
      if (claimedAt === null) {
        // A running job's lease ends leaseMs (10 min, src/modules/reports/job.ts) after its claim.
        const [job] = (await sql.query<{ claimed: Date }>(`SELECT locked_until - interval '10 minutes' AS claimed FROM jobs WHERE kind = 'report.build' AND subject_id = $1 AND status = 'running'`, [report.id])).rows;
        claimedAt = job?.claimed ?? null;
      }
      done = await api.get(`/v1/reports/${report.id as string}`);
      if (done.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const reportMs = performance.now() - start;
    const file = done.file as { rows: number; size: number } | null;
    const jobMs = claimedAt === null ? null : new Date(done.completed_at as string).getTime() - claimedAt.getTime();
    console.log(`  status ${done.status as string}: POST to ${done.status as string} ${(reportMs / 1000).toFixed(2)} s · the job's own time (claim to outcome) ${jobMs === null ? 'not seen' : `${(jobMs / 1000).toFixed(2)} s`} · ${file ? `${file.rows} rows, ${file.size} bytes` : String(done.failure)}`);
    if (done.status !== 'succeeded' || reportMs >= REPORT_GOAL_MS) miss(`report: ${done.status as string} in ${(reportMs / 1000).toFixed(2)} s`);

    // The plans: the same requests on a service whose connections log every plan (auto_explain).
    await stop(service);
    service = null;
    service = await startService(url, 'api', { PGOPTIONS: AUTO_EXPLAIN_OPTIONS });
    api = client(service.base, key);
    console.log(`\nPlans (auto_explain of the request's statements on ledger_lines, from ${SERVER_LOG}; the request after six of the same):`);
    for (const c of [...cases, balance]) {
      for (let i = 0; i < 6; i++) await api.get(c.path);
      const offset = logSize();
      await api.get(c.path);
      await new Promise((resolve) => setTimeout(resolve, 200)); // the server writes its log asynchronously
      const plans = plansSince(offset, name);
      console.log(`\n### ${c.label}\n`);
      if (plans.length === 0) {
        console.log('(no plan found in the log)');
        if (c.list) miss(`${c.label}: no plan captured`);
        continue;
      }
      for (const plan of plans) console.log(planBody(plan), '\n');
      if (!c.list) continue;
      const shape = planShape(plans[plans.length - 1]!);
      const walk = shape.indexScans.length === 1 && shape.seqScans === 0 && shape.sorts === 0 && shape.bitmapScans === 0;
      const limit = Math.max(c.expect, 1) + 1;
      const read = shape.rowsRead <= 2 * limit;
      console.log(`-> ${shape.indexScans.join(', ') || 'no index scan'}; sorts ${shape.sorts}, seq scans ${shape.seqScans}, bitmap scans ${shape.bitmapScans}; rows read ${shape.rowsRead} for a page of ${c.expect} (goal: one index walk, rows read ≤ ${2 * limit})`);
      if (!walk) miss(`${c.label}: not one index walk`);
      if (!read) miss(`${c.label}: ${shape.rowsRead} rows read for a page of ${c.expect}`);
    }
    console.log(`\nload average at the end ${load()}`);
    console.log(failed ? '\nSome goals were NOT met.' : '\nAll goals met.');
    if (failed) process.exitCode = 1;
  } finally {
    await stop(service);
    await sql.end().catch(() => undefined);
    await db.close();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
