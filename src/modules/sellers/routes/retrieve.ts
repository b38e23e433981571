// GET /v1/sellers/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveSeller } from '../operations.js';
import { Seller } from '../schemas.js';

export const retrieveSellerRoute: RouteModule = (app) => {
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
        response: { 200: Seller },
      },
    },
    async (request) => retrieveSeller(request.ctx, request.params.id),
  );
};
