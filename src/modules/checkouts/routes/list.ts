// GET /v1/checkouts
import type { RouteModule } from '../../../contracts/wiring.js';
import { listCheckouts } from '../operations.js';
import { CheckoutList, ListCheckoutsQuery } from '../schemas.js';

export const listCheckoutsRoute: RouteModule = (app) => {
  app.get(
    '/checkouts',
    {
      config: { expand: 'checkout' },
      schema: {
        tags: ['Checkouts'],
        summary: 'List checkouts',
        description: 'Newest first, filtered by `buyer` and `status`; paged by `limit` and `starting_after` like every list.',
        querystring: ListCheckoutsQuery,
        response: { 200: CheckoutList },
      },
    },
    async (request) => listCheckouts(request.ctx, request.query),
  );
};
