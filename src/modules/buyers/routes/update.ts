// PATCH /v1/buyers/{id}: the party update body; metadata is replaced whole.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { updateBuyer } from '../operations.js';
import { Buyer, UpdateBuyerBody } from '../schemas.js';

export const updateBuyerRoute: RouteModule = (app) => {
  app.patch(
    '/buyers/:id',
    {
      schema: {
        tags: ['Buyers'],
        summary: 'Update a buyer',
        description:
          'Fields left out stay; null clears `external_id`, `name` or `email`; `metadata` is replaced whole. ' +
          'An `external_id` another buyer of this marketplace and mode has answers 409 `resource_exists` (`param: external_id`). ' +
          'Emits `buyer.updated` with `previous_attributes` when something changed. An erased buyer answers 409 `invalid_state`.',
        params: IdParams,
        body: UpdateBuyerBody,
        response: { 200: Buyer },
      },
    },
    async (request) => updateBuyer(request.ctx, request.params.id, request.body),
  );
};
