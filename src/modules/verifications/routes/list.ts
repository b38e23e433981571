// GET /v1/verifications: newest first, filtered by seller or status.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listVerifications } from '../operations.js';
import { ListVerificationsQuery, VerificationList } from '../schemas.js';

export const listVerificationsRoute: RouteModule = (app) => {
  app.get(
    '/verifications',
    {
      schema: {
        tags: ['Verifications'],
        summary: 'List verifications',
        description: 'Newest first.',
        querystring: ListVerificationsQuery,
        response: { 200: VerificationList },
      },
    },
    async (request) => listVerifications(request.ctx, request.query),
  );
};
