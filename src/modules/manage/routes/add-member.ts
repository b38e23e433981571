// POST /manage/v1/members: adds an existing user, or invites a new one.
import { Type } from '@sinclair/typebox';
import { Body, Nullable, Timestamp } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { addMember } from '../../accounts/members.js';
import { Email, EXAMPLES, Member, Role, TAG, WorkspaceQuery } from '../schemas.js';

const AddBody = Body({ email: Email, role: Role });
Object.assign(AddBody, { examples: [{ email: 'grace@example.com', role: 'developer' }] });

const Invitation = Type.Object({
  url: Type.String({ description: 'Where the invitee chooses a password. Also emailed to them; shown here once.' }),
  token: Type.String({ description: 'The token of the link, for POST /manage/v1/invitations/accept.' }),
  expires_at: Timestamp,
});

const AddedMember = Type.Composite([Member, Type.Object({ invitation: Nullable(Invitation) })], {
  examples: [
    {
      ...EXAMPLES.member,
      id: 'usr_01jd0000000000000000000001',
      email: 'grace@example.com',
      role: 'developer',
      status: 'invited',
      invitation: {
        url: 'https://market.example.com/dashboard/accept-invitation?token=inv_Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4e5f6',
        token: 'inv_Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4e5f6',
        expires_at: '2026-11-28T09:30:00.000Z',
      },
    },
  ],
});

export const addMemberRoute: RouteModule = (app, services) => {
  app.post(
    '/members',
    {
      schema: {
        tags: [TAG],
        summary: 'Add a member',
        description:
          'Needs owner or admin; adding an owner needs owner (403 permission_denied otherwise). An email with an account is added at once (and told by email); ' +
          'an email without one gets an invited user and an invitation link valid 7 days (answered in invitation, and emailed). ' +
          'A member already there answers 409 resource_exists (param email).',
        querystring: WorkspaceQuery,
        body: AddBody,
        response: { 201: AddedMember },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return addMember(services, request.principal, { ...request.body, workspace: request.query.workspace });
    },
  );
};
