// POST /v1/sellers/{id}/suspend: active → suspended, recorded as a moderation action.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { changeSuspension } from '../operations.js';
import { Seller, SuspendSellerBody } from '../schemas.js';

export const suspendSellerRoute: RouteModule = (app) => {
  app.post(
    '/sellers/:id/suspend',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Suspend a seller',
        description:
          'active → suspended: the seller can no longer publish or take orders. 409 `invalid_state` otherwise. ' +
          'Emits `seller.suspended` and records a moderation action (`moderation_action.created`).',
        params: IdParams,
        body: SuspendSellerBody,
        response: { 200: Seller },
      },
    },
    async (request) => changeSuspension(request.ctx, request.params.id, 'suspend', request.body.reason),
  );
};
