// DELETE /manage/v1/members {email}: the same removal, naming the member by email.
import type { RouteModule } from '../../../contracts/wiring.js';
import { removeMember } from '../members.js';
import { MANAGEMENT_TAG, Member, RemoveMemberByEmailBody, WorkspaceQuery } from '../schemas.js';

export const removeMemberByEmailRoute: RouteModule = (app) => {
  app.delete(
    '/members',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Remove a member by email',
        description:
          'The same removal, with the same permissions (403 permission_denied), as DELETE /manage/v1/members/{user_id}, ' +
          'naming the member by email (case-insensitive). ' +
          'An email that is not a member of the workspace answers 404 resource_missing (param email).',
        querystring: WorkspaceQuery,
        body: RemoveMemberByEmailBody,
        response: { 200: Member },
      },
    },
    async (request) => removeMember(request.user, request.query, { email: request.body.email }),
  );
};
