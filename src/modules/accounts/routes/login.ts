// POST /manage/v1/login: a management token for an email and password.
import type { RouteModule } from '../../../http/types.js';
import { login } from '../operations.js';
import { LoginBody, MANAGEMENT_TAG, Session } from '../schemas.js';

export const loginRoute: RouteModule = (app) => {
  app.post(
    '/login',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Log in',
        description:
          'Unknown email and wrong password answer the same 401 invalid_credentials. After 5 failures for one email within 15 minutes, ' +
          'logins for it answer 429 rate_limited with Retry-After.',
        body: LoginBody,
        response: { 200: Session },
      },
    },
    async (request) => login(request.service, request.body),
  );
};
