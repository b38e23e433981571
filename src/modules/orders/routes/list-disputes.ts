// GET /v1/disputes
import type { RouteModule } from '../../../contracts/wiring.js';
import { listDisputes } from '../disputes.js';
import { DisputeList, ListDisputesQuery } from '../schemas.js';

export const listDisputesRoute: RouteModule = (app) => {
  app.get(
    '/disputes',
    {
      schema: {
        tags: ['Disputes'],
        summary: 'List disputes',
        description:
          'Newest first, filtered by `order` and `status`.',
        querystring: ListDisputesQuery,
        response: { 200: DisputeList },
      },
    },
    async (request) => listDisputes(request.ctx, request.query),
  );
};
