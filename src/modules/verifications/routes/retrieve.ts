// GET /v1/verifications/{id}
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { retrieveVerification } from '../operations.js';
import { VerificationRecord } from '../schemas.js';

export function retrieveVerificationRoute(app: App, services: Services): void {
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
        response: { 200: VerificationRecord },
      },
    },
    async (request) => retrieveVerification(services, request.api.scope, request.params.id),
  );
}
