// PATCH /manage/v1/members/{user_id}: change a member's role.
import type { RouteModule } from '../../../contracts/wiring.js';
import { changeMemberRole } from '../members.js';
import { MANAGEMENT_TAG, Member, MemberParams, UpdateMemberBody, WorkspaceQuery } from '../schemas.js';

export const updateMemberRoute: RouteModule = (app) => {
  app.patch(
    '/members/:user_id',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: "Change a member's role",
        operationId: 'updateMember',
        description:
          'Needs owner or admin; changing the role of an owner, or making a member owner, needs owner (403 permission_denied otherwise). ' +
          'The last owner cannot be given another role (409 invalid_state). A member not in the workspace answers 404 resource_missing. ' +
          'Answers the member with the new role.',
        params: MemberParams,
        querystring: WorkspaceQuery,
        body: UpdateMemberBody,
        response: { 200: Member },
      },
    },
    async (request) => changeMemberRole(request.user, request.query, request.params.user_id, request.body),
  );
};
