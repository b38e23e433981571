// PUT /v1/sellers/{id}/storefront: create or replace the seller's storefront.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { putStorefront } from '../operations.js';
import { PutStorefrontBody, Storefront } from '../schemas.js';

export const putStorefrontRoute: RouteModule = (app) => {
  app.put(
    '/sellers/:id/storefront',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Create or replace the storefront',
        description:
          'Replaces the whole storefront (fields left out become null or empty). `slug` is unique per marketplace and mode ' +
          '(409 `resource_exists`, `param: slug`). An erased seller answers 409 `invalid_state`. ' +
          'Emits `seller.updated` with `previous_attributes.storefront`.',
        params: IdParams,
        body: PutStorefrontBody,
        response: { 200: Storefront },
      },
    },
    async (request) => putStorefront(request.ctx, request.params.id, request.body),
  );
};
