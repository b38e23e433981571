// POST /manage/v1/signup: a user, their workspace and a management token.
import type { RouteModule } from '../../../contracts/wiring.js';
import { signup } from '../operations.js';
import { MANAGEMENT_TAG, SignupBody, SignupSession } from '../schemas.js';

export const signupRoute: RouteModule = (app) => {
  app.post(
    '/signup',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Sign up: create a user and their workspace',
        description:
          'Answers 403 signup_closed when the service runs with SIGNUP=closed, 409 resource_exists (param email) when the email has an account. ' +
          'Every attempt is counted before anything is checked: at most 10 per client address and 3 per email address in an hour; ' +
          'past either, 429 rate_limited with Retry-After, the seconds until that window ends.',
        body: SignupBody,
        response: { 201: SignupSession },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return signup(request.service, request.body, request.ip);
    },
  );
};
