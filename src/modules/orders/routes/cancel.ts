// POST /v1/orders/{id}/cancel
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { CancelOrderBody, Order } from '../schemas.js';

export const cancelOrderRoute: RouteModule = (app, services) => {
  app.post(
    '/orders/:id/cancel',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Cancel an order',
        description:
          'Without `actor`, the platform cancels an order awaiting payment, committed or claimed. With `actor`, the buyer or the seller cancels an order awaiting payment (later, a party proposes a cancellation instead: 403 `actor_not_permitted`). `order.cancelled`; the units go back to the listing unless the order was claimed.',
        params: IdParams,
        body: CancelOrderBody,
        response: { 200: Order },
      },
    },
    async (request) => services.flows.moveOrder(request.ctx, request.params.id, 'cancel', request.body ?? {}),
  );
};
