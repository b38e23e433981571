// POST /manage/v1/members: invites a person (with or without an account) as a pending member.
import type { RouteModule } from '../../../contracts/wiring.js';
import { addMember } from '../members.js';
import { AddMemberBody, MANAGEMENT_TAG, Member, WorkspaceQuery } from '../schemas.js';

export const addMemberRoute: RouteModule = (app) => {
  app.post(
    '/members',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Invite a member',
        description:
          'Needs owner or admin; inviting an owner needs owner (403 permission_denied otherwise). The member is added with status invited ' +
          'and reaches nothing in the workspace until they accept the invitation emailed to them (valid 7 days, single use). The link is ' +
          'sent only to that address: no answer and no outbox view holds it. A person with an account accepts signed in with it; one ' +
          'without chooses a password. An address already a member (or invited) answers 409 resource_exists (param email); more than ' +
          'MAX_PENDING_INVITATIONS pending members 409 limit_exceeded (param email); more than 3 invitation emails to one address in 24 ' +
          'hours, or 50 from one workspace, 429 rate_limited with Retry-After.',
        querystring: WorkspaceQuery,
        body: AddMemberBody,
        response: { 201: Member },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return addMember(request.user, request.query, request.body);
    },
  );
};
