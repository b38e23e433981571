// What a request carries once authenticated, and how its operation context is built from the
// process's services: operations see a context (src/contracts/context.ts), never the request.
import type { ApiKeyContext, OperationContext, ServiceContext, UserContext } from '../contracts/context.js';
import type { Deps } from '../contracts/deps.js';

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

export function operationContext(services: Deps, key: ApiKeyContext): OperationContext {
  return {
    db: services.db,
    clock: services.clock,
    config: services.config,
    hooks: services.hooks,
    background: services.background,
    scope: key.scope,
    currency: key.marketplace.currency.toUpperCase(),
    viewer: key.keyType,
  };
}

export function serviceContext(services: ServiceContext): ServiceContext {
  return { db: services.db, clock: services.clock, config: services.config, hooks: services.hooks, background: services.background, apiKeys: services.apiKeys };
}
