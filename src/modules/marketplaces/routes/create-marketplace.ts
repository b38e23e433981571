// POST /manage/v1/marketplaces: a marketplace with its test and live keys.
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG, WorkspaceQuery } from '../../accounts/index.js';
import { createMarketplaceFor } from '../operations.js';
import { CreatedMarketplace, CreateMarketplaceBody } from '../schemas.js';

export const createMarketplaceRoute: RouteModule = (app) => {
  app.post(
    '/marketplaces',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Create a marketplace',
        description:
          'Needs the owner or admin role (403 permission_denied otherwise). The currency (ISO 4217) is fixed at creation. Test mode starts connected to the simulated processor. ' +
          'The secret keys are shown in this answer only. A workspace has at most `MAX_MARKETPLACES_PER_WORKSPACE` marketplaces ' +
          '(a setting of the service, default 50): one more answers 409 `limit_exceeded`.',
        querystring: WorkspaceQuery,
        body: CreateMarketplaceBody,
        response: { 201: CreatedMarketplace },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createMarketplaceFor(request.user, request.query, request.body);
    },
  );
};
