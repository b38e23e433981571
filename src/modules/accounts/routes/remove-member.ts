// DELETE /manage/v1/members/{user_id}
import type { RouteModule } from '../../../contracts/wiring.js';
import { removeMember } from '../members.js';
import { MANAGEMENT_TAG, Member, MemberParams, WorkspaceQuery } from '../schemas.js';

export const removeMemberRoute: RouteModule = (app) => {
  app.delete(
    '/members/:user_id',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Remove a member',
        description:
          'Anyone may remove themselves; removing others needs owner or admin, and removing an owner needs owner (403 permission_denied otherwise). ' +
          'The last owner cannot be removed (409 invalid_state). Answers the removed member.',
        params: MemberParams,
        querystring: WorkspaceQuery,
        response: { 200: Member },
      },
    },
    async (request) => removeMember(request.user, request.query, { userId: request.params.user_id }),
  );
};
