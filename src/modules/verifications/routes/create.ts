// POST /v1/sellers/{id}/verifications: start a verification of the seller.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { createVerification } from '../operations.js';
import { CreateVerificationBody, Verification } from '../schemas.js';

export const createVerificationRoute: RouteModule = (app) => {
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
        body: CreateVerificationBody,
        response: { 201: Verification },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createVerification(request.ctx, request.params.id, request.body);
    },
  );
};
