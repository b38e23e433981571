// Composition: from a parsed Config to connected services, the HTTP app and the worker.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { createDb, type Db } from '../db/db.js';
import { pgliteDriver, postgresDriver } from '../db/drivers.js';
import { migrate } from '../db/migrate.js';
import { ApiKeyCache } from '../http/api-keys.js';
import { buildApp, type RouteTable } from '../http/app.js';
import { abandonEarlierClaims } from '../http/claim-owners.js';
import type { IdempotencyFaults } from '../http/idempotency.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../http/rate-limit.js';
import type { App, Services } from '../http/types.js';
import { dashboardApiAccess } from '../modules/dashboard/api-access.js';
import { workStatsSources } from './background.js';
import { routeTable } from './routes.js';
import { setPasswordHashCost } from '../modules/accounts/passwords.js';
import { eventSubscribers } from './event-subscribers.js';
import { setEventSubscribers } from '../outbox/emit.js';
import { join } from 'node:path';

export async function openDatabase(config: Config): Promise<Db> {
  if (config.databaseUrl) return createDb(postgresDriver(config.databaseUrl));
  return createDb(await pgliteDriver(join(config.dataDir, 'pglite')));
}

export interface ServiceOptions {
  clock: Clock;
  /** An already open database (tests); otherwise opened from the config. */
  db?: Db;
  faults?: IdempotencyFaults;
  onBackgroundError?: (error: unknown) => void;
}

export async function createServices(config: Config, options: ServiceOptions): Promise<Services> {
  const db = options.db ?? (await openDatabase(config));
  await migrate(db);
  // This process has just opened the embedded database's files, which no other process may use:
  // a key claimed and not answered there was claimed by an earlier start, now dead.
  if (!options.db && db.kind === 'pglite') await abandonEarlierClaims(db);
  setEventSubscribers(eventSubscribers);
  setPasswordHashCost(config.passwordHashCost);
  const onError = options.onBackgroundError ?? (() => undefined);
  const rateLimiter: RateLimiter = config.redisUrl
    ? new RedisRateLimiter(config.redisUrl, options.clock, onError)
    : new MemoryRateLimiter(options.clock);
  return {
    config,
    db,
    clock: options.clock,
    apiKeys: new ApiKeyCache(db, options.clock),
    rateLimiter,
    faults: options.faults ?? {},
  };
}

export async function createApp(services: Services, options: { logger?: boolean | object; routes?: RouteTable } = {}): Promise<App> {
  return buildApp({
    services,
    routes: options.routes ?? routeTable,
    sessions: dashboardApiAccess(services),
    logger: options.logger,
    workStats: workStatsSources,
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
