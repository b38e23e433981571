// DELETE /manage/v1/members/{user_id}, and DELETE /manage/v1/members {email} as contract 2 writes it.
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../../http/types.js';
import { removeMember } from '../../accounts/members.js';
import { Body } from '../../../http/schemas.js';
import { Email, Member, TAG, WorkspaceQuery } from '../schemas.js';

const Params = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

const RemoveByEmailBody = Body({ email: Email });
Object.assign(RemoveByEmailBody, { examples: [{ email: 'grace@example.com' }] });

export const removeMemberRoute: RouteModule = (app, services) => {
  app.delete(
    '/members/:user_id',
    {
      schema: {
        tags: [TAG],
        summary: 'Remove a member',
        description:
          'Anyone may remove themselves; removing others needs owner or admin, and removing an owner needs owner (403 permission_denied otherwise). ' +
          'The last owner cannot be removed (409 invalid_state). Answers the removed member.',
        params: Params,
        querystring: WorkspaceQuery,
        response: { 200: Member },
      },
    },
    async (request) =>
      removeMember(services, request.principal, { workspace: request.query.workspace, userId: request.params.user_id }),
  );

  app.delete(
    '/members',
    {
      schema: {
        tags: [TAG],
        summary: 'Remove a member by email',
        description:
          'The same removal, with the same permissions (403 permission_denied), as DELETE /manage/v1/members/{user_id}, ' +
          'naming the member by email (case-insensitive). ' +
          'An email that is not a member of the workspace answers 404 resource_missing (param email).',
        querystring: WorkspaceQuery,
        body: RemoveByEmailBody,
        response: { 200: Member },
      },
    },
    async (request) => removeMember(services, request.principal, { workspace: request.query.workspace, email: request.body.email }),
  );
};
