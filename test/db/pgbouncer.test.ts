// The service behind PgBouncer in transaction mode (docs/deployment.md, "PgBouncer"), PostgreSQL
// only: DATABASE_URL through the pooler, DATABASE_SESSION_URL to the server itself. The start's
// probe tells what each URL reaches and refuses the settings that would break quietly; then the
// real app runs through the pooler (sellers, listings, orders placed at once under idempotency
// keys, timers, a job woken by NOTIFY in another "process", webhooks delivered by its worker) while
// its advisory locks, LISTEN and migrations are shown to have gone to the session URL.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, createServices, openDatabase } from '../../src/app/runtime.js';
import { systemClock } from '../../src/clock.js';
import { ConfigError } from '../../src/config.js';
import type { Services } from '../../src/contracts/wiring.js';
import { probeConnection } from '../../src/db/connection-probe.js';
import { OWNER_LOCK } from '../../src/http/claim-owners.js';
import { JOBS_CHANNEL } from '../../src/workers/wake.js';
import { startWorker, type Worker } from '../../src/workers/worker.js';
import { createBuyer, createPublishedListing, createSeller, type Json } from '../helpers/factories.js';
import { freshDatabase, startTestApp, TEST_SECRET_KEY, testConfig, usingPostgres, type TestContext, type TestDatabase } from '../helpers/harness.js';
import { pgbouncerBinary, startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.js';
import { startReceiver, type Receiver } from '../modules/webhooks/helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// A CI run must have PgBouncer (.ci/run installs it); elsewhere its absence skips these tests.
if (usingPostgres && pgbouncerBinary === null && process.env.CI) throw new Error('pgbouncer is not installed, and CI is set: apt-get install pgbouncer');
const runs = usingPostgres && pgbouncerBinary !== null;
if (usingPostgres && !runs) process.stdout.write('pgbouncer not installed: the PgBouncer tests are skipped (CI requires them).\n');

const quiet = { error: () => undefined, info: () => undefined };
const SESSION_APP = 'mkt_session';

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > giveUpAt) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const message = (error: unknown) => (error instanceof ConfigError ? error.message : `not a ConfigError: ${String(error)}`);

describe.runIf(runs)('through PgBouncer in transaction mode (PostgreSQL only: PGlite is one embedded connection in the process, no pooler can stand before it)', () => {
  let bouncer: PgBouncer;
  let database: TestDatabase;
  let name: string;
  let direct: string;

  beforeAll(async () => {
    database = await freshDatabase();
    direct = database.url!;
    name = new URL(direct).pathname.slice(1);
    bouncer = await startPgBouncer({ poolMode: 'transaction', aliases: { [`${name}_session`]: { dbname: name, poolMode: 'session' } } });
  });
  afterAll(async () => {
    await bouncer?.stop();
    await database?.drop();
  });

  describe('the probe at start', () => {
    it('tells PostgreSQL itself, a session-mode pooler and a transaction-mode pooler apart', async () => {
      expect(await probeConnection(direct)).toBe('direct');
      expect(await probeConnection(bouncer.url(`${name}_session`))).toBe('session_pooler');
      expect(await probeConnection(bouncer.url(name))).toBe('transaction_pooler');
    });

    it('refuses DATABASE_URL through a transaction pooler while statements would be named prepared ones (DATABASE_POOL_MODE unset)', async () => {
      const error = await openDatabase(testConfig({ DATABASE_URL: bouncer.url(name) })).catch((e: unknown) => e);
      expect(message(error)).toMatch(/^DATABASE_POOL_MODE: DATABASE_URL reaches a connection pooler in transaction mode .* set DATABASE_POOL_MODE=transaction and DATABASE_SESSION_URL to PostgreSQL itself/);
    });

    it('refuses DATABASE_SESSION_URL through a transaction pooler', async () => {
      const config = testConfig({ DATABASE_URL: bouncer.url(name), DATABASE_POOL_MODE: 'transaction', DATABASE_SESSION_URL: `${bouncer.url(name)}?application_name=other` });
      const error = await openDatabase(config).catch((e: unknown) => e);
      expect(message(error)).toMatch(/^DATABASE_SESSION_URL: reaches a connection pooler in transaction mode .* point it at PostgreSQL itself/);
    });

    it('refuses DATABASE_SESSION_URL on another database than DATABASE_URL (its locks would not be seen)', async () => {
      const other = direct.replace(/\/[^/]*$/, '/postgres');
      const config = testConfig({ DATABASE_URL: bouncer.url(name), DATABASE_POOL_MODE: 'transaction', DATABASE_SESSION_URL: other });
      const error = await openDatabase(config).catch((e: unknown) => e);
      expect(message(error)).toMatch(/^DATABASE_SESSION_URL: does not reach the database DATABASE_URL reaches/);
    });

    it('accepts a session-mode pooler as DATABASE_URL with named prepared statements, and direct URLs with DATABASE_POOL_MODE=transaction', async () => {
      const settings: Array<Record<string, string>> = [{ DATABASE_URL: bouncer.url(`${name}_session`) }, { DATABASE_URL: direct, DATABASE_POOL_MODE: 'transaction', DATABASE_SESSION_URL: `${direct}?application_name=x` }];
      for (const env of settings) {
        const db = await openDatabase(testConfig(env));
        expect(await db.query('SELECT $1::int AS one', [1])).toEqual([{ one: 1 }]);
        await db.close();
      }
    });

    it('the process exits 1 naming the setting', { timeout: 60_000 }, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'worker'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: bouncer.url(name), SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, text).toBe(1);
      expect(text).toMatch(/^Configuration error: DATABASE_POOL_MODE: DATABASE_URL reaches a connection pooler in transaction mode/m);
    });
  });

  describe('the app with DATABASE_URL through PgBouncer and DATABASE_SESSION_URL direct', () => {
    let ctx: TestContext;
    let workerServices: Services;
    let worker: Worker;
    let receiver: Receiver;
    const statementLog = join(mkdtempSync(join(tmpdir(), 'mkt-pgbouncer-log-')), 'statements.jsonl');

    beforeAll(async () => {
      const env = (url: string) => ({
        DATABASE_URL: bouncer.url(new URL(url).pathname.slice(1)),
        DATABASE_POOL_MODE: 'transaction',
        // Named, so the server's view of each session tells which URL it came from.
        DATABASE_SESSION_URL: `${url}?application_name=${SESSION_APP}`,
      });
      // The API "process": its statements logged, to show what went through DATABASE_URL.
      ctx = await startTestApp({ databaseEnv: (url) => ({ ...env(url), DB_STATEMENT_LOG: statementLog }) });
      // A worker "process" of its own on the same database: it hears of new jobs only through
      // NOTIFY (its poll is ten minutes), on its LISTEN session.
      workerServices = await createServices(testConfig(env(ctx.databaseUrl!)), { clock: systemClock });
      worker = startWorker(workerServices, workerServices.wiring, { log: quiet, idleMs: 50, jobPollMs: 600_000 });
      receiver = await startReceiver();
    });
    afterAll(async () => {
      await worker?.stop();
      if (workerServices) await closeServices(workerServices);
      await receiver?.close();
      await ctx?.close();
    });

    it('creates sellers and listings, and takes orders placed at once under idempotency keys: none oversold, each key answered once', async () => {
      const endpoint = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body: { url: receiver.url(), enabled_events: ['order.created', 'order.committed', 'order.expired'] } });
      expect(endpoint.status, endpoint.text).toBe(201);
      const seller = await createSeller(ctx);
      const buyer = await createBuyer(ctx);
      const listing = await createPublishedListing(ctx, { seller: seller.id, quantity: 5 });
      const keys = Array.from({ length: 12 }, (_, i) => `pgbouncer-order-${i}`);
      const place = (key: string) => ctx.request('/v1/orders', { method: 'POST', body: { buyer: buyer.id, listing: listing.id }, headers: { 'idempotency-key': key } });
      const answers = await Promise.all(keys.map(place));
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(5).fill(201), ...Array(7).fill(409)]);
      for (const answer of answers.filter((a) => a.status === 409)) expect(answer.body.error.code).toBe('quantity_unavailable');
      // Each key again: the stored answer, the same order, no second one.
      const again = await Promise.all(keys.map(place));
      expect(again.map((a) => [a.status, a.body.id ?? a.body.error.code])).toEqual(answers.map((a) => [a.status, a.body.id ?? a.body.error.code]));
      expect((await ctx.request(`/v1/listings/${listing.id}`)).body.quantity_available).toBe(0);
      const [count] = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE listing_id = $1', [listing.id]);
      expect(count!.n).toBe(5);

      // The webhooks, delivered by the worker "process": five order.created and five order.committed.
      const delivered = await waitFor('webhook deliveries', async () => receiver.received.map((r) => (JSON.parse(r.body) as Json).type as string), (types) => types.length >= 10);
      expect(delivered.filter((t) => t === 'order.created')).toHaveLength(5);

      // Timers: a week on the test clock; the claim window expires the five unclaimed orders, their units go back.
      const advanced = await ctx.request('/v1/test_helpers/clock/advance', { method: 'POST', body: { seconds: 7 * 86_400 } });
      expect(advanced.status, advanced.text).toBe(200);
      await waitFor('units back', async () => (await ctx.request(`/v1/listings/${listing.id}`)).body.quantity_available as number, (n) => n === 5);
      const states = await ctx.db.query<{ state: string }>('SELECT state FROM orders WHERE listing_id = $1', [listing.id]);
      expect(states.map((s) => s.state)).toEqual(Array(5).fill('expired'));
    });

    it('runs a job enqueued by the API "process" in the worker "process", woken by NOTIFY through the pooler', async () => {
      const created = await ctx.request('/v1/reports', { method: 'POST', body: { type: 'balance_summary', interval_start: 0, interval_end: 86_400 } });
      expect(created.status, created.text).toBe(201);
      const report = await waitFor('report built', async () => (await ctx.request(`/v1/reports/${created.body.id}`)).body, (r: Json) => r.status !== 'pending');
      expect(report.status).toBe('succeeded');
    });

    it("sent the claim owners' advisory locks and LISTEN to DATABASE_SESSION_URL, the statements and NOTIFYs through PgBouncer, the migrations not through it", async () => {
      const observer = database.db;
      const dbName = new URL(ctx.databaseUrl!).pathname.slice(1);
      const owners = await observer.query<{ pid: number; application_name: string }>(
        `SELECT a.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objsubid = 2 AND l.granted AND a.datname = $2`,
        [OWNER_LOCK, dbName],
      );
      const listeners = await observer.query<{ pid: number; application_name: string }>(
        `SELECT pid, application_name FROM pg_stat_activity WHERE datname = $1 AND query = $2`,
        [dbName, `LISTEN ${JOBS_CHANNEL}`],
      );
      expect(owners.length).toBeGreaterThanOrEqual(1);
      expect(listeners.length).toBeGreaterThanOrEqual(1);
      for (const session of [...owners, ...listeners]) expect(session.application_name).toBe(SESSION_APP);
      // None of them is a server session PgBouncer hands out, and it did hand out sessions of this database.
      const servers = (await bouncer.admin('SHOW SERVERS')).filter((s) => s.database === dbName);
      expect(servers.length).toBeGreaterThan(0);
      const pooled = new Set(servers.map((s) => Number(s.remote_pid)));
      for (const session of [...owners, ...listeners]) expect(pooled.has(session.pid)).toBe(false);
      // The API's DATABASE_URL statements: the orders and their NOTIFYs, unnamed; no migration among them.
      const statements = readFileSync(statementLog, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { sql: string }).sql);
      expect(statements.some((sql) => /INSERT INTO orders/i.test(sql))).toBe(true);
      expect(statements.some((sql) => sql.includes('pg_notify'))).toBe(true);
      expect(statements.some((sql) => /schema_migrations|CREATE TABLE/i.test(sql))).toBe(false);
      const [migrations] = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(migrations!.n).toBeGreaterThan(10);
    });
  });
});
