// GET /v1/buyers/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveBuyer } from '../operations.js';
import { Buyer } from '../schemas.js';

export const retrieveBuyerRoute: RouteModule = (app) => {
  app.get(
    '/buyers/:id',
    {
      schema: {
        tags: ['Buyers'],
        summary: 'Retrieve a buyer',
        description:
          'An erased buyer is still found, with `erased_at` set, `external_id`, `name` and `email` null and `metadata` empty. ' +
          'An id that is not a buyer of this marketplace and mode answers 404 `resource_missing`.',
        params: IdParams,
        response: { 200: Buyer },
      },
    },
    async (request) => retrieveBuyer(request.ctx, request.params.id),
  );
};
