// GET /v1/listings (PK)
import type { RouteModule } from '../../../contracts/wiring.js';
import { listListings } from '../operations.js';
import { ListingList, ListListingsQuery } from '../schemas.js';

export const listListingsRoute: RouteModule = (app) => {
  app.get(
    '/listings',
    {
      config: { expand: 'listing' },
      schema: {
        tags: ['Listings'],
        summary: 'List listings',
        description:
          'Newest first, filtered by `seller`, `category` (that category only) and `status`. With a publishable key ' +
          'only published listings are listed; a `status` filter then narrows that view, so any other status lists nothing.',
        querystring: ListListingsQuery,
        response: { 200: ListingList },
      },
    },
    async (request) => listListings(request.ctx, request.query),
  );
};
