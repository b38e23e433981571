// DELETE /manage/v1/members/{user_id}
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../../http/types.js';
import { removeMember } from '../../accounts/members.js';
import { Member, TAG, WorkspaceQuery } from '../schemas.js';

const Params = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const removeMemberRoute: RouteModule = (app, services) => {
  app.delete(
    '/members/:user_id',
    {
      schema: {
        tags: [TAG],
        summary: 'Remove a member',
        description:
          'Anyone may remove themselves; removing others needs owner or admin, and removing an owner needs owner. ' +
          'The last owner cannot be removed (409 invalid_state). Answers the removed member.',
        params: Params,
        querystring: WorkspaceQuery,
        response: { 200: Member },
      },
    },
    async (request) =>
      removeMember(services, request.principal, { workspace: request.query.workspace, userId: request.params.user_id }),
  );
};
