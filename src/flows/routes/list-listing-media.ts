// GET /v1/listings/{id}/media
import { IdParams } from '../../http/schemas.js';
import type { RouteModule } from '../../contracts/wiring.js';
import { ListMediaQuery, MediaList } from '../../modules/media/index.js';
import { listListingMedia } from '../list-listing-media.js';

export const listListingMediaRoute: RouteModule = (app) => {
  app.get(
    '/listings/:id/media',
    {
      schema: {
        tags: ['Media'],
        summary: "List a listing's media",
        description: 'Newest first, pending uploads included; a ready media carries its signed `url`.',
        params: IdParams,
        querystring: ListMediaQuery,
        response: { 200: MediaList },
      },
    },
    async (request) => listListingMedia(request.ctx, request.params.id, request.query),
  );
};
