// POST /manage/v1/login: a management token for an email and password.
import { Type } from '@sinclair/typebox';
import { Body } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { login } from '../../accounts/operations.js';
import { Email, Session, TAG } from '../schemas.js';

const LoginBody = Body({ email: Email, password: Type.String({ minLength: 1, maxLength: 200 }) });
Object.assign(LoginBody, { examples: [{ email: 'ada@example.com', password: 'correct horse battery staple' }] });

export const loginRoute: RouteModule = (app, services) => {
  app.post(
    '/login',
    {
      schema: {
        tags: [TAG],
        summary: 'Log in',
        description:
          'Unknown email and wrong password answer the same 401 invalid_credentials. After 5 failures for one email within 15 minutes, ' +
          'logins for it answer 429 rate_limited with Retry-After.',
        body: LoginBody,
        response: { 200: Session },
      },
    },
    async (request) => login(services, request.body),
  );
};
