// POST /manage/v1/logout: the management token of the request stops working.
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../../http/types.js';
import { bearerToken } from '../../../http/auth.js';
import { revokeToken } from '../../accounts/tokens.js';
import { TAG } from '../schemas.js';

export const logoutRoute: RouteModule = (app, services) => {
  app.post(
    '/logout',
    {
      schema: {
        tags: [TAG],
        summary: 'Log out: revoke this management token',
        description: 'The token of this request stops working at once; other tokens of the user (other logins) keep working.',
        response: {
          200: Type.Object({ object: Type.Literal('logout'), revoked: Type.Literal(true) }, { examples: [{ object: 'logout', revoked: true }] }),
        },
      },
    },
    async (request) => {
      await revokeToken(services.db, services.clock, request.principal, bearerToken(request) ?? '');
      return { object: 'logout' as const, revoked: true as const };
    },
  );
};
