// PUT /v1/sellers/{id}/storefront: create or replace the seller's storefront.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { putStorefront } from '../operations.js';
import { StorefrontBody, StorefrontRecord } from '../schemas.js';

export function putStorefrontRoute(app: App, services: Services): void {
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
        body: { ...StorefrontBody, examples: [{ name: "Ada's Prints", slug: 'adas-prints', description: 'Letterpress prints made in Lisbon.' }] },
        response: { 200: StorefrontRecord },
      },
    },
    async (request) => putStorefront(services, request.api.scope, request.params.id, request.body),
  );
}
