// POST /v1/listings/bulk
import type { RouteModule } from '../../../http/types.js';
import { createListingsBulk } from '../operations.js';
import { BulkCreateListingsBody, BulkListingList } from '../schemas.js';
import { listingContext } from './context.js';

export const bulkCreateListingsRoute: RouteModule = (app, services) => {
  app.post(
    '/listings/bulk',
    {
      schema: {
        tags: ['Listings'],
        summary: 'Create listings in bulk',
        description:
          '1 to 100 listings, each as in create, created together or not at all. An error names the item: ' +
          '`listings[3].price.currency`, `listings[3].seller`. Emits `listing.created` for each.',
        body: BulkCreateListingsBody,
        response: { 201: BulkListingList },
      },
    },
    async (request, reply) => {
      const list = await createListingsBulk(listingContext(request, services), request.body);
      reply.code(201);
      return list;
    },
  );
};
