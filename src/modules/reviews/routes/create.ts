// POST /v1/orders/{id}/reviews
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { createReview } from '../operations.js';
import { CreateReviewBody, Review } from '../schemas.js';

export const createReviewRoute: RouteModule = (app) => {
  app.post(
    '/orders/:id/reviews',
    {
      schema: {
        tags: ['Reviews'],
        summary: 'Review an order',
        description:
          'The buyer reviews the seller, or the seller the buyer, of a completed order (409 `invalid_state` otherwise), within ' +
          '`review_window_seconds` of its completion (409 `review_window_closed`), once per party (409 `already_reviewed`). ' +
          'The review is hidden (rating and body null) until the other party has reviewed too or the window closes; then both ' +
          'become visible (`review.visible`) and count toward reputation. Emits `review.created`.',
        params: IdParams,
        body: CreateReviewBody,
        response: { 201: Review },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createReview(request.ctx, request.params.id, request.body);
    },
  );
};
