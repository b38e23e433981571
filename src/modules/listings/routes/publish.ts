// POST /v1/listings/{id}/publish
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { publishListing } from '../operations.js';
import { Listing } from '../schemas.js';

export const publishListingRoute: RouteModule = (app) => {
  app.post(
    '/listings/:id/publish',
    {
      schema: {
        tags: ['Listings'],
        summary: 'Publish a listing',
        description:
          'From draft, or from expired when `expires_at` is null or in the future (409 `invalid_state` otherwise). ' +
          'Needs an active seller (403 `seller_suspended`), a verified one when seller verification is on (403 ' +
          '`seller_not_verified`), a category that is not prohibited (403 `category_prohibited`), and no prohibited ' +
          'word in title, description or attribute values (403 `prohibited_content`, param naming the field). Sets ' +
          '`published_at`; with `expires_at` the listing expires then. Emits `listing.published`.',
        params: IdParams,
        response: { 200: Listing },
      },
    },
    async (request) => publishListing(request.ctx, request.params.id),
  );
};
