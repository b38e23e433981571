// POST /v1/disputes/{id}/decide
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { DecideDisputeBody, Dispute } from '../schemas.js';

export const decideDisputeRoute: RouteModule = (app, services) => {
  app.post(
    '/disputes/:id/decide',
    {
      schema: {
        tags: ['Disputes'],
        summary: 'Decide a dispute',
        description:
          'The platform decides an open dispute (`dispute.updated`, `dispute.decided`). For the seller: the order completes and the release goes on. For the buyer: the order is cancelled and what is not refunded yet is refunded (`order_cancelled`). The party decided against gets a `dispute_lost` reputation event. 409 `invalid_state` once decided.',
        params: IdParams,
        body: DecideDisputeBody,
        response: { 200: Dispute },
      },
    },
    async (request) => services.flows.decideDispute(request.ctx, request.params.id, request.body),
  );
};
