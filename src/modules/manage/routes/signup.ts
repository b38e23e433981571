// POST /manage/v1/signup: a user, their workspace and a management token.
import { Type } from '@sinclair/typebox';
import { Body } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { signup } from '../../accounts/operations.js';
import { Email, EXAMPLES, Password, Session, TAG, Workspace } from '../schemas.js';

const SignupBody = Body({
  email: Email,
  password: Password,
  workspace_name: Type.String({ minLength: 1, maxLength: 120, examples: ['Acme'] }),
});
Object.assign(SignupBody, { examples: [{ email: 'ada@example.com', password: 'correct horse battery staple', workspace_name: 'Acme' }] });

const SignupAnswer = Type.Composite([Session, Type.Object({ workspace: Workspace })], {
  examples: [{ user: EXAMPLES.user, ...EXAMPLES.token, workspace: EXAMPLES.workspace }],
});

export const signupRoute: RouteModule = (app, services) => {
  app.post(
    '/signup',
    {
      schema: {
        tags: [TAG],
        summary: 'Sign up: create a user and their workspace',
        description: 'Answers 403 signup_closed when the service runs with SIGNUP=closed, 409 resource_exists (param email) when the email has an account.',
        body: SignupBody,
        response: { 201: SignupAnswer },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return signup(services, request.body);
    },
  );
};
