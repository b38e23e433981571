// POST /manage/v1/email_verifications/confirm: the emailed link proves the address.
import type { RouteModule } from '../../../contracts/wiring.js';
import { ConfirmEmailBody, EmailVerification, MANAGEMENT_TAG } from '../schemas.js';
import { confirmEmail } from '../verification.js';

export const confirmEmailRoute: RouteModule = (app) => {
  app.post(
    '/email_verifications/confirm',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Confirm an email address',
        description:
          'With the token of the link sign-up emailed (after #token=). Every attempt is counted before the token is checked: at most 20 ' +
          'per 15 minutes from one client address and 5 per token; past either, 429 rate_limited with Retry-After. A used or expired ' +
          'link answers 400 invalid_request with param token.',
        body: ConfirmEmailBody,
        response: { 200: EmailVerification },
      },
    },
    async (request) => confirmEmail(request.service, request.body, request.ip),
  );
};
