// GET /v1/sellers/{id}/profile (PK): what a buyer may see of a seller.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { getSellerProfile } from '../operations.js';
import { SellerProfileRecord } from '../schemas.js';

export function sellerProfileRoute(app: App, services: Services): void {
  app.get(
    '/sellers/:id/profile',
    {
      schema: {
        tags: ['Sellers'],
        summary: "Retrieve a seller's public profile",
        description:
          'Callable with a publishable key from a browser. Shows name, storefront and reputation; never email, external id or metadata. ' +
          'An erased seller answers with `name` and `storefront` null.',
        params: IdParams,
        response: { 200: SellerProfileRecord },
      },
    },
    async (request) => getSellerProfile(services, request.api.scope, request.params.id),
  );
}
