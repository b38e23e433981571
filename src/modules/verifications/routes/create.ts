// POST /v1/sellers/{id}/verifications: start a verification of the seller.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { createVerification } from '../operations.js';
import { CreateVerificationBody, VerificationRecord } from '../schemas.js';

export function createVerificationRoute(app: App, services: Services): void {
  app.post(
    '/sellers/:id/verifications',
    {
      schema: {
        tags: ['Verifications'],
        summary: 'Start a seller verification',
        description:
          "Creates a pending verification; the seller's `verification.status` becomes pending. 409 `invalid_state` when the seller " +
          'is erased, already has a pending verification, or is verified. Emits `verification.created` and `seller.verification_updated`.',
        params: IdParams,
        body: { ...CreateVerificationBody, examples: [{ notes: 'Business registration checked by phone.' }] },
        response: { 201: VerificationRecord },
      },
    },
    async (request, reply) => {
      const verification = await createVerification(services, request.api.scope, request.params.id, request.body);
      reply.code(201);
      return verification;
    },
  );
}
