// GET /manage/v1/members
import type { RouteModule } from '../../../http/types.js';
import { ListOf } from '../../../http/schemas.js';
import { listMembers } from '../../accounts/members.js';
import { Member, TAG, WorkspacePageQuery } from '../schemas.js';

export const listMembersRoute: RouteModule = (app, services) => {
  app.get(
    '/members',
    {
      schema: {
        tags: [TAG],
        summary: 'List workspace members',
        description:
          'Every member of the workspace with their role, newest user first; an invited user is listed with status invited until they accept. ' +
          'Any role may list them.',
        querystring: WorkspacePageQuery,
        response: { 200: ListOf(Member) },
      },
    },
    async (request) => listMembers(services, request.principal, request.query),
  );
};
