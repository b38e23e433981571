// GET /manage/v1/marketplaces/{id}/modes/{mode}/api_keys
import type { RouteModule } from '../../../http/types.js';
import { MANAGEMENT_TAG } from '../../accounts/schemas.js';
import { listApiKeys } from '../api-keys.js';
import { ApiKeyList, ListApiKeysQuery, ModeParams } from '../schemas.js';

export const listApiKeysRoute: RouteModule = (app) => {
  app.get(
    '/marketplaces/:id/modes/:mode/api_keys',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'List API keys',
        description: 'Newest first; secret keys masked, publishable keys whole; revoked and expired keys included.',
        params: ModeParams,
        querystring: ListApiKeysQuery,
        response: { 200: ApiKeyList },
      },
    },
    async (request) => listApiKeys(request.user, request.params, request.query),
  );
};
