// DELETE /manage/v1/api_keys/{id}: the key stops working at once.
import type { RouteModule } from '../../../http/types.js';
import { IdParams } from '../../../http/schemas.js';
import { revokeKey } from '../../marketplaces/api-keys.js';
import { ApiKey, TAG } from '../schemas.js';

export const revokeApiKeyRoute: RouteModule = (app, services) => {
  app.delete(
    '/api_keys/:id',
    {
      schema: {
        tags: [TAG],
        summary: 'Revoke an API key',
        description:
          'Answers the revoked key. An already revoked key answers 409 invalid_state. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: IdParams,
        response: { 200: ApiKey },
      },
    },
    async (request) => revokeKey(services, request.principal, request.params.id),
  );
};
