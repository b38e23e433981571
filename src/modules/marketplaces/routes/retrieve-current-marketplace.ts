// GET /v1/marketplace: the marketplace and mode the key belongs to.
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveMarketplace } from '../current-marketplace.js';
import { Marketplace } from '../schemas.js';

export const retrieveCurrentMarketplaceRoute: RouteModule = (app) => {
  app.get(
    '/marketplace',
    {
      schema: {
        tags: ['Marketplace'],
        summary: 'Retrieve the marketplace of this key',
        operationId: 'retrieveMarketplace',
        description: 'Answers from the key cache: no database round trip on the hot path.',
        response: { 200: Marketplace },
      },
    },
    async (request) => retrieveMarketplace(request.api),
  );
};
