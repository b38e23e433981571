// POST /manage/v1/invitations/accept: an invited user sets their password and is logged in.
import type { RouteModule } from '../../../http/types.js';
import { acceptInvitation } from '../invitations.js';
import { AcceptInvitationBody, MANAGEMENT_TAG, Session } from '../schemas.js';

export const acceptInvitationRoute: RouteModule = (app) => {
  app.post(
    '/invitations/accept',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Accept an invitation: choose a password',
        description: 'A used, withdrawn or expired invitation answers 400 invalid_request with param token.',
        body: AcceptInvitationBody,
        response: { 200: Session },
      },
    },
    async (request) => acceptInvitation(request.service, request.body),
  );
};
