// POST /manage/v1/email_verifications: the signed-in user asks for a new verification link.
import type { RouteModule } from '../../../contracts/wiring.js';
import { EmailVerification, MANAGEMENT_TAG } from '../schemas.js';
import { resendVerification } from '../verification.js';

export const resendVerificationRoute: RouteModule = (app) => {
  app.post(
    '/email_verifications',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Send the verification link again',
        description:
          'Emails a new link (valid 24 hours) to the signed-in user\'s address. At most 3 per hour for one user and 20 per hour from one ' +
          'client address (429 rate_limited with Retry-After). An address already verified answers 409 invalid_state.',
        response: { 202: EmailVerification },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return resendVerification(request.user, request.ip);
    },
  );
};
