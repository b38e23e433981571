// GET /v1/buyers: newest first, filtered by external_id.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listBuyers } from '../operations.js';
import { BuyerList, ListBuyersQuery } from '../schemas.js';

export const listBuyersRoute: RouteModule = (app) => {
  app.get(
    '/buyers',
    {
      schema: {
        tags: ['Buyers'],
        summary: 'List buyers',
        description: 'Newest first. `external_id` finds the buyer with that external id.',
        querystring: ListBuyersQuery,
        response: { 200: BuyerList },
      },
    },
    async (request) => listBuyers(request.ctx, request.query),
  );
};
