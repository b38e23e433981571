// GET /manage/v1/marketplaces/{id}/modes/{mode}/api_keys
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../../http/types.js';
import { ListOf, PageQuery } from '../../../http/schemas.js';
import { listKeys } from '../../marketplaces/api-keys.js';
import { ApiKey, ModeParams, TAG } from '../schemas.js';

export const listApiKeysRoute: RouteModule = (app, services) => {
  app.get(
    '/marketplaces/:id/modes/:mode/api_keys',
    {
      schema: {
        tags: [TAG],
        summary: 'List API keys',
        description: 'Newest first; secret keys masked, publishable keys whole; revoked and expired keys included.',
        params: ModeParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: ListOf(ApiKey) },
      },
    },
    async (request) =>
      listKeys(services, request.principal, { marketplaceId: request.params.id, mode: request.params.mode }, request.query),
  );
};
