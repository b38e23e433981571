// POST /manage/v1/members: adds an existing user, or invites a new one.
import type { RouteModule } from '../../../http/types.js';
import { addMember } from '../members.js';
import { AddedMember, AddMemberBody, MANAGEMENT_TAG, WorkspaceQuery } from '../schemas.js';

export const addMemberRoute: RouteModule = (app) => {
  app.post(
    '/members',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Add a member',
        description:
          'Needs owner or admin; adding an owner needs owner (403 permission_denied otherwise). An email with an account is added at once (and told by email); ' +
          'an email without one gets an invited user and an invitation link valid 7 days (answered in invitation, and emailed). ' +
          'A member already there answers 409 resource_exists (param email).',
        querystring: WorkspaceQuery,
        body: AddMemberBody,
        response: { 201: AddedMember },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return addMember(request.user, request.query, request.body);
    },
  );
};
