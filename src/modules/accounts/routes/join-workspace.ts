// POST /manage/v1/invitations/join: a signed-in user accepts an invitation sent to their address.
import type { RouteModule } from '../../../contracts/wiring.js';
import { joinWorkspace } from '../invitations.js';
import { JoinWorkspaceBody, MANAGEMENT_TAG, Membership } from '../schemas.js';

export const joinWorkspaceRoute: RouteModule = (app) => {
  app.post(
    '/invitations/join',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Accept an invitation, signed in',
        description:
          'For an invited address that has an account: the emailed link proves the mailbox, the credentials the account. Makes the ' +
          'membership active and marks the address proved. Throttled like POST /manage/v1/invitations/accept (429 rate_limited with ' +
          'Retry-After). A used, withdrawn or expired invitation, one for an address without an account, or one sent to another ' +
          'address than the signed-in user\'s answers 400 invalid_request with param token.',
        body: JoinWorkspaceBody,
        response: { 200: Membership },
      },
    },
    async (request) => joinWorkspace(request.user, request.body, request.ip),
  );
};
