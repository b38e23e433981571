// POST /v1/orders/{id}/claim
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { ActorBody, Order } from '../schemas.js';

export const claimOrderRoute: RouteModule = (app, services) => {
  app.post(
    '/orders/:id/claim',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Claim an order',
        description:
          'The seller says the order is fulfilled: committed → claimed (`order.claimed`); the buyer then has `confirm_window_seconds` to confirm, after which the order completes by itself. 403 `actor_not_party`, `actor_not_permitted` (the buyer); 409 `invalid_state`.',
        params: IdParams,
        body: ActorBody,
        response: { 200: Order },
      },
    },
    async (request) => services.flows.moveOrder(request.ctx, request.params.id, 'claim', request.body),
  );
};
