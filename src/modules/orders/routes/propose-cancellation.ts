// POST /v1/orders/{id}/propose_cancellation
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { ActorBody, Order } from '../schemas.js';

export const proposeCancellationRoute: RouteModule = (app, services) => {
  app.post(
    '/orders/:id/propose_cancellation',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Propose a cancellation',
        description:
          'Either party proposes to cancel a committed or claimed order (`order.cancellation_proposed`); the order stays in its state, with `cancellation` set. One proposal at a time (409 `invalid_state`).',
        params: IdParams,
        body: ActorBody,
        response: { 200: Order },
      },
    },
    async (request) => services.flows.moveOrder(request.ctx, request.params.id, 'propose_cancellation', request.body),
  );
};
