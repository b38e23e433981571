// Throughput of an authenticated GET /v1/marketplace against a bare Fastify route returning the
// same JSON, at concurrency 50, on PostgreSQL. The gap is what auth (key lookup, rate limit),
// request ids, the error and idempotency layers and response serialization cost per request.
// Goal: the real route keeps at least 70% of the bare route's requests per second.
//
// This machine is noisy (2 shared cores): one pass of each moved the ratio between 51 % and 76 %.
// So the run alternates bare and real BENCH_ROUNDS times (bare first, then real, each after its
// own warm-up) and reports the medians: of each route's rate, and of the per-round ratios.
//
//   npm run bench                       # DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres
//   BENCH_ROUNDS=3 BENCH_SECONDS=3 npm run bench   # shorter runs
//   BENCH_PROFILE=real.cpuprofile npm run bench    # then one more real phase, CPU-profiled (not in the ratios)
//   npx tsx bench/profile-top.ts real.cpuprofile  # its top self-time functions
//
// A fresh database is created on the server for the run and dropped after. See bench/README.md.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { systemClock } from '../src/clock.js';
import { parseConfig } from '../src/config.js';
import { createDb } from '../src/db/db.js';
import { postgresDriver } from '../src/db/drivers.js';
import { createWorkspaceWithOwner } from '../src/modules/accounts/operations.js';
import { createMarketplace } from '../src/modules/marketplaces/operations.js';
import { closeServices, createApp, createServices } from '../src/app/runtime.js';
import { ADMIN_URL, admin, databaseUrl } from './postgres.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;
const GOAL = 0.7;
/** Where to write the CPU profile of an extra real phase after the rounds (BENCH_PROFILE), if anywhere. */
const PROFILE_PATH = process.env.BENCH_PROFILE;
/** Microseconds between samples: fine enough for a few seconds of a hot loop, light enough not to skew it. */
const PROFILE_INTERVAL_US = 200;

interface Measured {
  requestsPerSecond: number;
  requests: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  errors: number;
}

/** Load runs in a worker thread so the generator does not share the servers' event loop. */
async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Measured> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds, workers: 1 });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds the profiled thread was not idle. */
function busyMicros(profile: CpuProfile): number {
  const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) if (!idle.has(profile.samples[i] ?? 0)) busy += profile.timeDeltas[i + 1] ?? 0;
  return busy;
}

/**
 * Runs `fn` under V8's sampling profiler of this thread (the servers' event loop; the load runs in
 * a worker thread and is not sampled), writes the .cpuprofile to `path` and says how long the
 * thread was busy.
 */
async function profiled<T>(path: string, fn: () => Promise<T>): Promise<{ result: T; busyMicros: number }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US });
    await session.post('Profiler.start');
    const result = await fn();
    const { profile } = await session.post('Profiler.stop');
    await writeFile(path, JSON.stringify(profile));
    return { result, busyMicros: busyMicros(profile as CpuProfile) };
  } finally {
    session.disconnect();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function main() {
  const name = `mkt_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const db = createDb(postgresDriver(databaseUrl(name), 10));
  const config = parseConfig({ DATABASE_URL: databaseUrl(name), SECRET_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' });
  const services = await createServices(config, { clock: systemClock, db });
  const app = await createApp(services, { logger: false });
  const bare = Fastify({ logger: false });
  try {
    const { workspace } = await createWorkspaceWithOwner(db, systemClock, {
      email: 'bench@example.com',
      password: randomBytes(12).toString('hex'),
      workspaceName: 'Bench',
    });
    const { marketplace, api_keys } = await createMarketplace(db, systemClock, { workspaceId: workspace.id, name: 'Bench', currency: 'USD' });
    // Far above what one process serves, so no request of the run is a 429. Written directly:
    // the settings API caps the rate at 10,000/s, which this machine could exceed in a burst.
    await db.query(`UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '1000000') WHERE marketplace_id = $1`, [
      marketplace.id,
    ]);
    services.apiKeys.invalidate();

    await app.listen({ host: '127.0.0.1', port: 0 });
    const headers = { authorization: `Bearer ${api_keys.test.secret_key}` };
    const realUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/marketplace`;
    const sample = await fetch(realUrl, { headers });
    if (sample.status !== 200) throw new Error(`GET /v1/marketplace answered ${sample.status}: ${await sample.text()}`);
    const json: unknown = await sample.json();

    bare.get('/v1/marketplace', async () => json);
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/v1/marketplace`;
    const bareSample = await (await fetch(bareUrl)).text();
    if (bareSample !== JSON.stringify(json)) throw new Error('the bare route does not answer the same JSON');

    console.log(`goal: the real route's median ratio to the bare route ≥ ${GOAL * 100}%, and no request refused or failed`);
    console.log(`PostgreSQL ${db.kind === 'postgres' ? ADMIN_URL.replace(/\/\/[^@]*@/, '//') : ''} · database ${name}`);
    console.log(
      `concurrency ${CONNECTIONS} · ${ROUNDS} rounds of bare then real · warm-up ${WARMUP_SECONDS} s · ${SECONDS} s each · body ${bareSample.length} bytes\n`,
    );

    const row = (label: string, m: Measured) =>
      `${label.padEnd(34)} ${m.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(m.latencyP50).padStart(3)} ms   p99 ${String(m.latencyP99).padStart(3)} ms   non-2xx ${m.non2xx}   errors ${m.errors}`;
    const bareRates: number[] = [];
    const realRates: number[] = [];
    const ratios: number[] = [];
    let failed = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      await load(bareUrl, {}, WARMUP_SECONDS);
      const bareResult = await load(bareUrl, {}, SECONDS);
      await load(realUrl, headers, WARMUP_SECONDS);
      const realResult = await load(realUrl, headers, SECONDS);
      const ratio = realResult.requestsPerSecond / bareResult.requestsPerSecond;
      console.log(`round ${round}`);
      console.log(`  ${row('bare Fastify route', bareResult)}`);
      console.log(`  ${row('GET /v1/marketplace (Bearer sk_)', realResult)}`);
      console.log(`  ratio ${(ratio * 100).toFixed(1)}%`);
      bareRates.push(bareResult.requestsPerSecond);
      realRates.push(realResult.requestsPerSecond);
      ratios.push(ratio);
      failed += realResult.non2xx + realResult.errors + bareResult.non2xx + bareResult.errors;
    }
    const ratio = median(ratios);
    console.log(
      `\nmedians: bare ${median(bareRates).toFixed(0)} req/s · real ${median(realRates).toFixed(0)} req/s · ` +
        `ratio ${(ratio * 100).toFixed(1)}% (goal ≥ ${GOAL * 100}%; rounds ${ratios.map((r) => (r * 100).toFixed(1)).join(', ')})`,
    );

    if (PROFILE_PATH) {
      // One more phase of each, after the rounds and outside their ratios: the profiler slows them.
      // The servers' thread's busy time per request does not depend on how many cores the load
      // left free, so its ratio is the figure to compare on a shared machine.
      const barePath = PROFILE_PATH.replace(/(\.cpuprofile)?$/, '.bare.cpuprofile');
      const bareProfiled = await profiled(barePath, () => load(bareUrl, {}, SECONDS));
      const realProfiled = await profiled(PROFILE_PATH, () => load(realUrl, headers, SECONDS));
      console.log('\nprofiled (after the rounds, not in the ratios)');
      console.log(`  ${row('bare Fastify route', bareProfiled.result)}`);
      console.log(`  ${row('GET /v1/marketplace (Bearer sk_)', realProfiled.result)}`);
      const perRequest = (p: typeof bareProfiled) => p.busyMicros / Math.max(1, p.result.requests);
      console.log(
        `  servers' thread busy per request: bare ${perRequest(bareProfiled).toFixed(1)} µs · real ${perRequest(realProfiled).toFixed(1)} µs · ` +
          `bare/real ${((perRequest(bareProfiled) / perRequest(realProfiled)) * 100).toFixed(1)}%`,
      );
      console.log(`  profiles: ${PROFILE_PATH} and ${barePath} (npx tsx bench/profile-top.ts <file>)`);
      failed += realProfiled.result.non2xx + realProfiled.result.errors + bareProfiled.result.non2xx + bareProfiled.result.errors;
    }
    if (failed > 0) throw new Error('some requests failed or were refused: the figures do not measure the success path');
    const met = ratio >= GOAL;
    console.log(`goal ${met ? 'met' : 'MISSED'}: median ratio ${(ratio * 100).toFixed(1)}% ${met ? '≥' : '<'} ${GOAL * 100}%`);
    if (!met) process.exitCode = 1;
  } finally {
    await bare.close();
    await app.close();
    await closeServices(services);
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
