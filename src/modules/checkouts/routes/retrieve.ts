// GET /v1/checkouts/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveCheckout } from '../operations.js';
import { Checkout } from '../schemas.js';

export const retrieveCheckoutRoute: RouteModule = (app) => {
  app.get(
    '/checkouts/:id',
    {
      config: { expand: 'checkout' },
      schema: {
        tags: ['Checkouts'],
        summary: 'Retrieve a checkout',
        description: 'The checkout with its status, which follows its orders: `GET /v1/orders?checkout=` lists the orders themselves.',
        params: IdParams,
        response: { 200: Checkout },
      },
    },
    async (request) => retrieveCheckout(request.ctx, request.params.id),
  );
};
