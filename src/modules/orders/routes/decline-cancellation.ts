// POST /v1/orders/{id}/decline_cancellation
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { ActorBody, Order } from '../schemas.js';

export const declineCancellationRoute: RouteModule = (app, services) => {
  app.post(
    '/orders/:id/decline_cancellation',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Decline a cancellation',
        description:
          'The party that did not propose declines: the proposal is cleared (`order.cancellation_declined`) and the order stays in its state.',
        params: IdParams,
        body: ActorBody,
        response: { 200: Order },
      },
    },
    async (request) => services.flows.moveOrder(request.ctx, request.params.id, 'decline_cancellation', request.body),
  );
};
