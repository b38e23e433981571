// PATCH /v1/listings/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { updateListing } from '../operations.js';
import { Listing, UpdateListingBody } from '../schemas.js';

export const updateListingRoute: RouteModule = (app) => {
  app.patch(
    '/listings/:id',
    {
      schema: {
        tags: ['Listings'],
        summary: 'Update a listing',
        description:
          'Allowed while draft, published or expired (409 `invalid_state` otherwise). `attributes` and `metadata` ' +
          'replace the whole object. `quantity` cannot go below the units held by open orders and sold (400, param ' +
          '`quantity`). On a published listing the content is checked for prohibited words (403 `prohibited_content`) ' +
          'and a move to a prohibited category is refused (403 `category_prohibited`). Emits `listing.updated` with ' +
          '`previous_attributes` when something changed.',
        params: IdParams,
        body: UpdateListingBody,
        response: { 200: Listing },
      },
    },
    async (request) => updateListing(request.ctx, request.params.id, request.body),
  );
};
