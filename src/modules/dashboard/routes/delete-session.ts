// DELETE /manage/v1/session: log out of the dashboard; clears the cookie.
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { clearedCookieOptions } from '../cookie.js';
import { deleteSession } from '../operations.js';
import { DeletedSession } from '../schemas.js';
import { SESSION_COOKIE } from '../sessions.js';

export const deleteSessionRoute: RouteModule = (app) => {
  app.delete(
    '/session',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Log out of the dashboard',
        operationId: 'deleteSession',
        description:
          'Ends the session of the cookie at once and clears the cookie. Like every change made with the cookie it needs X-CSRF-Token ' +
          '(403 csrf_token_invalid).',
        response: { 200: DeletedSession },
      },
    },
    async (request, reply) => {
      const answer = await deleteSession(request.user, request.dashboardSession!);
      reply.clearCookie(SESSION_COOKIE, clearedCookieOptions(request.service.config));
      return answer;
    },
  );
};
