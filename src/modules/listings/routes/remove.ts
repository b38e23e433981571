// POST /v1/listings/{id}/remove
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { removeListing } from '../operations.js';
import { Listing, RemoveListingBody } from '../schemas.js';

export const removeListingRoute: RouteModule = (app) => {
  app.post(
    '/listings/:id/remove',
    {
      schema: {
        tags: ['Listings'],
        summary: 'Remove a listing',
        description:
          'From any state but removed (409 `invalid_state`); for good. `reason` (1 to 500 characters) is kept as ' +
          '`removed_reason`. Emits `listing.removed`.',
        params: IdParams,
        body: RemoveListingBody,
        response: { 200: Listing },
      },
    },
    async (request) => removeListing(request.ctx, request.params.id, request.body.reason),
  );
};
