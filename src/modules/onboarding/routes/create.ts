// POST /v1/sellers/{id}/onboarding_links: a link that sends the seller to the processor's onboarding.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { createOnboardingLink } from '../operations.js';
import { OnboardingLinkBody, OnboardingLinkRecord } from '../schemas.js';

export function createOnboardingLinkRoute(app: App, services: Services): void {
  app.post(
    '/sellers/:id/onboarding_links',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Create an onboarding link',
        description:
          "Send the seller to `url` (valid one hour, single use). The first link creates the seller's processor account " +
          '(`payouts.status` pending); completing onboarding enables payouts (`seller.payouts_updated`). ' +
          '404 unknown seller; 409 `invalid_state` for an erased seller; 403 `processor_not_connected` without a processor connection.',
        params: IdParams,
        body: {
          ...OnboardingLinkBody,
          examples: [{ return_url: 'https://platform.example/onboarding/done', refresh_url: 'https://platform.example/onboarding/retry' }],
        },
        response: { 201: OnboardingLinkRecord },
      },
    },
    async (request, reply) => {
      const link = await createOnboardingLink(services, request.api.scope, request.params.id, request.body);
      reply.code(201);
      return link;
    },
  );
}
