// The typed Fastify instance every route module registers on, and the services it may use.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { ApiKeyCache } from './api-keys.js';
import type { IdempotencyFaults } from './idempotency.js';
import type { RateLimiter } from './rate-limit.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface Services {
  config: Config;
  db: Db;
  clock: Clock;
  apiKeys: ApiKeyCache;
  rateLimiter: RateLimiter;
  /** Test hooks that make a failure happen at a chosen point. */
  faults: IdempotencyFaults;
}

/** A module's routes, registered inside one auth scope. */
export type RouteModule = (app: App, services: Services) => void | Promise<void>;
