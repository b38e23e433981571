// POST /v1/reviews/{id}/remove
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { removeReview } from '../operations.js';
import { RemoveReviewBody, Review } from '../schemas.js';

export const removeReviewRoute: RouteModule = (app) => {
  app.post(
    '/reviews/:id/remove',
    {
      schema: {
        tags: ['Reviews'],
        summary: 'Remove a review',
        description:
          'Moderation: the review is removed (`review.removed`), no longer listed, and its reputation event is voided ' +
          '(`reputation_event.voided`). 409 `invalid_state` when already removed.',
        params: IdParams,
        body: RemoveReviewBody,
        response: { 200: Review },
      },
    },
    async (request) => removeReview(request.ctx, request.params.id, request.body.reason),
  );
};
