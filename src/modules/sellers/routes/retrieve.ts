// GET /v1/sellers/{id}
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { retrieveSeller } from '../operations.js';
import { SellerRecord } from '../schemas.js';

export function retrieveSellerRoute(app: App, services: Services): void {
  app.get(
    '/sellers/:id',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Retrieve a seller',
        description:
          'An erased seller is still found, with `erased_at` set and `external_id`, `name`, `email`, `suspended_reason` and `storefront` null and `metadata` empty. ' +
          'An id that is not a seller of this marketplace and mode answers 404 `resource_missing`.',
        params: IdParams,
        response: { 200: SellerRecord },
      },
    },
    async (request) => retrieveSeller(services, request.api.scope, request.params.id),
  );
}
