// GET /manage/v1/marketplaces/{id}/modes/{mode}/api_keys
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { listApiKeys } from '../api-keys.js';
import { ApiKeyList, ListApiKeysQuery, ModeParams } from '../schemas.js';

export const listApiKeysRoute: RouteModule = (app) => {
  app.get(
    '/marketplaces/:id/modes/:mode/api_keys',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'List API keys',
        description:
          'Newest first, revoked and expired keys included; `type` keeps one type. A publishable key is public and shown whole in `key` ' +
          '(copy it from here into a storefront at any time); a secret key has `key: null` here, its whole value was shown once, ' +
          'when created or rolled. `masked` (type, mode, last four characters) names either kind.',
        params: ModeParams,
        querystring: ListApiKeysQuery,
        response: { 200: ApiKeyList },
      },
    },
    async (request) => listApiKeys(request.user, request.params, request.query),
  );
};
