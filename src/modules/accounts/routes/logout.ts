// POST /manage/v1/logout: the management token of the request stops working.
import { bearerToken } from '../../../http/auth.js';
import type { RouteModule } from '../../../http/types.js';
import { logout } from '../operations.js';
import { LogoutAnswer, MANAGEMENT_TAG } from '../schemas.js';

export const logoutRoute: RouteModule = (app) => {
  app.post(
    '/logout',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Log out: revoke this management token',
        description: 'The token of this request stops working at once; other tokens of the user (other logins) keep working.',
        response: { 200: LogoutAnswer },
      },
    },
    async (request) => logout(request.user, bearerToken(request) ?? ''),
  );
};
