// POST /manage/v1/signup: a user, their workspace and a management token.
import type { RouteModule } from '../../../http/types.js';
import { signup } from '../operations.js';
import { MANAGEMENT_TAG, SignupBody, SignupSession } from '../schemas.js';

export const signupRoute: RouteModule = (app) => {
  app.post(
    '/signup',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Sign up: create a user and their workspace',
        description: 'Answers 403 signup_closed when the service runs with SIGNUP=closed, 409 resource_exists (param email) when the email has an account.',
        body: SignupBody,
        response: { 201: SignupSession },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return signup(request.service, request.body);
    },
  );
};
