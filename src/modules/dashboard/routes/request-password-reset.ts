// POST /manage/v1/password_resets: email a password reset link.
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { requestPasswordReset } from '../password-resets.js';
import { PasswordResetRequested, RequestPasswordResetBody } from '../schemas.js';

export const requestPasswordResetRoute: RouteModule = (app) => {
  app.post(
    '/password_resets',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Request a password reset',
        operationId: 'requestPasswordReset',
        description:
          'Always answers 202, whether the email has an account or not. For a user who can log in, an email with the link ' +
          '{PUBLIC_URL}/dashboard/reset-password#token=pwr_… (valid 1 hour, once) is queued in the outbox. Every request is counted: ' +
          'at most 20 per client address and 3 per email address in an hour; past either, 429 rate_limited with Retry-After.',
        body: RequestPasswordResetBody,
        response: { 202: PasswordResetRequested },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return requestPasswordReset(request.service, request.body, request.ip);
    },
  );
};
