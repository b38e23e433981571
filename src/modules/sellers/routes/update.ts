// PATCH /v1/sellers/{id}: the party update body; metadata is replaced whole.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { updateSeller } from '../operations.js';
import { Seller, UpdateSellerBody } from '../schemas.js';

export const updateSellerRoute: RouteModule = (app) => {
  app.patch(
    '/sellers/:id',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Update a seller',
        description:
          'Fields left out stay; null clears `external_id`, `name` or `email`; `metadata` is replaced whole. ' +
          'An `external_id` another seller of this marketplace and mode has answers 409 `resource_exists` (`param: external_id`). ' +
          'Emits `seller.updated` with `previous_attributes` when something changed. An erased seller answers 409 `invalid_state`.',
        params: IdParams,
        body: UpdateSellerBody,
        response: { 200: Seller },
      },
    },
    async (request) => updateSeller(request.ctx, request.params.id, request.body),
  );
};
