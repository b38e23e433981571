// Composition: from a parsed Config to the wiring, connected services, the HTTP app and the worker.
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { App, IdempotencyFaults, RateLimiter, Services, Wiring } from '../contracts/wiring.js';
import { createDb, type Db } from '../db/db.js';
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

export async function openDatabase(config: Config): Promise<Db> {
  if (config.databaseUrl) return createDb(postgresDriver(config.databaseUrl, undefined, config.dbStatementLog ? statementLogTo(config.dbStatementLog) : undefined));
  return createDb(await pgliteDriver(join(config.dataDir, 'pglite')));
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
  await migrate(db);
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
