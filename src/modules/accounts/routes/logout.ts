// POST /manage/v1/logout: the management token of the request stops working.
import { bearerToken } from '../../../http/api-auth.js';
import { errors } from '../../../errors.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { logout } from '../operations.js';
import { LogoutAnswer, MANAGEMENT_TAG } from '../schemas.js';

export const logoutRoute: RouteModule = (app) => {
  app.post(
    '/logout',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Log out: revoke this management token',
        description:
          'The token of this request stops working at once; other tokens of the user (other logins) keep working. ' +
          'A request signed in by the dashboard session cookie (no token) answers 400 invalid_request: the dashboard logs out with DELETE /manage/v1/session.',
        response: { 200: LogoutAnswer },
      },
    },
    async (request) => {
      const token = bearerToken(request);
      // A cookie-only request has no token to revoke; answering "revoked" would leave the session alive.
      if (token === null) throw errors.invalidRequest('This request carries no management token to revoke: end a dashboard session with DELETE /manage/v1/session.');
      return logout(request.user, token);
    },
  );
};
