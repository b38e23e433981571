// POST /manage/v1/password_resets/confirm: the new password, with the emailed token.
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { confirmPasswordReset } from '../password-resets.js';
import { ConfirmPasswordResetBody, PasswordResetDone } from '../schemas.js';

export const confirmPasswordResetRoute: RouteModule = (app) => {
  app.post(
    '/password_resets/confirm',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Reset a password',
        operationId: 'confirmPasswordReset',
        description:
          'Sets the new password (at least 10 characters) and ends every dashboard session and management token of the user; log in ' +
          'again afterwards. An unknown, used or expired token answers 400 invalid_request with param token. Every attempt is counted ' +
          'before the token is checked: at most 20 per client address and 5 per token in 15 minutes; past either, 429 rate_limited ' +
          'with Retry-After, the seconds until that window ends.',
        body: ConfirmPasswordResetBody,
        response: { 200: PasswordResetDone },
      },
    },
    async (request) => confirmPasswordReset(request.service, request.body, request.ip),
  );
};
