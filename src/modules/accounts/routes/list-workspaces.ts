// GET /manage/v1/workspaces: the workspaces of the user, with their role in each.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listWorkspaces } from '../operations.js';
import { ListWorkspacesQuery, MANAGEMENT_TAG, MembershipList } from '../schemas.js';

export const listWorkspacesRoute: RouteModule = (app) => {
  app.get(
    '/workspaces',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'List your workspaces',
        operationId: 'listWorkspaces',
        description: 'Members of several workspaces pass one of these ids as the workspace query parameter of workspace-level operations.',
        querystring: ListWorkspacesQuery,
        response: { 200: MembershipList },
      },
    },
    async (request) => listWorkspaces(request.user, request.query),
  );
};
