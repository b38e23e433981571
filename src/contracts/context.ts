// The contexts operations run in, one per kind of caller. A /v1 request carries an
// OperationContext (its marketplace, mode and key kind, built from the authenticated API key); a
// /manage/v1 request the ServiceContext, or a UserContext once its user is known; pages outside
// both (the simulated processor's) the ServiceContext. Operations take their context first, then
// their input, and nothing else of HTTP: the same call serves a route, a worker or a test.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { ApiKeyContext } from '../http/api-keys.js';
import type { Scope } from '../scope.js';
import type { Principal } from '../modules/accounts/access.js';

/** Who reads through /v1: a secret key, or a publishable key (which sees public objects only). */
export type Viewer = 'secret' | 'publishable';

export interface OperationContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly config: Config;
  /** The marketplace and mode every query of the operation is scoped by. */
  readonly scope: Scope;
  /** The marketplace currency, upper case: every price is in it. */
  readonly currency: string;
  readonly viewer: Viewer;
}

/** An operation without a tenant or user yet (sign-up, login, the operator's): the service itself. */
export interface ServiceContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly config: Config;
  /** Cached API-key contexts carry settings and billing state: a change to those clears the cache. */
  readonly apiKeys: { invalidate(): void };
}

/** A management operation on behalf of a signed-in user. */
export interface UserContext extends ServiceContext {
  readonly principal: Principal;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** /v1: the operation context of the authenticated key; set by the API scope's auth hooks. */
    ctx: OperationContext;
    /** Every request: the service context (src/http/app.ts). */
    service: ServiceContext;
    /** /manage/v1 signed-in scope: the management context with its user; set by requireUser. */
    user: UserContext;
  }
}

export function operationContext(services: ServiceContext, key: ApiKeyContext): OperationContext {
  return {
    db: services.db,
    clock: services.clock,
    config: services.config,
    scope: key.scope,
    currency: key.marketplace.currency.toUpperCase(),
    viewer: key.keyType,
  };
}

export function serviceContext(services: ServiceContext): ServiceContext {
  return { db: services.db, clock: services.clock, config: services.config, apiKeys: services.apiKeys };
}
