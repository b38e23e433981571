// GET /manage/v1/session: who is signed in, with the CSRF token and their workspaces.
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { retrieveSession } from '../operations.js';
import { DashboardSessionDetails } from '../schemas.js';

export const retrieveSessionRoute: RouteModule = (app) => {
  app.get(
    '/session',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Retrieve the dashboard session',
        operationId: 'retrieveSession',
        description:
          'Authenticated by the session cookie only (a management token is not a session): without a live session 401 ' +
          'authentication_required. Answers the csrf_token again, so a reloaded page can carry on.',
        response: { 200: DashboardSessionDetails },
      },
    },
    async (request, reply) => {
      // The answer holds the CSRF token: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return retrieveSession(request.user, request.dashboardSession!);
    },
  );
};
