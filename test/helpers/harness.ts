// Starts the real HTTP app on a real database for one test file: a fresh in-memory PGlite, or,
// with TEST_DATABASE=postgres, a fresh database on the PostgreSQL server (dropped at close).
// Creates a workspace, an owner and a marketplace, and returns keys and a small request helper.
// At close, every event the test stored must validate against its type's schema (event-schemas.ts).
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { systemClock, type Clock } from '../../src/clock.js';
import { parseConfig, type Config } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/db.js';
import { pgliteDriver, postgresDriver } from '../../src/db/drivers.js';
import type { RouteTable } from '../../src/http/app.js';
import type { IdempotencyFaults } from '../../src/contracts/wiring.js';
import type { App, Services, Wiring } from '../../src/contracts/wiring.js';
import { MODULES } from '../../src/app/modules.js';
import { buildWiring, idPrefixesOf } from '../../src/app/wiring.js';
import { installIdPrefixes } from '../../src/ids.js';
import { createWorkspaceWithOwner } from '../../src/modules/accounts/operations.js';
import { createMarketplace, type KeyPair } from '../../src/modules/marketplaces/operations.js';
import { closeServices, createApp, createServices } from '../../src/app/runtime.js';
import { assertStoredEventsValid } from './event-schemas.js';

// Every process mints ids once the root installed the modules' prefixes (buildWiring, at the start
// of src/main.ts); tests that run operations on a bare database (freshDatabase) get the same table.
installIdPrefixes(idPrefixesOf(MODULES));

export const usingPostgres = process.env.TEST_DATABASE === 'postgres';
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_SECRET_KEY = 'a'.repeat(64);

export interface TestDatabase {
  db: Db;
  url: string | null;
  drop(): Promise<void>;
}

/** A fresh, empty database of the kind this run tests against. */
export async function freshDatabase(): Promise<TestDatabase> {
  if (!usingPostgres) {
    const db = createDb(await pgliteDriver(null));
    return { db, url: null, drop: () => db.close() };
  }
  const name = `mkt_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  const db = createDb(postgresDriver(url, 5));
  return {
    db,
    url,
    async drop() {
      await db.close();
      const again = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return parseConfig({
    SECRET_KEY: TEST_SECRET_KEY,
    DATA_DIR: join(tmpdir(), `mkt-test-${randomBytes(4).toString('hex')}`),
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_URLS: '1',
    PUBLIC_URL: 'http://127.0.0.1:8080',
    // 2^14 instead of 2^17: every test file hashes dozens of passwords (docs/decisions/accounts.md); passwords.test.ts runs the default.
    PASSWORD_HASH_COST: '14',
    ...overrides,
  });
}

// Tests read response bodies loosely (res.body.error.code); a test that wants types passes T.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS';
  /** An API key, a management token, or null for no Authorization header. */
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestContext {
  app: App;
  services: Services;
  db: Db;
  /** The PostgreSQL database's URL (a second pool on it acts as another process); null on PGlite. */
  databaseUrl: string | null;
  config: Config;
  workspaceId: string;
  marketplaceId: string;
  owner: { email: string; password: string };
  keys: { test: KeyPair; live: KeyPair };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<T = any>(url: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  faults?: IdempotencyFaults;
  env?: Record<string, string>;
  routes?: RouteTable;
  /** Keep the default rate limits (25/s test); otherwise tests get a high limit. */
  defaultRateLimits?: boolean;
  currency?: string;
  /** Changes the wiring the app runs with (a test's own timers or hooks); every module's by default. */
  wiring?: (base: Wiring) => Wiring;
  /**
   * The test emits events of its own making (partial objects through emitEvent): their schemas are
   * not checked at close. Every other test's stored events must match the event catalog.
   */
  fabricatedEvents?: boolean;
  /** The app's log lines (pino JSON) go here at level info, as the service writes them; none otherwise. */
  logStream?: { write(line: string): void };
  /** The app's logger (pino options, a stream among them); none by default. */
  logger?: object;
  /**
   * PostgreSQL only: the service opens its database from its configuration, as a process does
   * (probe, pool, sessions, migrations: src/app/runtime.ts), with these variables given the fresh
   * database's direct URL (PgBouncer tests: DATABASE_URL through the pooler). ctx.db is then the
   * service's handle.
   */
  databaseEnv?: (directUrl: string) => Record<string, string>;
}

export async function startTestApp(options: StartOptions = {}): Promise<TestContext> {
  const database = await freshDatabase();
  const fromConfig = options.databaseEnv && database.url !== null ? options.databaseEnv(database.url) : null;
  const config = testConfig({ ...options.env, ...fromConfig });
  const clock = options.clock ?? systemClock;
  const base = buildWiring(config);
  const wiring = options.wiring ? options.wiring(base) : base;
  let services: Services;
  try {
    services = await createServices(config, { clock, ...(fromConfig ? {} : { db: database.db }), faults: options.faults, wiring });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const db = services.db;
  const app = await createApp(services, { logger: options.logger ?? (options.logStream ? { level: 'info', stream: options.logStream } : false), routes: options.routes });
  await app.ready();
  const owner = { email: `owner-${randomBytes(3).toString('hex')}@example.com`, password: 'correct horse battery' };
  const { workspace } = await createWorkspaceWithOwner(db, clock, { ...owner, workspaceName: 'Test workspace', passwordHashCost: config.passwordHashCost });
  const { marketplace, api_keys } = await createMarketplace(db, clock, {
    workspaceId: workspace.id,
    name: 'Test marketplace',
    currency: options.currency ?? 'USD',
    testProcessor: 'simulated',
  });
  if (!options.defaultRateLimits) {
    await db.query(
      `UPDATE marketplace_modes SET settings = jsonb_set(settings, '{rate_limit_per_second}', '10000') WHERE marketplace_id = $1`,
      [marketplace.id],
    );
  }
  const request = async (url: string, opts: RequestOptions = {}): Promise<TestResponse> => {
    const key = opts.key === undefined ? api_keys.test.secret_key : opts.key;
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...opts.headers };
    const hasBody = opts.body !== undefined;
    if (hasBody && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const response = await app.inject({
      method: opts.method ?? (hasBody ? 'POST' : 'GET'),
      url,
      headers,
      ...(hasBody ? { payload: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
    });
    let body: unknown = undefined;
    try {
      body = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      body = response.body;
    }
    return { status: response.statusCode, body, headers: response.headers, text: response.body };
  };
  return {
    app,
    services,
    db,
    databaseUrl: database.url,
    config,
    workspaceId: workspace.id,
    marketplaceId: marketplace.id,
    owner,
    keys: api_keys,
    request,
    async close() {
      await app.close();
      await services.rateLimiter.close();
      try {
        if (!options.fabricatedEvents) await assertStoredEventsValid(database.db);
      } finally {
        if (db !== database.db) await db.close();
        await database.drop();
      }
    },
  };
}

export { closeServices };
