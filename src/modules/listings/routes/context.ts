// The operation context of a request: its tenant scope, the marketplace currency, and who reads.
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../../http/types.js';
import type { ListingContext, Viewer } from '../operations.js';

export function listingContext(request: FastifyRequest, services: Services): ListingContext {
  return { db: services.db, clock: services.clock, scope: request.api.scope, currency: request.api.marketplace.currency };
}

export function viewerOf(request: FastifyRequest): Viewer {
  return { publishedOnly: request.api.keyType === 'publishable' };
}
