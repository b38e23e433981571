// POST /v1/orders/{id}/accept_cancellation
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { ActorBody, Order } from '../schemas.js';

export const acceptCancellationRoute: RouteModule = (app, services) => {
  app.post(
    '/orders/:id/accept_cancellation',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Accept a cancellation',
        description:
          'The party that did not propose accepts: cancelled (`order.cancelled`), the units back to the listing if the order was not claimed. 409 `invalid_state` without a proposal; 403 `actor_not_permitted` for the proposer.',
        params: IdParams,
        body: ActorBody,
        response: { 200: Order },
      },
    },
    async (request) => services.flows.moveOrder(request.ctx, request.params.id, 'accept_cancellation', request.body),
  );
};
