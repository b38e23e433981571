// POST /manage/v1/login: a management token for an email and password.
import type { RouteModule } from '../../../contracts/wiring.js';
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
          'Unknown email and wrong password answer the same 401 invalid_credentials. Every attempt is counted before the password is ' +
          'checked, in 15-minute windows: at most 5 for one email from one client address, 100 from one client address, and 50 for one ' +
          'email from all addresses together (attempts the first two refuse are not counted in the third, so one client cannot lock ' +
          'the owner out). Past any of them, logins answer 429 rate_limited with Retry-After, the seconds until that window ends. A ' +
          'successful login does not count: it clears its client address\'s count for the email. The client address is the ' +
          "connection's, or the one the proxies named by TRUST_PROXY forward.",
        body: LoginBody,
        response: { 200: Session },
      },
    },
    async (request) => login(request.service, request.body, request.ip),
  );
};
