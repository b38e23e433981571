// GET /v1/verifications: newest first, filtered by seller or status.
import { pageRequest } from '../../../http/pagination.js';
import type { App, Services } from '../../../http/types.js';
import { listVerifications } from '../operations.js';
import { VerificationList, VerificationListQuery } from '../schemas.js';

export function listVerificationsRoute(app: App, services: Services): void {
  app.get(
    '/verifications',
    {
      schema: {
        tags: ['Verifications'],
        summary: 'List verifications',
        description: 'Newest first.',
        querystring: VerificationListQuery,
        response: { 200: VerificationList },
      },
    },
    async (request) => {
      const { seller, status } = request.query;
      return listVerifications(services, request.api.scope, pageRequest(request.query, 'verification'), { seller, status });
    },
  );
}
