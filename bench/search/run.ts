// Search benchmark (docs/search.md, bench/README.md): for each catalogue size (100,000 and
// 1,000,000 listings by default, kept between runs in bench_search_<size>, see data.ts), starts the
// real service on PostgreSQL and measures, over HTTP with a publishable key at concurrency 20, each
// query of a fixed mix in turn: p50/p95/p99 latency and queries per second, then the same query one
// request at a time (its service time, without queueing). The ceiling is GET /v1/listings?limit=20
// (the same stack answering a page of the same 20-listing size from one index walk), measured in
// the same run; each query's rate is also given as a share of it. GET /v1/listings/{id} (one
// primary-key read) is measured beside it. Each size starts by loading the catalogue into shared
// buffers (pg_prewarm, memory.ts) and printing shared_buffers beside the catalogue's size. Before
// the load, the plans of the mix's statements are printed with EXPLAIN (ANALYZE, BUFFERS) when
// BENCH_SEARCH_EXPLAIN=1. The one-at-a-time phase also gives, from pg_stat_statements, the
// statements and their execution time per request. Goals, checked at 1,000,000 listings (exit 1 on a miss): every query of the
// mix within 2 × the ceiling's p95 at concurrency 20, and under 20 ms p95 one request at a time.
//
//   npm run bench:search
//   BENCH_SEARCH_SIZES=100000 BENCH_SECONDS=5 npm run bench:search
//   BENCH_SEARCH_EXPLAIN=1 BENCH_SEARCH_SIZES=1000000 BENCH_SECONDS=0 npm run bench:search   # plans only
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { systemClock } from '../../src/clock.js';
import { parseConfig } from '../../src/config.js';
import { createDb, type Db, type Queryable } from '../../src/db/db.js';
import { postgresDriver } from '../../src/db/drivers.js';
import type { OperationContext } from '../../src/contracts/context.js';
import type { SearchListingsQuery } from '../../src/modules/listings/schemas.js';
import { searchListings } from '../../src/modules/listings/search/operations.js';
import { closeServices, createApp, createServices } from '../../src/app/runtime.js';
import { ensureCatalogue, type BenchCatalogue } from './data.js';
import { prewarmCatalogue } from './memory.js';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '100000,1000000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const EXPLAIN = process.env.BENCH_SEARCH_EXPLAIN === '1';
const CONCURRENCY = 20;
const SEQUENTIAL_SECONDS = Number(process.env.BENCH_SEQUENTIAL_SECONDS ?? 3);
// Goals (issue 27, item 4), checked at 1,000,000 listings: each query of the mix has a p95 at
// concurrency 20 within GOAL_CEILING_RATIO × the ceiling's p95 of the same run (a ratio, so it
// holds on a slower or busier machine), and a p95 one request at a time under GOAL_ALONE_P95_MS.
const GOAL_CEILING_RATIO = 2;
const GOAL_ALONE_P95_MS = 20;
const GOAL_SIZE = 1_000_000;
const DEEP_PAGE = 50;

type Query = Record<string, string | number>;
interface MixEntry {
  name: string;
  /** Variants, taken in turn, so a query is not one statement repeated. */
  queries: Query[];
  /** Reached by following next_cursor this many pages first (the measured request is the last page). */
  page?: number;
}

function mix(c: BenchCatalogue): MixEntry[] {
  const price = { min_price: 5000, max_price: 50000 };
  return [
    // "condition" is in about half the catalogue, "great", "excellent" and "shipping" in 35–42 %.
    { name: 'common word, relevance', queries: ['condition', 'great', 'excellent'].map((q) => ({ q, sort: 'relevance' })) },
    { name: 'two words, relevance', queries: ['great condition', 'excellent shipping', 'perfect condition'].map((q) => ({ q, sort: 'relevance' })) },
    { name: 'q + category + price range', queries: ['vintage', 'lamp', 'oak'].map((q) => ({ q, category: c.rootId, ...price })) },
    {
      name: 'attribute equality + numeric range',
      queries: ['red', 'blue', 'black'].map((color) => ({ category: c.leafId, 'attributes[color]': color, 'attributes[size][gte]': 38, 'attributes[size][lte]': 42 })),
    },
    { name: 'no q, by price', queries: [{ sort: 'price_asc' }, { sort: 'price_desc' }, { sort: 'price_asc', min_price: 10000 }] },
    { name: `page ${DEEP_PAGE}, common word, relevance`, queries: [{ q: 'condition', sort: 'relevance' }], page: DEEP_PAGE },
    { name: `page ${DEEP_PAGE}, category by price`, queries: [{ category: c.rootId, sort: 'price_asc' }], page: DEEP_PAGE },
  ];
}

const toUrl = (base: string, query: Query) => `${base}/v1/search/listings?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`;

/** Follows next_cursor to the wanted page and returns that page's query. */
async function deepQuery(base: string, key: string, query: Query, page: number): Promise<Query> {
  let cursor: string | null = null;
  for (let at = 1; at < page; at++) {
    const res = await fetch(toUrl(base, { ...query, ...(cursor ? { cursor } : {}) }), { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { next_cursor: string | null };
    if (!body.next_cursor) throw new Error(`${JSON.stringify(query)} has fewer than ${page} pages`);
    cursor = body.next_cursor;
  }
  return { ...query, cursor: cursor! };
}

interface Measured {
  requests: number;
  qps: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
}

// The load runs in a worker thread so the generator does not share the server's event loop:
// CONCURRENCY loops, each one request at a time over keep-alive connections.
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, key, seconds, concurrency } = workerData;
const headers = { authorization: 'Bearer ' + key };
(async () => {
  const latencies = [];
  let failures = 0, next = 0;
  const end = performance.now() + seconds * 1000;
  async function loop() {
    while (performance.now() < end) {
      const url = urls[next++ % urls.length];
      const started = performance.now();
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      } catch { failures++; }
      latencies.push(performance.now() - started);
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  parentPort.postMessage({ latencies, failures, elapsed: performance.now() - started });
})();
`;

function load(urls: string[], key: string, seconds: number, concurrency = CONCURRENCY): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, { eval: true, workerData: { urls, key, seconds, concurrency } });
    worker.once('error', reject);
    worker.once('message', (result: { latencies: number[]; failures: number; elapsed: number }) => {
      const sorted = result.latencies.sort((a, b) => a - b);
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
      resolve({ requests: sorted.length, qps: sorted.length / (result.elapsed / 1000), p50: at(50), p95: at(95), p99: at(99), failures: result.failures });
      void worker.terminate();
    });
  });
}

/** A Queryable that prints each statement's plan (EXPLAIN ANALYZE) before running it. */
function explaining(db: Db, print: (text: string) => void): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      // Search's statements begin with the PLAN_EACH_CALL comment.
      if (/^\s*(\/\*[^*]*\*\/\s*)?(SELECT|WITH)\b[\s\S]*\bFROM listings\b/.test(sql)) {
        const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
        print(plan.map((row) => `    ${row['QUERY PLAN']}`).join('\n'));
      }
      return db.query<T>(sql, params);
    },
  };
}

/** The database's work per request, from pg_stat_statements over the one-at-a-time phase. */
interface DbWork {
  statements: number;
  execMs: number;
}
type Result = { name: string; m: Measured; alone: Measured; work: DbWork | null };

const THIS_DB = '(SELECT oid FROM pg_database WHERE datname = current_database())';

/**
 * pg_stat_statements' counters of this database only (the server's are shared with other work):
 * null when the extension is not loaded. Execution time only; planning is not tracked by default.
 */
async function statementCounters(db: Db): Promise<{ reset(): Promise<void>; read(): Promise<DbWork> } | null> {
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.query('SELECT 1 FROM pg_stat_statements LIMIT 1');
  } catch {
    return null;
  }
  return {
    async reset() {
      await db.query(`SELECT pg_stat_statements_reset(0, ${THIS_DB}, 0)`);
    },
    async read() {
      const [row] = await db.query<{ calls: string | null; ms: number | null }>(
        `SELECT sum(calls)::text AS calls, sum(total_exec_time) AS ms FROM pg_stat_statements WHERE dbid = ${THIS_DB} AND query NOT LIKE '%pg_stat_statements%'`,
      );
      return { statements: Number(row?.calls ?? 0), execMs: Number(row?.ms ?? 0) };
    },
  };
}

async function benchSize(size: number, log: (line: string) => void): Promise<Result[]> {
  const catalogue = await ensureCatalogue(ADMIN_URL, size, log);
  const db = createDb(postgresDriver(catalogue.url, CONCURRENCY));
  await prewarmCatalogue(db, log);
  // SEARCH_RELEVANCE_CANDIDATES passes through, to measure what the relevance bound costs.
  const config = parseConfig({
    DATABASE_URL: catalogue.url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    ...(process.env.SEARCH_RELEVANCE_CANDIDATES ? { SEARCH_RELEVANCE_CANDIDATES: process.env.SEARCH_RELEVANCE_CANDIDATES } : {}),
  });
  const services = await createServices(config, { clock: systemClock, db });
  const app = await createApp(services, { logger: false });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const key = catalogue.publishableKey;
    const entries = mix(catalogue);
    for (const entry of entries) {
      if (entry.page) entry.queries = await Promise.all(entry.queries.map((q) => deepQuery(base, key, q, entry.page!)));
    }
    if (EXPLAIN) {
      const ctx = {
        db: explaining(db, log) as unknown as Db,
        clock: systemClock,
        config,
        hooks: services.hooks,
        background: services.background,
        scope: { marketplaceId: catalogue.marketplaceId, mode: 'test' },
        currency: 'USD',
        viewer: 'publishable',
      } satisfies OperationContext;
      for (const entry of entries) {
        log(`\n  plan: ${entry.name} ${JSON.stringify({ ...entry.queries[0], cursor: entry.queries[0]!.cursor ? '…' : undefined })}`);
        // As the HTTP layer hands them over: attribute filters are text.
        const query = Object.fromEntries(Object.entries(entry.queries[0]!).map(([k, v]) => [k, k.startsWith('attributes[') ? String(v) : v]));
        await searchListings(ctx, query as unknown as SearchListingsQuery);
      }
    }
    if (SECONDS <= 0) return [];
    const ids = (await db.query<{ id: string }>(`SELECT id FROM listings WHERE status = 'published' ORDER BY hashtext(id) LIMIT 500`)).map((row) => row.id);
    const runs: Array<{ name: string; urls: string[] }> = [
      { name: 'ceiling: GET /v1/listings?limit=20', urls: [`${base}/v1/listings?limit=20`, `${base}/v1/listings?limit=20&status=published`] },
      { name: 'GET /v1/listings/{id}', urls: ids.map((id) => `${base}/v1/listings/${id}`) },
      ...entries.map((entry) => ({ name: entry.name, urls: entry.queries.map((q) => toUrl(base, q)) })),
    ];
    const counters = await statementCounters(db);
    const results: Result[] = [];
    for (const run of runs) {
      for (const url of run.urls) {
        const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
      }
      await load(run.urls, key, WARMUP_SECONDS);
      const m = await load(run.urls, key, SECONDS);
      // One request at a time: the service time without the queueing that 20 clients on a
      // shared machine add.
      // Its statements are counted: per request, how many and their execution time (load-independent
      // enough to compare with the ceiling's on a busy machine).
      await counters?.reset();
      const alone = await load(run.urls, key, SEQUENTIAL_SECONDS, 1);
      const counted = counters ? await counters.read() : null;
      const work = counted && alone.requests > 0 ? { statements: counted.statements / alone.requests, execMs: counted.execMs / alone.requests } : null;
      results.push({ name: run.name, m, alone, work });
      log(
        `  ${run.name.padEnd(40)} ${m.qps.toFixed(0).padStart(6)} q/s  p50 ${m.p50.toFixed(1).padStart(6)} ms  p95 ${m.p95.toFixed(1).padStart(6)} ms  ` +
          `p99 ${m.p99.toFixed(1).padStart(6)} ms  failed ${m.failures + alone.failures}  ·  alone p50 ${alone.p50.toFixed(1)} ms p95 ${alone.p95.toFixed(1)} ms` +
          (work ? `  ·  ${work.statements.toFixed(1)} statements, ${work.execMs.toFixed(2)} ms executing per request` : ''),
      );
    }
    return results;
  } finally {
    await app.close();
    await closeServices(services);
  }
}

async function main() {
  const log = (line: string) => console.log(line);
  log(`search bench · concurrency ${CONCURRENCY} · warm-up ${WARMUP_SECONDS} s · ${SECONDS} s per query · PostgreSQL ${ADMIN_URL.replace(/\/\/[^@]*@/, '//')}`);
  const tables: string[] = [];
  let missed = false;
  for (const size of SIZES) {
    log(`\n${size.toLocaleString('en')} listings`);
    const results = await benchSize(size, log);
    if (results.length === 0) continue;
    const ceiling = results[0]!.m;
    const lines = [
      `| ${size.toLocaleString('en')} listings, concurrency ${CONCURRENCY} | q/s | p50 ms | p95 ms | p99 ms | q/s share of ceiling | p95 / ceiling's p95 | alone: p50 ms | alone: p95 ms | statements / request | DB execution ms / request |`,
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...results.map(
        ({ name, m, alone, work }) =>
          `| ${name} | ${m.qps.toFixed(0)} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} | ${m.p99.toFixed(1)} | ${((m.qps / ceiling.qps) * 100).toFixed(0)} % | ${(m.p95 / ceiling.p95).toFixed(2)} | ${alone.p50.toFixed(1)} | ${alone.p95.toFixed(1)} | ${work ? work.statements.toFixed(1) : '–'} | ${work ? work.execMs.toFixed(2) : '–'} |`,
      ),
    ];
    tables.push(lines.join('\n'));
    if (results.some(({ m, alone }) => m.failures + alone.failures > 0)) throw new Error('some requests failed: the figures do not measure the success path');
    // The two ceilings (results 0 and 1) are not held to the goals; every query of the mix is.
    log(`\n  goals at ${size.toLocaleString('en')} listings${size >= GOAL_SIZE ? '' : ' (shown only: checked at 1,000,000)'}: p95 at concurrency ${CONCURRENCY} ≤ ${GOAL_CEILING_RATIO} × the ceiling's ${ceiling.p95.toFixed(1)} ms = ${(GOAL_CEILING_RATIO * ceiling.p95).toFixed(1)} ms; alone p95 < ${GOAL_ALONE_P95_MS} ms`);
    for (const { name, m, alone } of results.slice(2)) {
      const loaded = m.p95 <= GOAL_CEILING_RATIO * ceiling.p95;
      const single = alone.p95 < GOAL_ALONE_P95_MS;
      log(
        `  ${loaded && single ? 'met   ' : 'MISSED'} ${name.padEnd(40)} p95 ${m.p95.toFixed(1).padStart(6)} ms = ${(m.p95 / ceiling.p95).toFixed(2)} × ceiling ${loaded ? 'ok' : 'over'}` +
          ` · alone p95 ${alone.p95.toFixed(1).padStart(5)} ms ${single ? 'ok' : 'over'}`,
      );
      if (size >= GOAL_SIZE && !(loaded && single)) missed = true;
    }
  }
  log(`\n${tables.join('\n\n')}`);
  if (missed) {
    log(`\nsome query missed a goal at 1,000,000 listings (p95 within ${GOAL_CEILING_RATIO} × the ceiling's, alone p95 under ${GOAL_ALONE_P95_MS} ms)`);
    process.exitCode = 1;
  } else if (SIZES.some((size) => size >= GOAL_SIZE) && SECONDS > 0) {
    log(`\nevery query met the goals at 1,000,000 listings`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
