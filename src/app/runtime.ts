// Composition: from a parsed Config to the wiring, connected services, the HTTP app and the worker.
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { App, IdempotencyFaults, RateLimiter, Services, Wiring } from '../contracts/wiring.js';
import { createDb, type Db } from '../db/db.js';
import { checkConnections } from '../db/connection-probe.js';
import { pgliteDriver, postgresDriver } from '../db/drivers.js';
import { migrate } from '../db/migrate.js';
import { statementLogTo } from '../db/statement-log.js';
import { FLOWS } from '../flows/index.js';
import { ApiKeyCache } from '../http/api-key-cache.js';
import { buildApp, type RouteTable } from '../http/app.js';
import { abandonEarlierClaims } from '../http/claim-owners.js';
import { MemoryRateLimiter, RedisRateLimiter } from '../http/rate-limit.js';
import { dashboardApiAccess } from '../modules/dashboard/index.js';
import { eventWebhooks } from '../modules/events/index.js';
import { createBackground } from '../workers/background.js';
import { routeTable } from './routes.js';
import { buildWiring } from './wiring.js';

/**
 * The database of the config. PostgreSQL: the URLs are probed first, and a combination that would
 * break quietly refuses the start (src/db/connection-probe.ts). Statements go to DATABASE_URL
 * (named prepared statements unless DATABASE_POOL_MODE=transaction), the sessions of LISTEN and
 * the claim owners' advisory locks to DATABASE_SESSION_URL.
 */
export async function openDatabase(config: Config): Promise<Db> {
  if (config.databaseUrl) {
    const sessionUrl = config.databaseSessionUrl ?? config.databaseUrl;
    await checkConnections({ databaseUrl: config.databaseUrl, databaseSessionUrl: sessionUrl, databasePoolMode: config.databasePoolMode });
    const log = config.dbStatementLog ? statementLogTo(config.dbStatementLog) : undefined;
    return createDb(postgresDriver(config.databaseUrl, undefined, log, { sessionUrl, preparedStatements: config.databasePoolMode !== 'transaction' }));
  }
  return createDb(await pgliteDriver(join(config.dataDir, 'pglite')));
}

/**
 * Migrations run on a session of DATABASE_SESSION_URL when it differs from DATABASE_URL: a
 * migration is one long transaction of DDL, which a pooler's timeouts and pool size have no
 * business cutting short, and a statement that cannot run in a transaction block (CREATE INDEX
 * CONCURRENTLY) would need a session of its own. Its advisory lock is transaction-level either way.
 */
async function migrateOn(config: Config, db: Db, opened: boolean): Promise<void> {
  const sessionUrl = config.databaseSessionUrl;
  if (!opened || sessionUrl === null || sessionUrl === config.databaseUrl) {
    await migrate(db);
    return;
  }
  const session = createDb(postgresDriver(sessionUrl, 1));
  try {
    await migrate(session);
  } finally {
    await session.close();
  }
}

export interface ServiceOptions {
  clock: Clock;
  /** An already open database (tests); otherwise opened from the config. */
  db?: Db;
  /** The wiring to run with; by default every module's (src/app/wiring.ts). */
  wiring?: Wiring;
  faults?: IdempotencyFaults;
  onBackgroundError?: (error: unknown) => void;
}

export async function createServices(config: Config, options: ServiceOptions): Promise<Services> {
  const wiring = options.wiring ?? buildWiring(config);
  const db = options.db ?? (await openDatabase(config));
  // This process's background machinery: its wake-ups and the components' loops (one dispatcher).
  const background = createBackground({ db, clock: options.clock, config }, wiring.components);
  // Every event written through this handle runs the wiring's subscribers in its transaction, and
  // a commit wakes this process's claim loops.
  db.carry({ eventSubscribers: wiring.eventSubscribers, wakeUps: background.wakeUps });
  await migrateOn(config, db, !options.db);
  // This process has just opened the embedded database's files, which no other process may use:
  // a key claimed and not answered there was claimed by an earlier start, now dead.
  if (!options.db && db.kind === 'pglite') await abandonEarlierClaims(db);
  const onError = options.onBackgroundError ?? (() => undefined);
  const rateLimiter: RateLimiter = config.redisUrl
    ? new RedisRateLimiter(config.redisUrl, options.clock, onError)
    : new MemoryRateLimiter(options.clock);
  return {
    config,
    db,
    clock: options.clock,
    hooks: wiring,
    background,
    wiring,
    flows: FLOWS,
    apiKeys: new ApiKeyCache(db, options.clock),
    rateLimiter,
    faults: options.faults ?? {},
  };
}

export async function createApp(services: Services, options: { logger?: boolean | object; routes?: RouteTable } = {}): Promise<App> {
  return buildApp({
    services,
    routes: options.routes ?? routeTable(services.wiring.routes),
    sessions: dashboardApiAccess(services),
    logger: options.logger,
    workStats: services.wiring.workStats,
    webhooks: eventWebhooks(services.hooks.eventCatalog),
    counters: services.wiring.counters,
    readiness: async () => {
      await services.db.query('SELECT 1');
      return true;
    },
  });
}

export async function closeServices(services: Services): Promise<void> {
  await services.rateLimiter.close();
  await services.db.close();
}
