// GET /v1/listings/{id} (PK)
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveListing } from '../operations.js';
import { Listing } from '../schemas.js';

export const retrieveListingRoute: RouteModule = (app) => {
  app.get(
    '/listings/:id',
    {
      config: { expand: 'listing' },
      schema: {
        tags: ['Listings'],
        summary: 'Retrieve a listing',
        description: 'With a publishable key only a published listing is found; any other answers 404.',
        params: IdParams,
        response: { 200: Listing },
      },
    },
    async (request) => retrieveListing(request.ctx, request.params.id),
  );
};
