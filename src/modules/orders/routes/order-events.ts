// GET /v1/orders/{id}/events
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { listOrderTransitions } from '../operations.js';
import { ListOrderTransitionsQuery, OrderTransitionList } from '../schemas.js';

export const listOrderEventsRoute: RouteModule = (app) => {
  app.get(
    '/orders/:id/events',
    {
      schema: {
        tags: ['Orders'],
        summary: "List an order's transitions",
        description:
          'Every move of the order, oldest first, paged like every list (`limit`, `starting_after`); the first is its creation (`from: null`, `transition: "create"`). `actor` is the acting buyer or seller, or null for the platform, a timer or the processor.',
        params: IdParams,
        querystring: ListOrderTransitionsQuery,
        response: { 200: OrderTransitionList },
      },
    },
    async (request) => listOrderTransitions(request.ctx, request.params.id, request.query),
  );
};
