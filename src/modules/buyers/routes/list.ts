// GET /v1/buyers: newest first, filtered by external_id.
import { pageRequest } from '../../../http/pagination.js';
import type { App, Services } from '../../../http/types.js';
import { listBuyers } from '../operations.js';
import { BuyerList, BuyerListQuery } from '../schemas.js';

export function listBuyersRoute(app: App, services: Services): void {
  app.get(
    '/buyers',
    {
      schema: {
        tags: ['Buyers'],
        summary: 'List buyers',
        description: 'Newest first. `external_id` finds the buyer with that external id.',
        querystring: BuyerListQuery,
        response: { 200: BuyerList },
      },
    },
    async (request) =>
      listBuyers(services, request.api.scope, pageRequest(request.query, 'buyer'), { externalId: request.query.external_id }),
  );
}
