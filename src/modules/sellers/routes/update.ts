// PATCH /v1/sellers/{id}: the party update body; metadata is replaced whole.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { PartyUpdateBody } from '../../parties/schemas.js';
import { updateSeller } from '../operations.js';
import { SellerRecord } from '../schemas.js';

export function updateSellerRoute(app: App, services: Services): void {
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
        body: { ...PartyUpdateBody, examples: [{ name: 'Ada King', metadata: { tier: 'gold' } }] },
        response: { 200: SellerRecord },
      },
    },
    async (request) => updateSeller(services, request.api.scope, request.params.id, request.body),
  );
}
