// GET /manage/v1/marketplaces/{id}
import type { RouteModule } from '../../../http/types.js';
import { IdParams } from '../../../http/schemas.js';
import { getMarketplace } from '../../marketplaces/operations.js';
import { ManagedMarketplace, TAG } from '../schemas.js';

export const getMarketplaceRoute: RouteModule = (app, services) => {
  app.get(
    '/marketplaces/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Retrieve a marketplace',
        description: 'A marketplace of a workspace you are not a member of answers 404 resource_missing.',
        params: IdParams,
        response: { 200: ManagedMarketplace },
      },
    },
    async (request) => getMarketplace(services, request.principal, request.params.id),
  );
};
