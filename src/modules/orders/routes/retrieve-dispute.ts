// GET /v1/disputes/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveDispute } from '../disputes.js';
import { Dispute } from '../schemas.js';

export const retrieveDisputeRoute: RouteModule = (app) => {
  app.get(
    '/disputes/:id',
    {
      schema: {
        tags: ['Disputes'],
        summary: 'Retrieve a dispute',
        params: IdParams,
        response: { 200: Dispute },
      },
    },
    async (request) => retrieveDispute(request.ctx, request.params.id),
  );
};
