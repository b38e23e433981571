// GET /v1/orders/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveOrder } from '../operations.js';
import { Order } from '../schemas.js';

export const retrieveOrderRoute: RouteModule = (app) => {
  app.get(
    '/orders/:id',
    {
      config: { expand: 'order' },
      schema: {
        tags: ['Orders'],
        summary: 'Retrieve an order',
        params: IdParams,
        response: { 200: Order },
      },
    },
    async (request) => retrieveOrder(request.ctx, request.params.id),
  );
};
