// GET /v1/orders
import type { RouteModule } from '../../../contracts/wiring.js';
import { listOrders } from '../operations.js';
import { ListOrdersQuery, OrderList } from '../schemas.js';

export const listOrdersRoute: RouteModule = (app) => {
  app.get(
    '/orders',
    {
      config: { expand: 'order' },
      schema: {
        tags: ['Orders'],
        summary: 'List orders',
        description:
          'Newest first, filtered by `buyer`, `seller`, `listing`, `state` and `checkout` (the orders of one checkout).',
        querystring: ListOrdersQuery,
        response: { 200: OrderList },
      },
    },
    async (request) => listOrders(request.ctx, request.query),
  );
};
