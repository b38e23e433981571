// GET /manage/v1/workspaces: the workspaces of the user, with their role in each.
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../../http/types.js';
import { listWorkspaces } from '../../accounts/operations.js';
import { EXAMPLES, Role, TAG, Workspace } from '../schemas.js';

const Membership = Type.Object({ object: Type.Literal('workspace_membership'), workspace: Workspace, role: Role });

export const listWorkspacesRoute: RouteModule = (app, services) => {
  app.get(
    '/workspaces',
    {
      schema: {
        tags: [TAG],
        summary: 'List your workspaces',
        operationId: 'listWorkspaces',
        description: 'Members of several workspaces pass one of these ids as the workspace query parameter of workspace-level operations.',
        response: {
          200: Type.Object(
            { object: Type.Literal('list'), data: Type.Array(Membership), has_more: Type.Boolean(), next_cursor: Type.Null() },
            {
              examples: [
                {
                  object: 'list',
                  data: [{ object: 'workspace_membership', workspace: EXAMPLES.workspace, role: 'owner' }],
                  has_more: false,
                  next_cursor: null,
                },
              ],
            },
          ),
        },
      },
    },
    async (request) => ({
      object: 'list' as const,
      data: await listWorkspaces(services.db, request.principal.userId),
      has_more: false,
      next_cursor: null,
    }),
  );
};
