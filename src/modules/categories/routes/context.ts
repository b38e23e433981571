// The operation context of a request: its tenant scope and the services operations use.
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../../http/types.js';
import type { CategoryContext } from '../operations.js';

export function categoryContext(request: FastifyRequest, services: Services): CategoryContext {
  return { db: services.db, clock: services.clock, scope: request.api.scope };
}
