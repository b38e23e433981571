// GET /v1/card_disputes, GET /v1/card_disputes/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { listCardDisputes, retrieveCardDispute } from '../operations.js';
import { CardDispute, CardDisputeList, ListCardDisputesQuery } from '../schemas.js';

export const cardDisputeRoutes: RouteModule = (app) => {
  app.get(
    '/card_disputes',
    { schema: { tags: ['Card disputes'], summary: 'List card disputes', description: 'Chargebacks the processor reported, newest first, filtered by `payment`, `order` and `status`.', querystring: ListCardDisputesQuery, response: { 200: CardDisputeList } } },
    async (request) => listCardDisputes(request.ctx, request.query),
  );
  app.get(
    '/card_disputes/:id',
    { schema: { tags: ['Card disputes'], summary: 'Retrieve a card dispute', params: IdParams, response: { 200: CardDispute } } },
    async (request) => retrieveCardDispute(request.ctx, request.params.id),
  );
};
