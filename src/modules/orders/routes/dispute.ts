// POST /v1/orders/{id}/dispute
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { DisputeOrderBody, Order } from '../schemas.js';

export const disputeOrderRoute: RouteModule = (app, services) => {
  app.post(
    '/orders/:id/dispute',
    {
      schema: {
        tags: ['Disputes'],
        summary: 'Dispute an order',
        description:
          'The buyer disputes a committed or claimed order, or a completed one within `dispute_window_seconds` of completion (409 `dispute_window_closed` after): disputed (`order.disputed`, `dispute.created`); the dispute must be decided within `dispute_decision_seconds` (`dispute.decision_overdue` once otherwise). An order is disputed at most once.',
        params: IdParams,
        body: DisputeOrderBody,
        response: { 200: Order },
      },
    },
    async (request) => services.flows.moveOrder(request.ctx, request.params.id, 'dispute', { actor: request.body.actor, reason: request.body.reason }, request.body),
  );
};
