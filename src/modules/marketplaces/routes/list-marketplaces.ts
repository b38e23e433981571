// GET /manage/v1/marketplaces: the workspace's marketplaces, newest first.
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG, WorkspacePageQuery } from '../../accounts/index.js';
import { listMarketplaces } from '../operations.js';
import { ManagedMarketplaceList } from '../schemas.js';

export const listMarketplacesRoute: RouteModule = (app) => {
  app.get(
    '/marketplaces',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'List marketplaces',
        description: 'The marketplaces of the workspace, newest first. Any role may list them.',
        querystring: WorkspacePageQuery,
        response: { 200: ManagedMarketplaceList },
      },
    },
    async (request) => listMarketplaces(request.user, request.query),
  );
};
