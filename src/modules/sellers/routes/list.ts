// GET /v1/sellers: newest first, filtered by external_id or status.
import { pageRequest } from '../../../http/pagination.js';
import type { App, Services } from '../../../http/types.js';
import { listSellers } from '../operations.js';
import { SellerList, SellerListQuery } from '../schemas.js';

export function listSellersRoute(app: App, services: Services): void {
  app.get(
    '/sellers',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'List sellers',
        description: 'Newest first. `external_id` finds the seller with that external id.',
        querystring: SellerListQuery,
        response: { 200: SellerList },
      },
    },
    async (request) => {
      const { external_id, status } = request.query;
      return listSellers(services, request.api.scope, pageRequest(request.query, 'seller'), { externalId: external_id, status });
    },
  );
}
