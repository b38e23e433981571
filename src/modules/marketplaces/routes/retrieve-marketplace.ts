// GET /manage/v1/marketplaces/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { retrieveManagedMarketplace } from '../operations.js';
import { ManagedMarketplace } from '../schemas.js';

export const retrieveMarketplaceRoute: RouteModule = (app) => {
  app.get(
    '/marketplaces/:id',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Retrieve a marketplace',
        description: 'A marketplace of a workspace you are not a member of answers 404 resource_missing.',
        params: IdParams,
        response: { 200: ManagedMarketplace },
      },
    },
    async (request) => retrieveManagedMarketplace(request.user, request.params.id),
  );
};
