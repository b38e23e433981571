// GET /manage/v1/members: the members of a workspace, newest user first.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listMembers } from '../members.js';
import { MANAGEMENT_TAG, MemberList, WorkspacePageQuery } from '../schemas.js';

export const listMembersRoute: RouteModule = (app) => {
  app.get(
    '/members',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'List workspace members',
        description:
          'Every member of the workspace with their role, newest user first; an invited user is listed with status invited until they accept. ' +
          'Any role may list them.',
        querystring: WorkspacePageQuery,
        response: { 200: MemberList },
      },
    },
    async (request) => listMembers(request.user, request.query),
  );
};
