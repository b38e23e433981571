// GET /v1/sellers/{id}/profile (PK): what a buyer may see of a seller.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveSellerProfile } from '../operations.js';
import { SellerProfile } from '../schemas.js';

export const retrieveSellerProfileRoute: RouteModule = (app) => {
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
        response: { 200: SellerProfile },
      },
    },
    async (request) => retrieveSellerProfile(request.ctx, request.params.id),
  );
};
