// POST /v1/sellers/{id}/onboarding_links: a link that sends the seller to the processor's onboarding.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { createOnboardingLink } from '../operations.js';
import { CreateOnboardingLinkBody, OnboardingLink } from '../schemas.js';

export const createOnboardingLinkRoute: RouteModule = (app) => {
  app.post(
    '/sellers/:id/onboarding_links',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Create an onboarding link',
        description:
          "Send the seller to `url` (valid one hour, single use). The first link creates the seller's processor account " +
          '(`payouts.status` pending); completing onboarding enables payouts (`seller.payouts_updated`). ' +
          '404 unknown seller; 409 `invalid_state` for an erased seller; 403 `processor_not_connected` without a processor connection; ' +
          '502 `processor_error` when the processor refuses to onboard the seller or cannot be reached (nothing was recorded: retry).',
        params: IdParams,
        body: CreateOnboardingLinkBody,
        response: { 201: OnboardingLink },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createOnboardingLink(request.ctx, request.params.id, request.body);
    },
  );
};
