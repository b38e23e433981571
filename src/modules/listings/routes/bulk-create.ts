// POST /v1/listings/bulk
import type { RouteModule } from '../../../contracts/wiring.js';
import { createListingsBulk } from '../operations.js';
import { BulkCreateListingsBody, BulkListingList } from '../schemas.js';

export const bulkCreateListingsRoute: RouteModule = (app) => {
  app.post(
    '/listings/bulk',
    {
      schema: {
        tags: ['Listings'],
        summary: 'Create listings in bulk',
        description:
          '1 to 100 listings, each checked as in create, created together or not at all. An error names the item in `param` ' +
          '(and its message): `listings[3].price.currency` for a price in another currency (400); `listings[3].seller` for an unknown ' +
          'seller (404 `resource_missing`) or an erased one (409 `invalid_state`); `listings[3].category` for an unknown category ' +
          '(404 `resource_missing`). Emits `listing.created` for each.',
        body: BulkCreateListingsBody,
        response: { 201: BulkListingList },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createListingsBulk(request.ctx, request.body);
    },
  );
};
