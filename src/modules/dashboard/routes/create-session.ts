// POST /manage/v1/sessions: the dashboard's login; sets the session cookie.
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { sessionCookieOptions } from '../cookie.js';
import { createSession } from '../operations.js';
import { CreateSessionBody, DashboardSession } from '../schemas.js';
import { SESSION_COOKIE } from '../sessions.js';

export const createSessionRoute: RouteModule = (app) => {
  app.post(
    '/sessions',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Log in to the dashboard',
        operationId: 'createSession',
        description:
          'Sets the session cookie mb_session (HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https) and answers the ' +
          'csrf_token to send as X-CSRF-Token with every request but GET and HEAD. The session ends after 12 hours without a request, ' +
          '7 days after login, at DELETE /manage/v1/session, or when the password is reset. ' +
          'The same checks as POST /manage/v1/login: unknown email and wrong password answer 401 invalid_credentials, and failed ' +
          'attempts are counted and slowed the same way (429 rate_limited with Retry-After).',
        body: CreateSessionBody,
        response: { 200: DashboardSession },
      },
    },
    async (request, reply) => {
      const started = await createSession(request.service, request.body, request.ip);
      reply.setCookie(SESSION_COOKIE, started.token, sessionCookieOptions(request.service.config));
      // The answer holds the CSRF token: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return started.answer;
    },
  );
};
