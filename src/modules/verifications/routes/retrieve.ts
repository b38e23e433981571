// GET /v1/verifications/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveVerification } from '../operations.js';
import { Verification } from '../schemas.js';

export const retrieveVerificationRoute: RouteModule = (app) => {
  app.get(
    '/verifications/:id',
    {
      schema: {
        tags: ['Verifications'],
        summary: 'Retrieve a verification',
        description:
          '`decided_at` is set once it is approved or rejected, `reason` once rejected. Erasing the seller clears `notes`, `reason` and `metadata`. ' +
          'An id that is not a verification of this marketplace and mode answers 404 `resource_missing`.',
        params: IdParams,
        response: { 200: Verification },
      },
    },
    async (request) => retrieveVerification(request.ctx, request.params.id),
  );
};
