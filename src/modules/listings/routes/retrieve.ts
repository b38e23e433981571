// GET /v1/listings/{id} (PK)
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { retrieveListing } from '../operations.js';
import { Listing } from '../schemas.js';
import { listingContext, viewerOf } from './context.js';

export const retrieveListingRoute: RouteModule = (app, services) => {
  app.get(
    '/listings/:id',
    {
      schema: {
        tags: ['Listings'],
        summary: 'Retrieve a listing',
        description: 'With a publishable key only a published listing is found; any other answers 404.',
        params: IdParams,
        response: { 200: Listing },
      },
    },
    async (request) => retrieveListing(listingContext(request, services), request.params.id, viewerOf(request)),
  );
};
