// GET /manage/v1/marketplaces: the workspace's marketplaces, newest first.
import type { RouteModule } from '../../../http/types.js';
import { ListOf } from '../../../http/schemas.js';
import { listMarketplaces } from '../../marketplaces/operations.js';
import { ManagedMarketplace, TAG, WorkspacePageQuery } from '../schemas.js';

export const listMarketplacesRoute: RouteModule = (app, services) => {
  app.get(
    '/marketplaces',
    {
      schema: {
        tags: [TAG],
        summary: 'List marketplaces',
        description: 'The marketplaces of the workspace, newest first. Any role may list them.',
        querystring: WorkspacePageQuery,
        response: { 200: ListOf(ManagedMarketplace) },
      },
    },
    async (request) => listMarketplaces(services, request.principal, request.query),
  );
};
