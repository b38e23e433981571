// POST /manage/v1/marketplaces/{id}/modes/{mode}/api_keys
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { createApiKey } from '../api-keys.js';
import { CreateApiKeyBody, CreatedApiKey, ModeParams } from '../schemas.js';

export const createApiKeyRoute: RouteModule = (app) => {
  app.post(
    '/marketplaces/:id/modes/:mode/api_keys',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Create an API key',
        description:
          'A secret key is shown whole in this answer only; store it now. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise). ' +
          'A mode has at most `MAX_API_KEYS` working keys (a setting of the service, default 20; revoked and expired ones do not count); past it 409 `limit_exceeded`: revoke one first.',
        params: ModeParams,
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createApiKey(request.user, request.params, request.body);
    },
  );
};
