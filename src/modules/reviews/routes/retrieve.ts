// GET /v1/reviews/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveReview } from '../operations.js';
import { Review } from '../schemas.js';

export const retrieveReviewRoute: RouteModule = (app) => {
  app.get(
    '/reviews/:id',
    {
      schema: {
        tags: ['Reviews'],
        summary: 'Retrieve a review',
        description: 'Rating and body read null while the review is not visible.',
        params: IdParams,
        response: { 200: Review },
      },
    },
    async (request) => retrieveReview(request.ctx, request.params.id),
  );
};
