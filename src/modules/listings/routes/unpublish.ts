// POST /v1/listings/{id}/unpublish
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { unpublishListing } from '../operations.js';
import { Listing } from '../schemas.js';

export const unpublishListingRoute: RouteModule = (app) => {
  app.post(
    '/listings/:id/unpublish',
    {
      schema: {
        tags: ['Listings'],
        summary: 'Unpublish a listing',
        description: 'Published → draft (409 `invalid_state` from any other state); its expiry is cancelled. Emits `listing.unpublished`.',
        params: IdParams,
        response: { 200: Listing },
      },
    },
    async (request) => unpublishListing(request.ctx, request.params.id),
  );
};
