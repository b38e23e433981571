// DELETE /manage/v1/api_keys/{id}: the key stops working at once.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { revokeApiKey } from '../api-keys.js';
import { ApiKey } from '../schemas.js';

export const revokeApiKeyRoute: RouteModule = (app) => {
  app.delete(
    '/api_keys/:id',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Revoke an API key',
        description:
          'Answers the revoked key (a publishable key whole, a secret key masked). An already revoked key answers 409 invalid_state. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: IdParams,
        response: { 200: ApiKey },
      },
    },
    async (request) => revokeApiKey(request.user, request.params.id),
  );
};
