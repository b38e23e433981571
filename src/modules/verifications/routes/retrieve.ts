// GET /v1/verifications/{id}
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { retrieveVerification } from '../operations.js';
import { VerificationRecord } from '../schemas.js';

export function retrieveVerificationRoute(app: App, services: Services): void {
  app.get(
    '/verifications/:id',
    { schema: { tags: ['Verifications'], summary: 'Retrieve a verification', params: IdParams, response: { 200: VerificationRecord } } },
    async (request) => retrieveVerification(services, request.api.scope, request.params.id),
  );
}
