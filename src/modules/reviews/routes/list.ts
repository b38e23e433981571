// GET /v1/reviews?subject=
import type { RouteModule } from '../../../contracts/wiring.js';
import { listReviews } from '../operations.js';
import { ListReviewsQuery, ReviewList } from '../schemas.js';

export const listReviewsRoute: RouteModule = (app) => {
  app.get(
    '/reviews',
    {
      schema: {
        tags: ['Reviews'],
        summary: 'List reviews about a party',
        description: 'The visible reviews about one buyer or seller (`subject`, required) that were not removed, newest first.',
        querystring: ListReviewsQuery,
        response: { 200: ReviewList },
      },
    },
    async (request) => listReviews(request.ctx, request.query),
  );
};
