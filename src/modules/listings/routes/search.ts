// GET /v1/search/listings (PK)
import type { RouteModule } from '../../../contracts/wiring.js';
import { searchListings } from '../search/operations.js';
import { ListingList, SearchListingsQuery } from '../schemas.js';

export const searchListingsRoute: RouteModule = (app) => {
  app.get(
    '/search/listings',
    {
      schema: {
        tags: ['Listings'],
        summary: 'Search listings',
        description:
          'Published listings with something available, filtered by `q` (full text), `category` (with its descendants; ' +
          'an unknown one answers 400), `seller`, `min_price`/`max_price` and `attributes[key]=value`, ' +
          '`attributes[key][gte|lte]=n` (a number or integer attribute of `category`’s schema). `sort`: newest ' +
          '(default, by creation), price_asc, price_desc (ties by id), or relevance (needs `q`: the newest 1000 matches ' +
          'ranked, title above description, then the older matches newest first). Page with the opaque `cursor` ' +
          '(`next_cursor` of the previous page, same filters and sort); an altered or foreign cursor answers 400 `param: cursor`.',
        querystring: SearchListingsQuery,
        response: { 200: ListingList },
      },
    },
    async (request) => searchListings(request.ctx, request.query),
  );
};
