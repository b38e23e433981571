// GET /v1/sellers: newest first, filtered by external_id or status.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listSellers } from '../operations.js';
import { ListSellersQuery, SellerList } from '../schemas.js';

export const listSellersRoute: RouteModule = (app) => {
  app.get(
    '/sellers',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'List sellers',
        description: 'Newest first. `external_id` finds the seller with that external id.',
        querystring: ListSellersQuery,
        response: { 200: SellerList },
      },
    },
    async (request) => listSellers(request.ctx, request.query),
  );
};
