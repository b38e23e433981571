// POST /v1/orders/{id}/confirm
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { ActorBody, Order } from '../schemas.js';

export const confirmOrderRoute: RouteModule = (app, services) => {
  app.post(
    '/orders/:id/confirm',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Confirm an order',
        description:
          'The buyer confirms a claimed order: completed (`order.completed`); its units are sold (the listing becomes sold when all are), and the seller share is released after `release_delay_seconds`. 403 `actor_not_party`, `actor_not_permitted` (the seller); 409 `invalid_state`.',
        params: IdParams,
        body: ActorBody,
        response: { 200: Order },
      },
    },
    async (request) => services.flows.moveOrder(request.ctx, request.params.id, 'confirm', request.body),
  );
};
