// POST /v1/listings
import type { RouteModule } from '../../../contracts/wiring.js';
import { createListing } from '../operations.js';
import { CreateListingBody, Listing } from '../schemas.js';

export const createListingRoute: RouteModule = (app) => {
  app.post(
    '/listings',
    {
      schema: {
        tags: ['Listings'],
        summary: 'Create a listing',
        description:
          'Creates a draft. The seller must exist (404, param `seller`) and not be erased (409 `invalid_state`); a ' +
          '`category` must exist (404, param `category`) and the attributes must fit its schema (400, param ' +
          '`attributes.<key>`); the price must be in the marketplace currency (400, param `price.currency`); ' +
          '`expires_at` must be in the future. Emits `listing.created`.',
        body: CreateListingBody,
        response: { 201: Listing },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createListing(request.ctx, request.body);
    },
  );
};
