// PATCH /v1/buyers/{id}: the party update body; metadata is replaced whole.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { PartyUpdateBody } from '../../parties/schemas.js';
import { updateBuyer } from '../operations.js';
import { BuyerRecord } from '../schemas.js';

export function updateBuyerRoute(app: App, services: Services): void {
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
        body: { ...PartyUpdateBody, examples: [{ email: 'grace.hopper@example.com' }] },
        response: { 200: BuyerRecord },
      },
    },
    async (request) => updateBuyer(services, request.api.scope, request.params.id, request.body),
  );
}
