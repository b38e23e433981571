// POST /manage/v1/invitations/accept: an invited user sets their password and is logged in.
import { Type } from '@sinclair/typebox';
import { Body } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { acceptInvitation } from '../../accounts/invitations.js';
import { Password, Session, TAG } from '../schemas.js';

const AcceptBody = Body({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the invitation link (inv_…).' }),
  password: Password,
});
Object.assign(AcceptBody, { examples: [{ token: 'inv_Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4e5f6', password: 'correct horse battery staple' }] });

export const acceptInvitationRoute: RouteModule = (app, services) => {
  app.post(
    '/invitations/accept',
    {
      schema: {
        tags: [TAG],
        summary: 'Accept an invitation: choose a password',
        description: 'A used, withdrawn or expired invitation answers 400 invalid_request with param token.',
        body: AcceptBody,
        response: { 200: Session },
      },
    },
    async (request) => acceptInvitation(services, request.body),
  );
};
