// POST /manage/v1/invitations/accept: a person without an account accepts their invitation by
// choosing a password, and is logged in.
import type { RouteModule } from '../../../contracts/wiring.js';
import { acceptInvitation } from '../invitations.js';
import { AcceptInvitationBody, MANAGEMENT_TAG, Session } from '../schemas.js';

export const acceptInvitationRoute: RouteModule = (app) => {
  app.post(
    '/invitations/accept',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Accept an invitation: choose a password',
        description:
          'For an invited address without an account: sets its password, makes the membership active, marks the address proved and ' +
          'answers a management token. Every attempt is counted before the token is checked and before any password is hashed: at most ' +
          '20 per 15 minutes from one client address and 5 per token; past either, 429 rate_limited with Retry-After. A used, withdrawn ' +
          'or expired invitation answers 400 invalid_request with param token, as does one for an existing account (accept that one ' +
          'signed in, with POST /manage/v1/invitations/join).',
        body: AcceptInvitationBody,
        response: { 200: Session },
      },
    },
    async (request) => acceptInvitation(request.service, request.body, request.ip),
  );
};
